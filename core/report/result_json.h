#pragma once
// A result's rows as JSON: one object per row, each column's key with the
// raw figure (integer ns and bytes, shares as fractions, null where there is
// no value); a key with a dot nests ("launch.grid" -> "launch": {"grid":
// ...}), a nested object without any value is null.

#include <nlohmann/json.hpp>

#include "report/result_table.h"

namespace gapscope {

nlohmann::json cellJson(const ResultCell& cell, const ResultColumn& column);
nlohmann::json resultRowJson(const ResultTable& table, const ResultRow& row);
nlohmann::json resultRowsJson(const ResultTable& table);

}  // namespace gapscope
