#include "report/result_json.h"

namespace gapscope {

nlohmann::json cellJson(const ResultCell& cell, const ResultColumn& column) {
    if (std::holds_alternative<std::monostate>(cell)) return nullptr;
    if (column.unit == Unit::Flag) {
        if (const auto* i = std::get_if<int64_t>(&cell)) return *i != 0;
    }
    return std::visit(
        [](const auto& v) -> nlohmann::json {
            if constexpr (std::is_same_v<std::decay_t<decltype(v)>, std::monostate>)
                return nullptr;
            else
                return v;
        },
        cell);
}

nlohmann::json resultRowJson(const ResultTable& table, const ResultRow& row) {
    nlohmann::json out = nlohmann::json::object();
    for (size_t c = 0; c < table.columns.size(); ++c) {
        const ResultColumn column = columnForRow(table.columns[c], row);
        const ResultCell& cell = c < row.cells.size() ? row.cells[c] : ResultCell();
        const size_t dot = column.key.find('.');
        if (dot == std::string::npos) {
            out[column.key] = cellJson(cell, column);
            continue;
        }
        // A nested group: null until one of its cells has a value; its null
        // cells are left out.
        const std::string group = column.key.substr(0, dot);
        if (!out.contains(group)) out[group] = nullptr;
        if (std::holds_alternative<std::monostate>(cell)) continue;
        if (out[group].is_null()) out[group] = nlohmann::json::object();
        out[group][column.key.substr(dot + 1)] = cellJson(cell, column);
    }
    return out;
}

nlohmann::json resultRowsJson(const ResultTable& table) {
    nlohmann::json rows = nlohmann::json::array();
    for (const ResultRow& row : table.rows)
        rows.push_back(resultRowJson(table, row));
    return rows;
}

}  // namespace gapscope
