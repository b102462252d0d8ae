#include "report/analysis_render.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "analysis/slice_queries.h"
#include "report/result_json.h"
#include "report/table.h"

namespace gapscope {

const char* unitName(Unit unit) {
    switch (unit) {
        case Unit::Count:
            return "count";
        case Unit::Duration:
            return "ns";
        case Unit::Time:
            return "time_ns";
        case Unit::Bytes:
            return "bytes";
        case Unit::Share:
            return "share";
        case Unit::Number:
            return "number";
        case Unit::Flag:
            return "flag";
        case Unit::Text:
            break;
    }
    return "text";
}

namespace {

ResultCell figureCell(const FindingFigure& f) {
    if (const auto* i = std::get_if<int64_t>(&f.value)) return *i;
    const double d = std::get<double>(f.value);
    // A whole number of ns or bytes (that an int64 holds) is written as an integer.
    if (isIntegerUnit(f.unit) && std::isfinite(d) && std::abs(d) < 9.2e18 && d == std::trunc(d))
        return static_cast<int64_t>(d);
    return d;
}

ResultTable findingTable(const Trace& trace, const std::vector<Finding>& findings) {
    ResultTable t;
    t.id = "findings";
    t.title = "Findings";
    ResultColumn severity{"severity", "Severity", Unit::Text};
    severity.labels = {{"high", "High"}, {"medium", "Medium"}, {"low", "Low"}};
    t.columns = {
        {"finding", "Finding", Unit::Count}, severity,
        {"rule", "Rule", Unit::Text},        {"device", "GPU", Unit::Count},
        {"message", "Message", Unit::Text},  {"evidence_start_ns", "Evidence at", Unit::Time}};
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        ResultRow r;
        // Where its evidence starts: its first range, else its first slice.
        const ResultCell at = !f.ranges.empty()   ? ResultCell(f.ranges.front().start)
                              : !f.slices.empty() ? ResultCell(trace.slices[f.slices.front()].start)
                                                  : ResultCell();
        r.cells = {static_cast<int64_t>(i + 1),
                   std::string(severityName(f.severity)),
                   f.rule,
                   f.device >= 0 ? ResultCell(int64_t{f.device}) : ResultCell(),
                   f.message,
                   at};
        if (!f.ranges.empty()) {
            r.ref.kind = ResultRef::Kind::Range;
            r.ref.range = f.ranges.front();
        } else if (!f.slices.empty()) {
            r.ref.kind = ResultRef::Kind::Slice;
            r.ref.slice = f.slices.front();
        }
        t.rows.push_back(std::move(r));
    }
    return t;
}

ResultTable findingFigureTable(const std::vector<Finding>& findings) {
    ResultTable t;
    t.id = "finding_figures";
    t.title = "The findings' figures";
    ResultColumn value{"value", "Value", Unit::Number, 6};
    value.unitPerRow = true;
    t.columns = {{"finding", "Finding", Unit::Count}, {"rule", "Rule", Unit::Text},
                 {"key", "Figure", Unit::Text},       value,
                 {"unit", "Unit", Unit::Text},        {"of", "Of", Unit::Text}};
    for (size_t i = 0; i < findings.size(); ++i) {
        for (const FindingFigure& f : findings[i].figures) {
            ResultRow r;
            // A share stays the fraction JSON writes (its unit cell says
            // "share"), not a percentage under a header without one.
            r.unit = f.unit == Unit::Share ? Unit::Number : f.unit;
            r.cells = {static_cast<int64_t>(i + 1),
                       findings[i].rule,
                       f.key,
                       figureCell(f),
                       std::string(unitName(f.unit)),
                       f.of.empty() ? ResultCell() : f.of};
            t.rows.push_back(std::move(r));
        }
    }
    return t;
}

ResultTable findingEvidenceTable(const Trace& trace, const std::vector<Finding>& findings) {
    ResultTable t;
    t.id = "finding_evidence";
    t.title = "The findings' evidence";
    t.columns = {{"finding", "Finding", Unit::Count}, {"rule", "Rule", Unit::Text},
                 {"kind", "Kind", Unit::Text},        {"start_ns", "Start", Unit::Time},
                 {"end_ns", "End", Unit::Time},       symbolColumn("name", "Slice"),
                 {"track", "Track", Unit::Text}};
    for (size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        const auto number = static_cast<int64_t>(i + 1);
        for (const Interval& range : f.ranges) {
            ResultRow r;
            r.cells = {number,    f.rule,       std::string("range"), range.start,
                       range.end, ResultCell(), ResultCell()};
            r.ref.kind = ResultRef::Kind::Range;
            r.ref.range = range;
            t.rows.push_back(std::move(r));
        }
        for (const uint32_t s : f.slices) {
            const Slice& slice = trace.slices[s];
            ResultRow r;
            r.cells = {number,
                       f.rule,
                       std::string("slice"),
                       slice.start,
                       slice.end(),
                       std::string(trace.str(slice.name)),
                       trackLabel(trace, trace.trackOfSlice(s))};
            r.ref.kind = ResultRef::Kind::Slice;
            r.ref.slice = s;
            t.rows.push_back(std::move(r));
        }
    }
    return t;
}

// The figures as a two-column table for people ("Figure", "Value"), with
// what a share is of by its figure's title; a figure without a value is
// left out.
constexpr size_t kLongestAlignedValue = 40;

ResultTable figureList(const ResultTable& figures, const std::string& title) {
    ResultTable t;
    t.id = figures.id;
    t.title = title;
    // Each value written exactly as its own column says (its decimals, its
    // unit in the figure's name); right-aligned as numbers are, unless a
    // value is a sentence (a verdict), which reads from the left.
    ResultColumn value{"value", "Value", Unit::Text};
    value.unitPerRow = true;
    t.columns = {{"figure", "Figure", Unit::Text}, value};
    if (figures.rows.empty()) return t;
    const ResultRow& row = figures.rows.front();
    for (size_t c = 0; c < figures.columns.size(); ++c) {
        const ResultColumn& column = figures.columns[c];
        ResultCell cell = c < row.cells.size() ? row.cells[c] : ResultCell();
        if (std::holds_alternative<std::monostate>(cell)) continue;
        ResultRow r;
        r.unit = Unit::Text;
        cell = cellText(cell, column, false);
        if (std::get<std::string>(cell).size() > kLongestAlignedValue)
            t.columns[1].unitPerRow = false;
        std::string name = exactHeader(column);
        if (const int of = figures.column(column.of); of >= 0) {
            // "Busy (%) of time": a title read inside a sentence.
            std::string ofTitle = figures.columns[static_cast<size_t>(of)].title;
            if (ofTitle.size() > 1 && std::isupper(static_cast<unsigned char>(ofTitle[0])) &&
                std::islower(static_cast<unsigned char>(ofTitle[1])))
                ofTitle[0] =
                    static_cast<char>(std::tolower(static_cast<unsigned char>(ofTitle[0])));
            name += " of " + ofTitle;
        } else if (!column.of.empty())
            name += " of " + column.of;
        r.cells = {std::move(name), std::move(cell)};
        t.rows.push_back(std::move(r));
    }
    return t;
}

// The terminal's columns of a table, where the analysis names them.
ResultTable forText(const Analysis& analysis, const ResultTable& table) {
    const auto it = analysis.textColumns.find(table.id);
    if (it == analysis.textColumns.end()) return table;
    return project(table, std::vector<std::string_view>(it->second.begin(), it->second.end()));
}

std::string findingsText(const Trace& trace, const std::vector<Finding>& findings) {
    std::string out;
    for (const Finding& f : findings) {
        out +=
            "[" + std::string(severityName(f.severity)) + "] " + f.rule + ": " + f.message + "\n";
        for (size_t i = 0; i < f.ranges.size() && i < 3; ++i)
            out += "    at " + std::to_string(f.ranges[i].start) + " .. " +
                   std::to_string(f.ranges[i].end) + " ns\n";
        for (size_t i = 0; i < f.slices.size() && i < 3; ++i) {
            const Slice& s = trace.slices[f.slices[i]];
            out += "    slice " + fitText(std::string(trace.str(s.name)), 60) + " at " +
                   std::to_string(s.start) + " ns (" + std::to_string(s.dur) + " ns)\n";
        }
    }
    return out;
}

std::string htmlPage(const Trace& trace, const Analysis& analysis, const AnalysisResult& result) {
    const std::string name = std::filesystem::path(trace.path).filename().string();
    const std::string heading = "Gapscope " + analysis.title + ": " + name;
    std::string out = htmlPageStart(heading);
    if (!result.empty.empty())
        return out + "<p>" + htmlEscape(result.empty) + "</p>\n</body></html>\n";
    for (const ResultTable& t : renderedTables(trace, analysis, result)) {
        out += "<h2>" + htmlEscape(t.id == "figures" ? analysis.title : t.title) + "</h2>\n";
        out +=
            renderResult(t.id == "figures" ? figureList(t, analysis.title) : t, OutputFormat::Html);
    }
    out += "</body></html>\n";
    return out;
}

// Text or Markdown: the figures as a list, then each table with rows (with
// a heading where there is more than one block), then the findings.
std::string readableDocument(const Trace& trace, const Analysis& analysis,
                             const AnalysisResult& result, OutputFormat format) {
    if (!result.empty.empty()) return result.empty + "\n";
    std::vector<ResultTable> blocks;
    if (ResultTable list = figureList(result.figures, analysis.title); !list.rows.empty())
        blocks.push_back(std::move(list));
    for (const ResultTable& t : result.tables)
        if (!t.rows.empty())
            blocks.push_back(format == OutputFormat::Text ? forText(analysis, t) : t);
    if (format == OutputFormat::Markdown && !result.findings.empty()) {
        for (ResultTable& t : std::vector<ResultTable>{
                 findingTable(trace, result.findings), findingFigureTable(result.findings),
                 findingEvidenceTable(trace, result.findings)})
            blocks.push_back(std::move(t));
    }
    const bool textFindings = format == OutputFormat::Text && !result.findings.empty();
    const bool headings = blocks.size() + (textFindings ? 1 : 0) > 1;
    std::string out;
    for (const ResultTable& t : blocks) {
        if (!out.empty()) out += "\n";
        if (headings)
            out += format == OutputFormat::Markdown ? "## " + t.title + "\n\n" : t.title + ":\n";
        // A figure (a verdict, a file's path) is read whole.
        out += renderResult(
            t, format, {.textWidth = t.id == "figures" ? size_t(-1) : RenderOptions{}.textWidth});
    }
    if (textFindings) {
        if (!out.empty()) out += "\n";
        out += findingsText(trace, result.findings);
    }
    return out;
}

}  // namespace

