#include <iostream>

#include "analysis/memcpy_stats.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli memcpy TRACE [--format table|csv|md|json] [--range START:END]\n"
    "                   [--step N] [--top N]\n"
    "  Copies and memsets per (device, kind, name): count, total time, bytes and\n"
    "  bandwidth (GB/s) where every event of the group gives args.bytes, direction\n"
    "  (HtoD, DtoH, DtoD, PtoP) and pageable or pinned host memory. An event counts\n"
    "  when it starts inside the range.\n"
    "  --top N             the N groups with the most total time\n";

}  // namespace

int runMemcpy(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("memcpy", argc, argv, {"--top"}, exitCode);
    if (!p) return exitCode;
    const Trace& t = *p->trace;
    std::vector<CopyStats> rows = memcpyStats(t, p->args.range.value_or(kWholeTrace));
    if (p->args.top && rows.size() > p->args.top) rows.resize(p->args.top);
    const ResultTable table = copyTable(t, rows);
    if (p->args.format == OutputFormat::Json) {
        printJson({{"copies", resultRowsJson(table)}});
        return 0;
    }
    if (rows.empty()) {
        std::cout << "No copies or memsets in this trace" << (p->args.range ? " range" : "")
                  << ".\n";
        return 0;
    }
    printResult(table, p->args.format);
    return 0;
}

}  // namespace gapscope::cli
