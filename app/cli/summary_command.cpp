// gapscope-cli summary TRACE: the summary tables in one document
// (Markdown, JSON, HTML) or one CSV file per table, to stdout or --out DIR.

#include <filesystem>
#include <iostream>

#include "analysis/analysis_index.h"
#include "analysis_args.h"
#include "analysis_commands.h"
#include "loader/rank_set.h"
#include "report/ranks_report.h"
#include "report/result_json.h"
#include "report/run_summary.h"
#include "util/atomic_file.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli summary TRACE [--format md|csv|json|html] [--out DIR]\n"
    "                  [--top N] [--step-regex RE] [--min-gap-us N]\n"
    "  The summary of a trace as tables: per GPU busy and idle by cause, steps, the\n"
    "  top kernels and ops (--top, default 10), the input pipeline's verdict, memory\n"
    "  peaks and growth, and the advice. --format md (default), json and html write\n"
    "  one document, csv one file per table (on stdout: each after a '# ID' line);\n"
    "  the JSON also holds \"rank\": this trace as one rank of a job, per step (what\n"
    "  gapscope-fleet gathers; see gapscope-cli ranks).\n"
    "  --out DIR writes summary.md / summary.json / summary.html or ID.csv there\n"
    "  (replacing files of those names); stdout without it.\n";

nlohmann::json tablesJson(const std::string& path, const std::vector<ResultTable>& tables) {
    nlohmann::json j;
    j["trace"] = path;
    for (const ResultTable& t : tables)
        j["tables"][t.id] = {{"title", t.title}, {"rows", resultRowsJson(t)}};
    return j;
}

// This trace as one rank of a job (what the fleet tool gathers).
RankRow rankRowOf(const Trace& trace, const std::string& path, const StepOptions& steps) {
    const RankIdentity id = rankIdentity(&trace, path, 0);
    RankFigureOptions fo;
    fo.stepRegex = steps.regex;
    fo.index = steps.index;
    fo.minGapNs = steps.minGapNs;
    RankRow row;
    row.entry = {id.rank, path, id.host, rankFigures(trace, fo), 0, std::nullopt, {}};
    row.origin = rankOriginName(id.origin);
    return row;
}

}  // namespace

int runSummary(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    // --format takes html here too, and --out a folder: taken out first.
    OutputFormat format = OutputFormat::Markdown;
    std::string outDir;
    std::vector<char*> rest;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--format" && i + 1 < argc) {
            const auto f = parseOutputFormat(argv[++i]);
            if (!f || *f == OutputFormat::Text) {
                std::cerr << "gapscope-cli summary: --format takes md, csv, json or html\n";
                return 1;
            }
            format = *f;
        } else if (a == "--out" && i + 1 < argc) {
            outDir = argv[++i];
        } else {
            rest.push_back(argv[i]);
        }
    }
    auto args = parseAnalysisArgs("summary", static_cast<int>(rest.size()), rest.data(),
                                  {"--top", "--min-gap-us"});
    if (!args) return 1;
    if (args->range || args->step) {
        std::cerr << "gapscope-cli summary: --range and --step do not apply (the whole trace)\n";
        return 1;
    }
    if (!outDir.empty() && !std::filesystem::is_directory(outDir)) {
        std::cerr << "gapscope-cli summary: --out " << outDir << ": not a folder\n";
        return 1;
    }
    const auto trace = loadOrReport(args->load);
    if (!trace) return 2;
    const AnalysisIndex index(*trace);
    StepOptions options = args->stepOptions();
    options.index = &index;
    const std::vector<ResultTable> tables =
        summaryTables(*trace, options, args->top ? args->top : 10);
    const std::string name = std::filesystem::path(args->load.path).filename().string();

    // What goes where: (file name, bytes).
    std::vector<std::pair<std::string, std::string>> outputs;
    if (format == OutputFormat::Csv) {
        std::string all;
        for (const ResultTable& t : tables) {
            const std::string csv = renderResult(t, OutputFormat::Csv);
            outputs.push_back({t.id + ".csv", csv});
            all += "# " + t.id + "\n" + csv + "\n";
        }
        if (outDir.empty()) outputs = {{"", all}};
    } else if (format == OutputFormat::Json) {
        nlohmann::json j = tablesJson(args->load.path, tables);
        j["rank"] = nlohmann::json::parse(rankJson(rankRowOf(*trace, args->load.path, options)));
        outputs.push_back({"summary.json", j.dump(2) + "\n"});
    } else {
        outputs.push_back({format == OutputFormat::Html ? "summary.html" : "summary.md",
                           summaryDocument(name, tables, format)});
    }
    if (outDir.empty()) {
        for (const auto& [file, bytes] : outputs)
            std::cout << bytes;
        return 0;
    }
    for (const auto& [file, bytes] : outputs) {
        const std::string path = (std::filesystem::path(outDir) / file).string();
        const std::string error = writeFileAtomically(path, bytes, Overwrite::Yes);
        if (!error.empty()) {
            std::cerr << "gapscope-cli summary: " << path << ": " << error << "\n";
            return 2;
        }
        std::cout << path << "\n";
    }
    return 0;
}

}  // namespace gapscope::cli
