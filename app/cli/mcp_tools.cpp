#include "mcp_tools.h"

#include <charconv>
#include <filesystem>

#include "report/analysis_render.h"
#include "report/analysis_schema.h"

namespace gapscope::cli::mcp {

namespace {

using nlohmann::json;

std::string flat(const std::string& text) {
    std::string out = text;
    for (char& c : out)
        if (c == '\n') c = ' ';
    return out;
}

std::string argumentName(const std::string& option) {
    std::string out = option;
    for (char& c : out)
        if (c == '-') c = '_';
    return out;
}

// The tables of the analysis's JSON (the figures are no table; the
// findings are one, whose CSV tables are not).
std::vector<std::string> jsonTables(const Analysis& a) {
    std::vector<std::string> tables;
    for (const TableShape& s : analysisShape(a))
        if (s.table.id != "figures" && s.table.id.rfind("finding", 0) != 0)
            tables.push_back(s.table.id);
    if (a.hasFindings) tables.push_back("findings");
    return tables;
}

json pagingProperties(const Analysis& a) {
    const json tables = jsonTables(a);
    return {
        {"table",
         {{"type", "string"},
          {"enum", tables},
          {"description", "only this table (and the headline figures); default: all"}}},
        {"offset",
         {{"type", "integer"}, {"minimum", 0}, {"description", "the first row of each table"}}},
        {"limit",
         {{"type", "integer"},
          {"minimum", 1},
          {"maximum", kMaxRows},
          {"description", "rows of each table (default " + std::to_string(kDefaultRows) + ")"}}},
    };
}

json pathProperty(const std::string& what) {
    return {{"type", "string"}, {"description", what}};
}

constexpr const char* kTracePath =
    "a trace file (Kineto JSON, .gz, .zst; .xplane.pb; an Nsight Systems .sqlite export), a "
    "TensorBoard log folder, or a folder of a job's ranks (read as one trace); opened once and "
    "kept";

json analysisTool(const Analysis& a) {
    json properties = json::object(), required = json::array();
    switch (a.input) {
        case AnalysisInput::Trace:
            properties["trace"] = pathProperty(kTracePath);
            required.push_back("trace");
            break;
        case AnalysisInput::TwoRuns:
            properties["base"] = pathProperty("the baseline run: a trace or a folder of ranks");
            properties["new"] = pathProperty("the run compared with it");
            required = {"base", "new"};
            break;
        case AnalysisInput::Ranks:
            properties["paths"] = {
                {"type", "array"},
                {"items", {{"type", "string"}}},
                {"minItems", 1},
                {"description", "a folder of a job's rank traces, or the files"}};
            required.push_back("paths");
            break;
    }
    for (const OptionSpec& o : a.options) {
        json p = {{"description", o.help}};
        switch (o.kind) {
            case OptionSpec::Kind::Flag:
                p["type"] = "boolean";
                break;
            case OptionSpec::Kind::Count:
                p["type"] = "integer";
                p["minimum"] = 1;
                break;
            case OptionSpec::Kind::Index:
                p["type"] = "integer";
                p["minimum"] = 0;
                break;
            case OptionSpec::Kind::Micros:
                p["type"] = "number";
                p["minimum"] = 0;
                p["description"] = o.help + " (microseconds)";
                break;
            case OptionSpec::Kind::Texts:
                p["type"] = "array";
                p["items"] = {{"type", "string"}};
                break;
        }
        if (o.defaultValue) p["default"] = *o.defaultValue;
        properties[argumentName(o.name)] = p;
    }
    if (a.scoped) {
        properties["start_ns"] = {{"type", "integer"},
                                  {"description", "only from here (absolute ns, with end_ns)"}};
        properties["end_ns"] = {{"type", "integer"},
                                {"description", "only to here (absolute ns, exclusive)"}};
        properties["step"] = {
            {"type", "integer"}, {"minimum", 0}, {"description", "only step N (ProfilerStep#N)"}};
    }
    if (a.takesStepRegex)
        properties["step_regex"] = {
            {"type", "string"},
            {"description", "steps are the CPU slices whose name matches this (ECMAScript)"}};
    if (a.usesGapThreshold)
        properties["min_gap_us"] = {
            {"type", "number"},
            {"minimum", 0},
            {"description", "the idle-gap threshold in microseconds (default 100)"}};
    if (a.usesPeaks)
        properties["peak"] = {{"type", "string"},
                              {"description", "every GPU's roofs, e.g. bf16=989.4,bw=3350"}};
    if (a.readsOneTrace()) {
        properties["run"] = {
            {"type", "string"},
            {"description", "in a TensorBoard log folder, the run (default newest)"}};
        properties["process"] = {
            {"type", "integer"},
            {"description", "a file of several ranks' processes: only this process's rank"}};
    }
    properties.update(pagingProperties(a));
    std::string description = a.title + ": " + flat(a.what) + ".\n" + a.help +
                              "\nReturns the JSON of `gapscope-cli " + a.id +
                              " --format json` (times in absolute integer ns, bytes, shares as "
                              "fractions), long tables paged (offset, limit), and a summary.";
    return {{"name", a.id},
            {"title", a.title},
            {"description", description},
            {"inputSchema",
             {{"type", "object"},
              {"properties", properties},
              {"required", required},
              {"additionalProperties", false}}}};
}

bool isInteger(const json& v) {
    return v.is_number_integer() || v.is_number_unsigned();
}

// A JSON number as the CLI's decimal microseconds: exact, never with an exponent.
std::optional<std::string> decimalText(const json& v) {
    if (isInteger(v)) return v.dump();
    if (!v.is_number_float()) return std::nullopt;
    char buffer[64];
    const auto r =
        std::to_chars(buffer, buffer + sizeof buffer, v.get<double>(), std::chars_format::fixed);
    if (r.ec != std::errc()) return std::nullopt;
    return std::string(buffer, r.ptr);
}

}  // namespace

json toolList(bool canRender) {
    json tools = json::array();
    tools.push_back(
        {{"name", "open_trace"},
         {"title", "Open a trace"},
         {"description",
          "Open a GPU/CPU profile (PyTorch profiler / Kineto JSON, TensorFlow or JAX XSpace, a "
          "TensorBoard log folder, an Nsight Systems SQLite export, a folder of a job's ranks) "
          "and say what it holds: producer, span, events, GPUs and their busy share. Every other "
          "tool opens its trace itself; this one says what the load noticed."},
         {"inputSchema",
          {{"type", "object"},
           {"properties",
            {{"path", pathProperty(kTracePath)},
             {"run", {{"type", "string"}, {"description", "a TensorBoard log folder's run"}}},
             {"process",
              {{"type", "integer"}, {"description", "a file of several ranks: this rank"}}}}},
           {"required", {"path"}},
           {"additionalProperties", false}}}});
    for (const Analysis& a : analysisRegistry().all())
        tools.push_back(analysisTool(a));
    if (canRender)
        tools.push_back(
            {{"name", "render"},
             {"title", "Picture of the timeline"},
             {"description",
              "A PNG of the timeline over a range or a step (as File > Export Image draws it): "
              "the tracks, the GPU's idle gaps shaded by cause, the annotations, a legend."},
             {"inputSchema",
              {{"type", "object"},
               {"properties",
                {{"trace", pathProperty(kTracePath)},
                 {"start_ns", {{"type", "integer"}, {"description", "from (absolute ns)"}}},
                 {"end_ns", {{"type", "integer"}, {"description", "to (absolute ns)"}}},
                 {"step", {{"type", "integer"}, {"minimum", 0}, {"description", "step N"}}},
                 {"tracks",
                  {{"type", "string"},
                   {"description", "gpu, cpu, all (default) or a regular expression"}}},
                 {"width",
                  {{"type", "integer"}, {"minimum", 400}, {"maximum", 4000}, {"default", 1200}}},
                 {"height",
                  {{"type", "integer"},
                   {"minimum", 100},
                   {"maximum", 4000},
                   {"description",
                    "the picture's height (default: every row, at most 1600 "
                    "pixels of tracks)"}}},
                 {"dark", {{"type", "boolean"}}},
                 {"min_gap_us", {{"type", "number"}, {"minimum", 0}}}}},
               {"required", {"trace"}},
               {"additionalProperties", false}}}});
    return tools;
}

const Analysis* analysisTool(const std::string& name) {
    return analysisRegistry().find(name);
}

std::optional<std::vector<std::string>> optionTokens(const Analysis& a, const json& arguments,
                                                     std::string& error) {
    std::vector<std::string> tokens;
    auto fail = [&](const std::string& why) {
        error = why;
        return std::nullopt;
    };
    for (const OptionSpec& o : a.options) {
        const std::string key = argumentName(o.name);
        if (!arguments.contains(key) || arguments[key].is_null()) continue;
        const json& v = arguments[key];
        const std::string flag = "--" + o.name;
        switch (o.kind) {
            case OptionSpec::Kind::Flag:
                if (!v.is_boolean()) return fail(key + " takes true or false");
                if (v.get<bool>()) tokens.push_back(flag);
                break;
            case OptionSpec::Kind::Count:
            case OptionSpec::Kind::Index:
                if (!isInteger(v)) return fail(key + " takes an integer");
                tokens.insert(tokens.end(), {flag, v.dump()});
                break;
            case OptionSpec::Kind::Micros: {
                const std::optional<std::string> text = decimalText(v);
                if (!text) return fail(key + " takes a number of microseconds");
                tokens.insert(tokens.end(), {flag, *text});
                break;
            }
            case OptionSpec::Kind::Texts:
                if (!v.is_array()) return fail(key + " takes a list of texts");
                for (const json& t : v) {
                    if (!t.is_string()) return fail(key + " takes a list of texts");
                    tokens.insert(tokens.end(), {flag, t.get<std::string>()});
                }
                break;
        }
    }
    const bool hasStart = arguments.contains("start_ns") && !arguments["start_ns"].is_null();
    const bool hasEnd = arguments.contains("end_ns") && !arguments["end_ns"].is_null();
    if (a.scoped && (hasStart || hasEnd)) {
        if (!hasStart || !hasEnd || !isInteger(arguments["start_ns"]) ||
            !isInteger(arguments["end_ns"]))
            return fail("start_ns and end_ns go together, both integer ns");
        tokens.insert(tokens.end(),
                      {"--range", arguments["start_ns"].dump() + ":" + arguments["end_ns"].dump()});
    }
    if (a.scoped && arguments.contains("step") && !arguments["step"].is_null()) {
        if (!isInteger(arguments["step"])) return fail("step takes an integer");
        tokens.insert(tokens.end(), {"--step", arguments["step"].dump()});
    }
    auto text = [&](const char* key, const char* flag) -> bool {
        if (!arguments.contains(key) || arguments[key].is_null()) return true;
        if (!arguments[key].is_string()) return false;
        tokens.insert(tokens.end(), {flag, arguments[key].get<std::string>()});
        return true;
    };
    if (a.takesStepRegex && !text("step_regex", "--step-regex"))
        return fail("step_regex takes a text");
    if (a.usesPeaks && !text("peak", "--peak")) return fail("peak takes a text");
    if (a.usesGapThreshold && arguments.contains("min_gap_us") &&
        !arguments["min_gap_us"].is_null()) {
        const std::optional<std::string> us = decimalText(arguments["min_gap_us"]);
        if (!us) return fail("min_gap_us takes a number of microseconds");
        tokens.insert(tokens.end(), {"--min-gap-us", *us});
    }
    return tokens;
}

std::optional<std::vector<std::string>> inputPaths(const Analysis& a, const json& arguments,
                                                   std::string& error) {
    std::vector<std::string> paths;
    auto take = [&](const char* key) {
        if (!arguments.contains(key) || !arguments[key].is_string() ||
            arguments[key].get<std::string>().empty()) {
            error = std::string(key) + " (a path) is required";
            return false;
        }
        paths.push_back(arguments[key].get<std::string>());
        return true;
    };
    switch (a.input) {
        case AnalysisInput::Trace:
            if (!take("trace")) return std::nullopt;
            break;
        case AnalysisInput::TwoRuns:
            if (!take("base") || !take("new")) return std::nullopt;
            break;
        case AnalysisInput::Ranks: {
            const json* list = arguments.contains("paths") ? &arguments["paths"] : nullptr;
            if (!list || !list->is_array() || list->empty()) {
                error = "paths (a list of a job's folder or files) is required";
                return std::nullopt;
            }
            for (const json& p : *list) {
                if (!p.is_string() || p.get<std::string>().empty()) {
                    error = "paths takes a list of paths";
                    return std::nullopt;
                }
                paths.push_back(p.get<std::string>());
            }
            break;
        }
    }
    return paths;
}

std::optional<Paging> pagingOf(const Analysis& a, const json& arguments, std::string& error) {
    Paging p;
    if (arguments.contains("table") && !arguments["table"].is_null()) {
        const json tables = pagingProperties(a)["table"]["enum"];
        if (!arguments["table"].is_string() ||
            std::find(tables.begin(), tables.end(), arguments["table"]) == tables.end()) {
            error = "table is one of " + tables.dump();
            return std::nullopt;
        }
        p.table = arguments["table"].get<std::string>();
    }
    auto number = [&](const char* key, int64_t lo, int64_t hi, int64_t& out) {
        if (!arguments.contains(key) || arguments[key].is_null()) return true;
        if (!arguments[key].is_number_integer() && !arguments[key].is_number_unsigned())
            return false;
        const auto v = arguments[key].get<int64_t>();
        if (v < lo || v > hi) return false;
        out = v;
        return true;
    };
    if (!number("offset", 0, INT64_MAX, p.offset)) {
        error = "offset takes a non-negative integer";
        return std::nullopt;
    }
    if (!number("limit", 1, kMaxRows, p.limit)) {
        error = "limit takes an integer from 1 to " + std::to_string(kMaxRows);
        return std::nullopt;
    }
    return p;
}

json pagedJson(const Trace& subject, const Analysis& a, const AnalysisResult& result,
               const Paging& asked) {
    const json whole = analysisJson(subject, a, result);
    std::vector<std::string> tables;
    for (const ResultTable& t : result.tables)
        tables.push_back(t.id);
    if (a.hasFindings) tables.push_back("findings");
    Paging p = asked;
    for (;;) {
        json out = whole;
        json paging = json::object();
        for (const std::string& id : tables) {
            if (!p.table.empty() && id != p.table) {
                out.erase(id);
                continue;
            }
            const json& rows = whole[id];
            const auto total = static_cast<int64_t>(rows.size());
            const int64_t from = std::min(p.offset, total);
            const int64_t to = std::min(total, from + p.limit);
            json page = json::array();
            for (int64_t i = from; i < to; ++i)
                page.push_back(rows[static_cast<size_t>(i)]);
            out[id] = std::move(page);
            paging[id] = {{"total", total},
                          {"offset", from},
                          {"returned", to - from},
                          {"next_offset", to < total ? json(to) : json(nullptr)}};
        }
        out["paging"] = std::move(paging);
        const size_t bytes = out.dump(-1, ' ', false, json::error_handler_t::replace).size();
        if (bytes <= kMaxAnswerBytes || p.limit <= 1) return out;
        p.limit = std::max<int64_t>(1, p.limit / 2);  // fewer rows until it fits
    }
}

std::string summaryText(const Trace& subject, const Analysis& a, const AnalysisResult& result,
                        const json& paged) {
    const std::string name = std::filesystem::path(subject.path).filename().string();
    std::string out = a.title + (name.empty() ? "" : " of " + name) + ".";
    if (!result.empty.empty()) out += " " + result.empty;
    out += "\n";
    if (!result.figures.rows.empty()) {
        size_t shown = 0;
        const ResultRow& row = result.figures.rows.front();
        for (size_t c = 0; c < result.figures.columns.size() && shown < 12; ++c) {
            const ResultCell& cell = c < row.cells.size() ? row.cells[c] : ResultCell();
            if (std::holds_alternative<std::monostate>(cell)) continue;
            const ResultColumn column = columnForRow(result.figures.columns[c], row);
            out +=
                "  " + column.key + ": " + cellText(cell, column, true, subject.spanStart) + "\n";
            ++shown;
        }
    }
    for (size_t i = 0; i < result.findings.size() && i < 5; ++i)
        out += std::string("  [") + severityName(result.findings[i].severity) + "] " +
               result.findings[i].message + "\n";
    if (paged.contains("paging")) {
        std::string tables;
        for (const auto& [id, page] : paged["paging"].items()) {
            const auto total = page["total"].get<int64_t>();
            if (total == 0) continue;
            tables += (tables.empty() ? "" : ", ") + id + " " +
                      std::to_string(page["returned"].get<int64_t>()) + " of " +
                      std::to_string(total) + " rows";
            if (!page["next_offset"].is_null())
                tables += " (next: offset " + page["next_offset"].dump() + ")";
        }
        if (!tables.empty()) out += "Tables: " + tables + ".\n";
    }
    return out;
}

std::string base64(const std::string& bytes) {
    static constexpr char kDigits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const uint32_t v = static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << 16 |
                           static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + 1])) << 8 |
                           static_cast<uint8_t>(bytes[i + 2]);
        out += kDigits[v >> 18 & 63];
        out += kDigits[v >> 12 & 63];
        out += kDigits[v >> 6 & 63];
        out += kDigits[v & 63];
    }
    if (i < bytes.size()) {
        uint32_t v = static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << 16;
        if (i + 1 < bytes.size())
            v |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + 1])) << 8;
        out += kDigits[v >> 18 & 63];
        out += kDigits[v >> 12 & 63];
        out += i + 1 < bytes.size() ? kDigits[v >> 6 & 63] : '=';
        out += '=';
    }
    return out;
}

}  // namespace gapscope::cli::mcp
