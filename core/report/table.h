#pragma once
// Text cells written as an aligned text table, CSV, Markdown or HTML: how
// renderResult lays out a ResultTable, and the text helpers of every format.
// CSV follows RFC 4180 and is safe to open in a spreadsheet: a cell that
// starts with = + - @, a tab or a carriage return is prefixed with ' so it
// is never taken for a formula. Markdown escapes | and line breaks. HTML
// (a <table> element) escapes everything: & < > " and '.

#include <string>
#include <vector>

#include "report/output_format.h"

namespace gapscope {

// The grid of cell texts a renderer lays out: what renderResult
// (result_table.h) makes of a ResultTable, and nothing else. Analyses, views
// and documents build ResultTables, the one table type; this is its text.
struct TextGrid {
    std::vector<std::string> headers;
    std::vector<bool> numeric;  // per column: right-aligned in text (default false)
    std::vector<std::vector<std::string>> rows;
};

// Text, CSV, Markdown or HTML (JSON is each result's own: see result_json.h).
std::string formatGrid(const TextGrid& grid, OutputFormat format);

// One cell as CSV would write it (quoted when needed, formula-safe).
std::string csvCell(const std::string& text);
// Text made safe inside HTML elements and attribute values.
std::string htmlEscape(const std::string& text);
// A self-contained HTML page's start, up to and with its <h1> `heading`
// (the tables' style included); the page ends with "</body></html>\n".
std::string htmlPageStart(const std::string& heading);
// Text shown as itself in Markdown (CommonMark / GitHub), on one line: no
// emphasis, link, code span, heading or raw HTML from a kernel's name
// (`float*`, `foo_bar`, `<script>`), no cell break from `|`.
std::string markdownEscape(const std::string& text);

}  // namespace gapscope