std::vector<ResultTable> renderedTables(const Trace& trace, const Analysis& analysis,
                                        const AnalysisResult& result) {
    std::vector<ResultTable> out;
    if (!result.figures.columns.empty()) out.push_back(result.figures);
    out.insert(out.end(), result.tables.begin(), result.tables.end());
    if (analysis.hasFindings) {
        out.push_back(findingTable(trace, result.findings));
        out.push_back(findingFigureTable(result.findings));
        out.push_back(findingEvidenceTable(trace, result.findings));
    }
    return out;
}

std::string renderAnalysis(const Trace& trace, const Analysis& analysis,
                           const AnalysisResult& result, OutputFormat format,
                           const std::string& csvTable) {
    switch (format) {
        case OutputFormat::Csv: {
            const std::vector<ResultTable> tables = renderedTables(trace, analysis, result);
            std::string id = csvTable.empty() ? analysis.primaryTable : csvTable;
            if (id.empty() && !tables.empty())
                id = result.tables.empty() ? tables.front().id : result.tables.front().id;
            for (const ResultTable& t : tables)
                if (t.id == id) return renderResult(t, OutputFormat::Csv);
            throw std::invalid_argument("no table '" + id + "'");
        }
        case OutputFormat::Html:
            return htmlPage(trace, analysis, result);
        case OutputFormat::Json:
            // A name that is not UTF-8 (a trace may hold one) is written
            // with U+FFFD where its bad bytes were, not refused.
            return analysisJson(trace, analysis, result)
                       .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
                   "\n";
        case OutputFormat::Text:
        case OutputFormat::Markdown:
            break;
    }
    return readableDocument(trace, analysis, result, format);
}

