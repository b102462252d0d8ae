#include "report/analysis_schema.h"

#include <algorithm>

#include "model/trace_builder.h"
#include "report/analysis_render.h"

namespace gapscope {

namespace {

// Over an empty input of the analysis's kind.
std::vector<ResultTable> tablesOf(const Analysis& analysis, const Trace& trace) {
    AnalysisResult result;
    switch (analysis.input) {
        case AnalysisInput::Trace:
            result = computeAnalysis(analysis, trace, Scope{});
            break;
        case AnalysisInput::TwoRuns:
            result = computeAnalysis(analysis, TwoRuns{});
            break;
        case AnalysisInput::Ranks:
            result = computeAnalysis(analysis, RankJob{});
            break;
    }
    return renderedTables(trace, analysis, result);
}

nlohmann::json cellSchema(const ResultColumn& c) {
    nlohmann::json s;
    switch (c.unitPerRow ? Unit::Number : c.unit) {
        case Unit::Flag:
            s["type"] = {"boolean", "null"};
            break;
        case Unit::Time:
            s["type"] = {"integer", "null"};
            break;
        case Unit::Count:
        case Unit::Duration:
        case Unit::Bytes:
        case Unit::Share:
        case Unit::Number:
            s["type"] = {"number", "null"};
            break;
        case Unit::Text:
            // A text, or a list (a kernel's streams, a launch's grid).
            s["type"] = {"string", "array", "null"};
            s["items"] = {{"type", {"string", "integer"}}};
            break;
    }
    s["description"] = c.title;
    s["x-unit"] = c.unitPerRow ? "per row (the row's \"unit\")" : unitName(c.unit);
    s["x-csv-header"] = exactHeader(c);
    // Shares are written as percentages with two decimals.
    s["x-decimals"] = c.unit == Unit::Share ? 2 : c.decimals;
    if (!c.of.empty()) s["x-of"] = c.of;
    return s;
}

// An object of columns (a row, or the figures); dotted keys nest.
nlohmann::json objectSchema(const std::vector<ResultColumn>& columns,
                            const std::vector<bool>& required) {
    nlohmann::json properties = nlohmann::json::object();
    nlohmann::json needed = nlohmann::json::array();
    for (size_t i = 0; i < columns.size(); ++i) {
        const ResultColumn& c = columns[i];
        const size_t dot = c.key.find('.');
        const std::string top = dot == std::string::npos ? c.key : c.key.substr(0, dot);
        if (required[i] && std::find(needed.begin(), needed.end(), top) == needed.end())
            needed.push_back(top);
        if (dot == std::string::npos) {
            properties[c.key] = cellSchema(c);
            continue;
        }
        nlohmann::json& group = properties[top];
        if (group.is_null())
            group = {{"type", {"object", "null"}},
                     {"additionalProperties", false},
                     {"properties", nlohmann::json::object()}};
        group["properties"][c.key.substr(dot + 1)] = cellSchema(c);
    }
    nlohmann::json order = nlohmann::json::array();
    for (const ResultColumn& c : columns)
        order.push_back(c.key);
    return {{"type", "object"},
            {"additionalProperties", false},
            {"required", needed},
            {"properties", properties},
            {"x-columns", order}};
}

nlohmann::json findingsSchema() {
    const nlohmann::json interval = {
        {"type", "object"},
        {"required", {"start_ns", "end_ns"}},
        {"additionalProperties", false},
        {"properties", {{"start_ns", {{"type", "integer"}}}, {"end_ns", {{"type", "integer"}}}}}};
    const nlohmann::json slice = {{"type", "object"},
                                  {"required", {"name", "start_ns", "end_ns", "track"}},
                                  {"additionalProperties", false},
                                  {"properties",
                                   {{"name", {{"type", "string"}}},
                                    {"start_ns", {{"type", "integer"}}},
                                    {"end_ns", {{"type", "integer"}}},
                                    {"track", {{"type", "string"}}}}}};
    nlohmann::json units = nlohmann::json::array();
    for (const Unit u : {Unit::Text, Unit::Count, Unit::Duration, Unit::Time, Unit::Bytes,
                         Unit::Share, Unit::Number, Unit::Flag})
        units.push_back(unitName(u));
    const nlohmann::json figure = {
        {"type", "object"},
        {"required", {"key", "value", "unit", "of"}},
        {"additionalProperties", false},
        {"properties",
         {{"key", {{"type", "string"}}},
          {"value", {{"type", {"number", "null"}}}},
          {"unit", {{"enum", units}}},
          {"of", {{"type", {"string", "null"}}, {"description", "the key of its denominator"}}}}}};
    const nlohmann::json finding = {
        {"type", "object"},
        {"required", {"rule", "severity", "device", "message", "figures", "evidence"}},
        {"additionalProperties", false},
        {"properties",
         {{"rule", {{"type", "string"}}},
          {"severity", {{"enum", {"high", "medium", "low"}}}},
          {"device", {{"type", {"integer", "null"}}}},
          {"message", {{"type", "string"}}},
          {"figures", {{"type", "array"}, {"items", figure}}},
          {"evidence",
           {{"type", "object"},
            {"required", {"ranges", "slices"}},
            {"additionalProperties", false},
            {"properties",
             {{"ranges", {{"type", "array"}, {"items", interval}}},
              {"slices", {{"type", "array"}, {"items", slice}}}}}}}}}};
    return {{"type", "array"}, {"items", finding}, {"description", "most severe first"}};
}

}  // namespace

std::vector<TableShape> analysisShape(const Analysis& analysis) {
    Trace empty;
    {
        TraceBuilder builder(empty);
        builder.finish(nullptr);
    }
    std::vector<TableShape> shapes;
    for (ResultTable& t : tablesOf(analysis, empty)) {
        t.rows.clear();
        const size_t columns = t.columns.size();
        shapes.push_back({std::move(t), std::vector<bool>(columns, true)});
    }
    return shapes;
}

nlohmann::json analysisSchema(const Analysis& analysis) {
    nlohmann::json properties = {{"analysis", {{"const", analysis.id}}},
                                 {"schema_version", {{"const", analysis.schemaVersion}}}};
    nlohmann::json required = {"analysis", "schema_version"};
    nlohmann::json figureOrder = nlohmann::json::array(), tableOrder = nlohmann::json::array();
    nlohmann::json findingTables = nlohmann::json::object();
    for (const TableShape& s : analysisShape(analysis)) {
        const ResultTable& t = s.table;
        // The findings' flat tables are CSV's (JSON nests their figures
        // and evidence in each finding).
        if (t.id == "findings" || t.id == "finding_figures" || t.id == "finding_evidence")
            findingTables[t.id] = objectSchema(t.columns, s.required);
        if (t.id == "finding_figures" || t.id == "finding_evidence") continue;
        if (t.id == "findings") {
            properties["findings"] = findingsSchema();
            required.push_back("findings");
            continue;
        }
        if (t.id == "figures") {
            const nlohmann::json figures = objectSchema(t.columns, s.required);
            for (auto& [key, value] : figures["properties"].items())
                properties[key] = value;
            for (const auto& key : figures["required"])
                required.push_back(key);
            figureOrder = figures["x-columns"];
            continue;
        }
        nlohmann::json table = {{"type", "array"},
                                {"description", t.title},
                                {"items", objectSchema(t.columns, s.required)}};
        properties[t.id] = std::move(table);
        required.push_back(t.id);
        tableOrder.push_back(t.id);
    }
    std::string what = analysis.what;
    std::replace(what.begin(), what.end(), '\n', ' ');
    return {{"$schema", "http://json-schema.org/draft-07/schema#"},
            {"title", "gapscope-cli " + analysis.id + " --format json"},
            {"description", analysis.title + ": " + what +
                                ". Times and durations in integer ns "
                                "(a mean may be fractional), bytes as integers, shares as "
                                "fractions in [0, 1]; null where there is no value."},
            {"type", "object"},
            {"additionalProperties", false},
            {"required", required},
            {"properties", properties},
            // For readers of the CSV: the figures' columns and the tables in
            // their order (a JSON object has none).
            {"x-figures", figureOrder},
            // What the command reads: one trace, two runs (BASE NEW) or ranks.
            {"x-input", analysis.input == AnalysisInput::Trace     ? "trace"
                        : analysis.input == AnalysisInput::TwoRuns ? "two_runs"
                                                                   : "ranks"},
            {"x-tables", tableOrder},
            {"x-finding-csv", findingTables}};
}

}  // namespace gapscope
