#pragma once
// Values handed to Python: nlohmann/json as Python objects, and an
// analysis's typed tables as columns that pandas takes without a Python
// object per number (integers and reals as NumPy arrays).

#include <pybind11/pybind11.h>

#include <nlohmann/json.hpp>
#include <string_view>

#include "report/result_table.h"

namespace gapscope::python {

// Text as Python's str; bytes that are not UTF-8 (a trace may hold them)
// become U+FFFD, as the CLI's JSON writes them.
pybind11::str text(std::string_view utf8);

pybind11::object toPython(const nlohmann::json& value);

// {"id", "title", "columns": [(key, unit, values)]}: values are an int64
// array (every cell an integer), a float64 array (a real among them; null
// is NaN), or a list (text, lists, flags, integers with nulls: None for
// null), each cell as the CLI's JSON writes it.
pybind11::dict tableColumns(const ResultTable& table);

}  // namespace gapscope::python
