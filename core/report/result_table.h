#pragma once
// One analysis result as a typed table, defined once in core and rendered
// by every view: the CLI (text, CSV, Markdown, HTML, JSON), the summary,
// the reports, the panels and their exports. A column has a JSON key, a
// title for people and a unit; a cell holds the figure itself (integer ns,
// bytes, a share in [0, 1]), never its text, so no view re-derives or
// re-parses a number. A row may name what it is about on the timeline
// (a slice, every slice of a name, a range, a step).

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "index/interval_set.h"
#include "report/output_format.h"
#include "util/figure_unit.h"
#include "util/types.h"

namespace gapscope {

struct ResultColumn {
    std::string key;    // JSON key; "launch.grid" nests ("launch": {"grid": ...})
    std::string title;  // for people: "Total", "Busy"
    Unit unit = Unit::Text;
    int decimals = 1;  // Number, and fractional durations and counts in text
    // Text: a label for people per machine value ("idle_input" reads
    // "Idle: input"); JSON and CSV keep the value, readable views the label.
    std::vector<std::pair<std::string, std::string>> labels = {};
    // Text: a function's name (a kernel's). A panel shows its short name
    // (util/symbol_names.h) with the whole name in the tooltip; every
    // rendering and export writes it whole.
    bool symbol = false;
    // Text: a file's path. A panel shows the file's name, with the path in
    // the tooltip; renderings and exports write the path.
    bool path = false;
    // The unit is the row's (ResultRow::unit): a table of figures of
    // different kinds (a comparison's step time, busy share and peak).
    bool unitPerRow = false;
    // A change: a positive value is written with its "+" ("+306.00 µs").
    bool signedChange = false;
    // A headline figure's denominator: the key of the figure it is a share
    // of ("time_ns"), or what it is of in words; empty for none.
    std::string of = {};
    // Text, Markdown and HTML leave the column out when no row has a value
    // (a step's rank in a single trace); CSV and JSON always write it.
    bool sparse = false;
};

inline ResultColumn symbolColumn(std::string key, std::string title) {
    ResultColumn c{std::move(key), std::move(title), Unit::Text};
    c.symbol = true;
    return c;
}

// null (no value: "-" in text, null in JSON; a Flag's "unknown"), an
// integer, a real, a text, a list of integers (a launch's grid) or of texts
// (a kernel's streams).
using ResultCell = std::variant<std::monostate, int64_t, double, std::string, std::vector<int64_t>,
                                std::vector<std::string>>;

template <class T>
ResultCell cellOf(const std::optional<T>& v) {
    return v ? ResultCell(*v) : ResultCell();
}

// A cell's integer (ns, bytes, a count) or text, `fallback` for any other
// value: how a view reads a figure it words itself.
inline int64_t integerOr(const ResultCell& cell, int64_t fallback = 0) {
    const auto* i = std::get_if<int64_t>(&cell);
    return i ? *i : fallback;
}
inline std::string textOr(const ResultCell& cell, std::string fallback = {}) {
    const auto* t = std::get_if<std::string>(&cell);
    return t ? *t : fallback;
}

// What a row leads to on the timeline.
struct ResultRef {
    enum class Kind : uint8_t { None, Slice, Name, Range, Step };
    Kind kind = Kind::None;
    uint32_t slice = kNone;  // Slice; Name: its first (or longest) slice; Step: its slice
    uint32_t name = 0;       // Name: every slice of this name
    Interval range{};        // Range, Step
    int64_t step = 0;        // Step: its number
};

struct ResultRow {
    std::vector<ResultCell> cells;
    ResultRef ref;
    Unit unit = Unit::Number;  // of its columns marked unitPerRow
};

// The column as it applies to `row`: with the row's unit where the column
// takes it from the row.
ResultColumn columnForRow(const ResultColumn& column, const ResultRow& row);

struct ResultTable {
    std::string id;     // "kernels"
    std::string title;  // "Kernels"
    std::vector<ResultColumn> columns;
    std::vector<ResultRow> rows;

    // The index of the column with that key; -1 without one.
    int column(std::string_view key) const;
    const ResultCell& at(size_t row, std::string_view key) const;
};

// The named columns in that order (keys the table lacks are skipped; none
// named: all), and at most `top` rows (0: all): the summary's short views
// of a full table.
ResultTable project(const ResultTable& table, std::initializer_list<std::string_view> keys,
                    size_t top = 0);
ResultTable project(const ResultTable& table, const std::vector<std::string_view>& keys,
                    size_t top = 0);
// The columns of those indices, in that order.
ResultTable projectColumns(const ResultTable& table, const std::vector<size_t>& columns,
                           size_t top = 0);

// A cell as text: `readable` is how a person reads it ("189.21 ms",
// "12.3 %", a point in time from `origin`), else exact (integer ns, bytes,
// a share in percent with two decimals). Null is "-".
std::string cellText(const ResultCell& cell, const ResultColumn& column, bool readable,
                     TimeNs origin = 0);
// "Total (ns)", "Busy (%)", "Peak (bytes)", "Start (absolute ns)": the
// header of an exact column.
std::string exactHeader(const ResultColumn& column);
bool isNumeric(Unit unit);
// `text` cut in the middle to `width` code points ("abc…xyz"), so both its
// start and its distinguishing end stay.
std::string fitText(const std::string& text, size_t width);

struct RenderOptions {
    bool readable = false;  // values as people read them (else exact, with units in headers)
    TimeNs origin = 0;      // readable: points in time are shown from here
    size_t textWidth = 80;  // Text format: longer text cells are cut in the middle
};

// Text, CSV, Markdown or HTML (a fragment: the <table>); not JSON (see
// result_json.h).
std::string renderResult(const ResultTable& table, OutputFormat format,
                         const RenderOptions& options = {});

}  // namespace gapscope
