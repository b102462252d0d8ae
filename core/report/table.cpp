#include "report/table.h"

#include <algorithm>

namespace gapscope {

std::string csvCell(const std::string& text) {
    std::string cell = text;
    if (!cell.empty() && (cell[0] == '=' || cell[0] == '+' || cell[0] == '-' || cell[0] == '@' ||
                          cell[0] == '\t' || cell[0] == '\r')) {
        // A number like -5 stays a number: only text is neutralised.
        const bool number = cell.size() > 1 && cell[0] == '-' &&
                            cell.find_first_not_of("0123456789.eE+-", 1) == std::string::npos;
        if (!number) cell.insert(cell.begin(), '\'');
    }
    if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string quoted = "\"";
    for (const char c : cell) {
        if (c == '"') quoted += '"';
        quoted += c;
    }
    return quoted + "\"";
}

std::string htmlEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '&':
                out += "&amp;";
                break;
            case '<':
                out += "&lt;";
                break;
            case '>':
                out += "&gt;";
                break;
            case '"':
                out += "&quot;";
                break;
            case '\'':
                out += "&#39;";
                break;
            default:
                out += c;
        }
    }
    return out;
}

std::string markdownEscape(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
            case '\n':
            case '\r':
                out += ' ';
                break;
            case '<':  // an entity, not a backslash: raw HTML starts at '<'
                out += "&lt;";
                break;
            case '&':
                out += "&amp;";
                break;
            case '\\':
            case '|':
            case '*':
            case '_':
            case '`':
            case '[':
            case ']':
            case '~':
            case '#':
            case '!':
                out += '\\';
                out += c;
                break;
            default:
                out += c;
        }
    }
    return out;
}

namespace {

// Display width in code points (UTF-8 continuation bytes take no column).
size_t width(const std::string& s) {
    return static_cast<size_t>(
        std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

std::string formatGrid(const TextGrid& t, OutputFormat format) {
    std::string out;
    const size_t cols = t.headers.size();
    auto numeric = [&](size_t c) { return c < t.numeric.size() && t.numeric[c]; };
    if (format == OutputFormat::Csv) {
        auto line = [&](const std::vector<std::string>& cells) {
            // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a
            // known false positive) on `"," + std::string`.
            for (size_t c = 0; c < cells.size(); ++c) {
                if (c) out += ',';
                out += csvCell(cells[c]);
            }
            out += "\r\n";
        };
        line(t.headers);
        for (const auto& r : t.rows)
            line(r);
        return out;
    }
    if (format == OutputFormat::Html) {
        out += "<table>\n";
        // A table of name and value pairs has no header to show.
        if (std::any_of(t.headers.begin(), t.headers.end(),
                        [](const std::string& h) { return !h.empty(); })) {
            out += "<thead><tr>";
            for (size_t c = 0; c < cols; ++c) {
                out += numeric(c) ? "<th class=\"num\">" : "<th>";
                out += htmlEscape(t.headers[c]);
                out += "</th>";
            }
            out += "</tr></thead>\n";
        }
        out += "<tbody>\n";
        for (const auto& r : t.rows) {
            out += "<tr>";
            for (size_t c = 0; c < r.size(); ++c) {
                out += numeric(c) ? "<td class=\"num\">" : "<td>";
                out += htmlEscape(r[c]);
                out += "</td>";
            }
            out += "</tr>\n";
        }
        out += "</tbody>\n</table>\n";
        return out;
    }
    if (format == OutputFormat::Markdown) {
        auto line = [&](const std::vector<std::string>& cells) {
            out += "|";
            for (const auto& cell : cells) {
                out += ' ';
                out += markdownEscape(cell);
                out += " |";
            }
            out += "\n";
        };
        line(t.headers);
        out += "|";
        for (size_t c = 0; c < cols; ++c)
            out += numeric(c) ? "---:|" : "---|";
        out += "\n";
        for (const auto& r : t.rows)
            line(r);
        return out;
    }
    std::vector<size_t> w(cols, 0);
    for (size_t c = 0; c < cols; ++c)
        w[c] = width(t.headers[c]);
    for (const auto& r : t.rows)
        for (size_t c = 0; c < cols && c < r.size(); ++c)
            w[c] = std::max(w[c], width(r[c]));
    auto line = [&](const std::vector<std::string>& cells) {
        for (size_t c = 0; c < cols; ++c) {
            const std::string& cell = c < cells.size() ? cells[c] : std::string();
            const std::string pad(w[c] - std::min(w[c], width(cell)), ' ');
            if (c) out += "  ";
            if (numeric(c)) {
                out += pad;
                out += cell;
            } else {
                out += cell;
                if (c + 1 < cols) out += pad;
            }
        }
        out += "\n";
    };
    line(t.headers);
    std::vector<std::string> rule(cols);
    for (size_t c = 0; c < cols; ++c)
        rule[c] = std::string(w[c], '-');
    line(rule);
    for (const auto& r : t.rows)
        line(r);
    return out;
}

std::string htmlPageStart(const std::string& heading) {
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
           htmlEscape(heading) +
           "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
           "table{border-collapse:collapse;margin-bottom:1.5em}"
           "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}"
           "th{background:#f0f0f0}.num{text-align:right;"
           "font-variant-numeric:tabular-nums}td.num{white-space:nowrap}"
           "</style></head><body>\n<h1>" +
           htmlEscape(heading) + "</h1>\n";
}

}  // namespace gapscope