nlohmann::json analysisJson(const Trace& trace, const Analysis& analysis,
                            const AnalysisResult& result) {
    nlohmann::json j = {{"analysis", analysis.id}, {"schema_version", analysis.schemaVersion}};
    auto put = [&](const std::string& key, nlohmann::json value) {
        if (j.contains(key))
            throw std::logic_error("analysis '" + analysis.id + "': two values of '" + key + "'");
        j[key] = std::move(value);
    };
    if (!result.figures.rows.empty()) {
        const nlohmann::json figures = resultRowJson(result.figures, result.figures.rows.front());
        for (const auto& [key, value] : figures.items())
            put(key, value);
    }
    for (const ResultTable& t : result.tables)
        put(t.id, resultRowsJson(t));
    if (!analysis.hasFindings) return j;
    nlohmann::json findings = nlohmann::json::array();
    for (const Finding& f : result.findings) {
        nlohmann::json figures = nlohmann::json::array(), ranges = nlohmann::json::array(),
                       slices = nlohmann::json::array();
        for (const FindingFigure& x : f.figures) {
            ResultColumn column{"value", "", x.unit};
            figures.push_back(
                {{"key", x.key},
                 {"value", cellJson(figureCell(x), column)},
                 {"unit", unitName(x.unit)},
                 {"of", x.of.empty() ? nlohmann::json(nullptr) : nlohmann::json(x.of)}});
        }
        for (const Interval& r : f.ranges)
            ranges.push_back({{"start_ns", r.start}, {"end_ns", r.end}});
        for (const uint32_t s : f.slices) {
            const Slice& slice = trace.slices[s];
            slices.push_back({{"name", std::string(trace.str(slice.name))},
                              {"start_ns", slice.start},
                              {"end_ns", slice.end()},
                              {"track", trackLabel(trace, trace.trackOfSlice(s))}});
        }
        findings.push_back(
            {{"rule", f.rule},
             {"severity", severityName(f.severity)},
             {"device", f.device >= 0 ? nlohmann::json(f.device) : nullptr},
             {"message", f.message},
             {"figures", std::move(figures)},
             {"evidence", {{"ranges", std::move(ranges)}, {"slices", std::move(slices)}}}});
    }
    put("findings", std::move(findings));
    return j;
}

}  // namespace gapscope
