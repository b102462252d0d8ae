#include "python_values.h"

#include <pybind11/numpy.h>

#include <cmath>
#include <limits>

#include "report/analysis_render.h"
#include "report/result_json.h"

namespace py = pybind11;

namespace gapscope::python {

py::str text(std::string_view utf8) {
    PyObject* s =
        PyUnicode_DecodeUTF8(utf8.data(), static_cast<Py_ssize_t>(utf8.size()), "replace");
    if (!s) throw py::error_already_set();
    return py::reinterpret_steal<py::str>(s);
}

py::object toPython(const nlohmann::json& v) {
    switch (v.type()) {
        case nlohmann::json::value_t::null:
            return py::none();
        case nlohmann::json::value_t::boolean:
            return py::bool_(v.get<bool>());
        case nlohmann::json::value_t::number_integer:
            return py::int_(v.get<int64_t>());
        case nlohmann::json::value_t::number_unsigned:
            return py::int_(v.get<uint64_t>());
        case nlohmann::json::value_t::number_float:
            return py::float_(v.get<double>());
        case nlohmann::json::value_t::string:
            return text(v.get_ref<const std::string&>());
        case nlohmann::json::value_t::array: {
            py::list out;
            for (const auto& e : v)
                out.append(toPython(e));
            return out;
        }
        case nlohmann::json::value_t::object: {
            py::dict out;
            for (const auto& [key, e] : v.items())
                out[text(key)] = toPython(e);
            return out;
        }
        default:
            return py::none();
    }
}

namespace {

enum class Storage { Integers, Reals, Objects };

// How a column is handed over: by what its cells hold as JSON.
Storage storageOf(const ResultTable& table, size_t c) {
    const ResultColumn& column = table.columns[c];
    if (column.unit == Unit::Flag || column.unitPerRow) return Storage::Objects;
    bool anyReal = false, anyNull = false;
    for (const ResultRow& row : table.rows) {
        const ResultCell& cell = c < row.cells.size() ? row.cells[c] : ResultCell();
        if (std::holds_alternative<std::monostate>(cell)) {
            anyNull = true;
        } else if (std::holds_alternative<double>(cell)) {
            anyReal = true;
        } else if (!std::holds_alternative<int64_t>(cell)) {
            return Storage::Objects;
        }
    }
    if (anyReal) return Storage::Reals;
    return anyNull ? Storage::Objects : Storage::Integers;
}

}  // namespace

py::dict tableColumns(const ResultTable& table) {
    py::list columns;
    const size_t n = table.rows.size();
    for (size_t c = 0; c < table.columns.size(); ++c) {
        const ResultColumn& column = table.columns[c];
        auto cellAt = [&](size_t r) -> const ResultCell& {
            static const ResultCell none;
            return c < table.rows[r].cells.size() ? table.rows[r].cells[c] : none;
        };
        py::object values;
        switch (storageOf(table, c)) {
            case Storage::Integers: {
                py::array_t<int64_t> a(static_cast<py::ssize_t>(n));
                auto w = a.mutable_unchecked<1>();
                for (size_t r = 0; r < n; ++r)
                    w(static_cast<py::ssize_t>(r)) = std::get<int64_t>(cellAt(r));
                values = std::move(a);
                break;
            }
            case Storage::Reals: {
                py::array_t<double> a(static_cast<py::ssize_t>(n));
                auto w = a.mutable_unchecked<1>();
                for (size_t r = 0; r < n; ++r) {
                    const ResultCell& cell = cellAt(r);
                    const auto* i = std::get_if<int64_t>(&cell);
                    const auto* d = std::get_if<double>(&cell);
                    w(static_cast<py::ssize_t>(r)) = i   ? static_cast<double>(*i)
                                                     : d ? *d
                                                         : std::numeric_limits<double>::quiet_NaN();
                }
                values = std::move(a);
                break;
            }
            case Storage::Objects: {
                py::list list(static_cast<py::ssize_t>(n));
                for (size_t r = 0; r < n; ++r) {
                    const ResultColumn own = columnForRow(column, table.rows[r]);
                    list[static_cast<py::ssize_t>(r)] = toPython(cellJson(cellAt(r), own));
                }
                values = std::move(list);
                break;
            }
        }
        columns.append(py::make_tuple(text(column.key), unitName(column.unit), values));
    }
    py::dict out;
    out["id"] = text(table.id);
    out["title"] = text(table.title);
    out["columns"] = columns;
    return out;
}

}  // namespace gapscope::python
