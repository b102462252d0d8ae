#include "panels/result_rows.h"

#include <map>
#include <string>
#include <vector>

#include "util/symbol_names.h"

namespace gapscope::ui {

namespace {

CellKind kindOf(Unit unit) {
    switch (unit) {
        case Unit::Count:
            return CellKind::Count;
        case Unit::Duration:
            return CellKind::Duration;
        case Unit::Time:
            return CellKind::Time;
        case Unit::Bytes:
            return CellKind::Bytes;
        case Unit::Share:
            return CellKind::Percent;
        case Unit::Number:
            return CellKind::Number;
        case Unit::Text:
        case Unit::Flag:
            break;
    }
    return CellKind::Text;
}

TableCell cellOf(const ResultCell& cell, const ResultColumn& column, TimeNs origin) {
    if (std::holds_alternative<std::monostate>(cell) && column.unit != Unit::Flag)
        return TableCell::none();
    // A figure whose unit is its row's: core's text, whatever the column's kind.
    const CellKind kind =
        column.unitPerRow || column.signedChange ? CellKind::Number : kindOf(column.unit);
    const QString text = QString::fromStdString(cellText(cell, column, true, origin));
    if (kind == CellKind::Text && (column.symbol || column.path)) {
        // A function's short name, or a file's name; the whole in the tooltip.
        const std::string* full = std::get_if<std::string>(&cell);
        if (!full) return TableCell::ofText(text);
        TableCell c =
            TableCell::ofText(column.symbol ? QString::fromStdString(shortSymbolName(*full))
                                            : text.mid(text.lastIndexOf('/') + 1));
        if (c.text != text) c.tooltip = text;
        return c;
    }
    if (kind == CellKind::Text) return TableCell::ofText(text);
    if (kind == CellKind::Number || column.unitPerRow) {  // as core writes it, sorted by value
        TableCell c = TableCell::ofText(text);
        if (const auto* i = std::get_if<int64_t>(&cell)) c.number = static_cast<double>(*i);
        if (const auto* d = std::get_if<double>(&cell)) c.number = *d;
        return c;
    }
    if (const auto* i = std::get_if<int64_t>(&cell)) {
        if (kind == CellKind::Time) return TableCell::ofTime(*i, origin);
        return TableCell::of(static_cast<double>(*i));
    }
    if (const auto* d = std::get_if<double>(&cell)) return TableCell::of(*d);
    return TableCell::ofText(QString::fromStdString(cellText(cell, column, true, origin)));
}

}  // namespace

NavTarget navTargetOf(const ResultRef& ref) {
    NavTarget t;
    switch (ref.kind) {
        case ResultRef::Kind::None:
            break;
        case ResultRef::Kind::Slice:
            t = NavTarget::toSlice(ref.slice);
            t.range = ref.range;
            break;
        case ResultRef::Kind::Range:
            return NavTarget::toRange(ref.range);
        case ResultRef::Kind::Name:
            t.kind = NavTarget::Kind::Name;
            t.name = ref.name;
            t.slice = ref.slice;
            break;
        case ResultRef::Kind::Step:
            t.kind = NavTarget::Kind::Step;
            t.slice = ref.slice;
            t.range = ref.range;
            t.step = ref.step;
            break;
    }
    return t;
}

ResultRows resultRows(ResultTable table, TimeNs origin) {
    ResultRows out;
    out.origin = origin;
    for (const ResultColumn& c : table.columns) {
        out.columns.emplace_back(QString::fromStdString(c.title),
                                 c.unitPerRow || c.signedChange ? CellKind::Number : kindOf(c.unit),
                                 QString::fromStdString(c.key));
        out.columns.back().sparse = c.sparse;
    }
    // A function column's short names, each long enough to tell it apart
    // from the column's others (two kernels of one short name).
    std::map<size_t, std::map<std::string, std::string>> shortNames;
    for (size_t c = 0; c < table.columns.size(); ++c) {
        if (!table.columns[c].symbol) continue;
        std::vector<std::string_view> names;
        for (const ResultRow& r : table.rows)
            if (c < r.cells.size())
                if (const auto* name = std::get_if<std::string>(&r.cells[c]))
                    names.push_back(*name);
        const std::vector<std::string> distinct = distinctShortNames(names);
        for (size_t i = 0; i < names.size(); ++i)
            shortNames[c].emplace(std::string(names[i]), distinct[i]);
    }
    auto rows = std::make_shared<std::vector<TableRow>>();
    rows->reserve(table.rows.size());
    for (const ResultRow& r : table.rows) {
        TableRow row;
        for (size_t c = 0; c < table.columns.size(); ++c) {
            row.cells.push_back(c < r.cells.size()
                                    ? cellOf(r.cells[c], columnForRow(table.columns[c], r), origin)
                                    : TableCell::none());
            const auto names = shortNames.find(c);
            const auto* full = c < r.cells.size() ? std::get_if<std::string>(&r.cells[c]) : nullptr;
            if (names == shortNames.end() || !full) continue;
            TableCell& cell = row.cells.back();
            cell.text = QString::fromStdString(names->second.at(*full));
            cell.tooltip = cell.text == QString::fromStdString(*full)
                               ? QString()
                               : QString::fromStdString(*full);
        }
        row.target = navTargetOf(r.ref);
        rows->push_back(std::move(row));
    }
    out.rows = std::move(rows);
    out.result = std::make_shared<const ResultTable>(std::move(table));
    return out;
}

}  // namespace gapscope::ui
