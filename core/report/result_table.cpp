#include "report/result_table.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "report/table.h"
#include "util/readable_units.h"

namespace gapscope {

int ResultTable::column(std::string_view key) const {
    for (size_t c = 0; c < columns.size(); ++c)
        if (columns[c].key == key) return static_cast<int>(c);
    return -1;
}

const ResultCell& ResultTable::at(size_t row, std::string_view key) const {
    static const ResultCell kNull;
    const int c = column(key);
    if (c < 0 || row >= rows.size() || static_cast<size_t>(c) >= rows[row].cells.size())
        return kNull;
    return rows[row].cells[static_cast<size_t>(c)];
}

ResultTable projectColumns(const ResultTable& table, const std::vector<size_t>& columns,
                           size_t top) {
    ResultTable out;
    out.id = table.id;
    out.title = table.title;
    for (const size_t c : columns)
        out.columns.push_back(table.columns[c]);
    for (const ResultRow& row : table.rows) {
        if (top && out.rows.size() == top) break;
        ResultRow r;
        r.ref = row.ref;
        r.unit = row.unit;
        for (const size_t c : columns)
            r.cells.push_back(c < row.cells.size() ? row.cells[c] : ResultCell());
        out.rows.push_back(std::move(r));
    }
    return out;
}

ResultTable project(const ResultTable& table, std::initializer_list<std::string_view> keys,
                    size_t top) {
    return project(table, std::vector<std::string_view>(keys), top);
}

ResultTable project(const ResultTable& table, const std::vector<std::string_view>& keys,
                    size_t top) {
    std::vector<size_t> picked;
    for (const std::string_view key : keys)
        if (const int c = table.column(key); c >= 0) picked.push_back(static_cast<size_t>(c));
    if (keys.empty())
        for (size_t c = 0; c < table.columns.size(); ++c)
            picked.push_back(c);
    return projectColumns(table, picked, top);
}

bool isNumeric(Unit unit) {
    return unit != Unit::Text && unit != Unit::Flag;
}

namespace {

std::string fixed(double v, int decimals) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

double asReal(const ResultCell& cell) {
    if (const auto* i = std::get_if<int64_t>(&cell)) return static_cast<double>(*i);
    if (const auto* d = std::get_if<double>(&cell)) return *d;
    return 0;
}

std::string numberText(const ResultCell& cell, int decimals) {
    if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
    return fixed(asReal(cell), decimals);
}

}  // namespace

std::string fitText(const std::string& text, size_t width) {
    size_t points = 0;
    for (const char c : text)
        points += (c & 0xC0) != 0x80;
    if (width < 5 || points <= width) return text;
    const size_t keep = width - 1, head = keep / 2, tail = keep - head;
    auto byteOfPoint = [&](size_t point) {
        size_t seen = 0;
        for (size_t i = 0; i < text.size(); ++i) {
            if ((text[i] & 0xC0) == 0x80) continue;
            if (seen++ == point) return i;
        }
        return text.size();
    };
    return text.substr(0, byteOfPoint(head)) + "…" + text.substr(byteOfPoint(points - tail));
}

namespace {
std::string unsignedCellText(const ResultCell& cell, const ResultColumn& column, bool readable,
                             TimeNs origin);
}  // namespace

std::string cellText(const ResultCell& cell, const ResultColumn& column, bool readable,
                     TimeNs origin) {
    std::string text = unsignedCellText(cell, column, readable, origin);
    if (!column.signedChange) return text;
    // The change of a share, in its row's unit: percentage points.
    if (readable && column.unitPerRow && column.unit == Unit::Share &&
        !std::holds_alternative<std::monostate>(cell))
        text = fixed(asReal(cell) * 100, 1) + " pp";
    const auto* i = std::get_if<int64_t>(&cell);
    const auto* d = std::get_if<double>(&cell);
    const bool positive = (i && *i > 0) || (d && *d > 0);
    // Not for a value that reads as zero ("+0.0 %" would claim a rise).
    const bool zero = text.find_first_of("123456789") == std::string::npos;
    return positive && !zero ? "+" + text : text;
}

namespace {

std::string unsignedCellText(const ResultCell& cell, const ResultColumn& column, bool readable,
                             TimeNs origin) {
    if (std::holds_alternative<std::monostate>(cell))
        return column.unit == Unit::Flag ? "unknown" : "-";
    if (const auto* s = std::get_if<std::string>(&cell)) {
        if (readable) {
            for (const auto& [value, label] : column.labels)
                if (value == *s) return label;
        }
        return *s;
    }
    if (const auto* texts = std::get_if<std::vector<std::string>>(&cell)) {
        std::string out;
        for (const std::string& t : *texts)
            out += (out.empty() ? "" : "; ") + t;
        return out;
    }
    if (const auto* list = std::get_if<std::vector<int64_t>>(&cell)) {
        std::string out;
        for (const int64_t v : *list) {
            if (!out.empty()) out += readable ? "×" : "x";
            out += std::to_string(v);
        }
        return out;
    }
    const double v = asReal(cell);
    switch (column.unit) {
        case Unit::Duration:
            return readable ? readableDuration(static_cast<TimeNs>(std::llround(v)))
                            : numberText(cell, column.decimals);
        case Unit::Bytes:
            return readable ? readableBytes(v) : numberText(cell, 0);
        case Unit::Share:
            return readable ? readablePercent(v) : fixed(v * 100, 2);
        case Unit::Flag:
            return v != 0 ? "yes" : "no";
        case Unit::Time:
            if (readable) {
                const auto* i = std::get_if<int64_t>(&cell);
                return readableDuration((i ? *i : static_cast<TimeNs>(std::llround(v))) - origin);
            }
            break;
        case Unit::Count:
            if (readable) {
                if (const auto* i = std::get_if<int64_t>(&cell)) return readableCount(*i);
            }
            break;
        case Unit::Number:
        case Unit::Text:
            break;
    }
    return numberText(cell, column.decimals);
}

}  // namespace

std::string exactHeader(const ResultColumn& column) {
    switch (column.unit) {
        case Unit::Duration:
            return column.title + " (ns)";
        case Unit::Time:
            return column.title + " (absolute ns)";
        case Unit::Bytes:
            return column.title + " (bytes)";
        case Unit::Share:
            return column.title + " (%)";
        default:
            return column.title;
    }
}

ResultColumn columnForRow(const ResultColumn& column, const ResultRow& row) {
    ResultColumn c = column;
    if (c.unitPerRow) c.unit = row.unit;
    return c;
}

std::string renderResult(const ResultTable& table, OutputFormat format,
                         const RenderOptions& options) {
    const bool dropSparse = format != OutputFormat::Csv && format != OutputFormat::Json;
    std::vector<std::string_view> unused;
    for (const ResultColumn& c : table.columns) {
        if (!dropSparse || !c.sparse) continue;
        const int i = table.column(c.key);
        const bool any = std::any_of(table.rows.begin(), table.rows.end(), [&](const ResultRow& r) {
            return static_cast<size_t>(i) < r.cells.size() &&
                   !std::holds_alternative<std::monostate>(r.cells[static_cast<size_t>(i)]);
        });
        if (!any) unused.push_back(c.key);
    }
    ResultTable shown;
    if (!unused.empty()) {
        std::vector<size_t> keep;
        for (size_t c = 0; c < table.columns.size(); ++c)
            if (std::find(unused.begin(), unused.end(), table.columns[c].key) == unused.end())
                keep.push_back(c);
        shown = projectColumns(table, keep);
    }
    const ResultTable& result = unused.empty() ? table : shown;
    TextGrid t;
    for (const ResultColumn& c : result.columns) {
        t.headers.push_back(!options.readable      ? exactHeader(c)
                            : c.unit == Unit::Time ? c.title + " (from the start)"
                                                   : c.title);
        t.numeric.push_back(c.unitPerRow || isNumeric(c.unit));
    }
    for (const ResultRow& row : result.rows) {
        std::vector<std::string> cells;
        for (size_t c = 0; c < result.columns.size(); ++c) {
            static const ResultCell kNoValue;
            const ResultCell& cell = c < row.cells.size() ? row.cells[c] : kNoValue;
            // CSV leaves a missing value empty, so a numeric column stays numeric.
            ResultColumn column = columnForRow(result.columns[c], row);
            // CSV is a number to read back: no "+" before a rise.
            if (format == OutputFormat::Csv) column.signedChange = false;
            // Exactly, a row's share is the fraction its unit column names
            // ("share"), as in JSON, with four decimals at least.
            if (!options.readable && result.columns[c].unitPerRow && column.unit == Unit::Share) {
                column.unit = Unit::Number;
                column.decimals = std::max(column.decimals, 4);
            }
            const bool empty = format == OutputFormat::Csv &&
                               std::holds_alternative<std::monostate>(cell) &&
                               column.unit != Unit::Flag;
            std::string text =
                empty ? std::string() : cellText(cell, column, options.readable, options.origin);
            if (format == OutputFormat::Text && result.columns[c].unit == Unit::Text)
                text = fitText(text, options.textWidth);
            cells.push_back(std::move(text));
        }
        t.rows.push_back(std::move(cells));
    }
    return formatGrid(t, format);
}

}  // namespace gapscope
