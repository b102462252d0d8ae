#pragma once
// The shape of an analysis's output whatever the trace (its tables and
// their columns), and from it the JSON Schema of its --format json, which
// docs/schema/ANALYSIS.schema.json publishes. Columns carry their unit
// ("x-unit") and CSV header ("x-csv-header") for readers of both formats.

#include <nlohmann/json.hpp>
#include <vector>

#include "report/analysis_registry.h"

namespace gapscope {

// The tables an analysis renders (report/analysis_render.h), without rows:
// computed over an empty trace. A table's columns depend neither on the
// trace nor on the options (a column without a value is null), so this is
// the shape of every output; the output contract test checks it on real
// traces.
struct TableShape {
    ResultTable table;           // id, title, every column
    std::vector<bool> required;  // per column: always written
};
std::vector<TableShape> analysisShape(const Analysis& analysis);

nlohmann::json analysisSchema(const Analysis& analysis);

}  // namespace gapscope
