#include "timeline_command.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/time_breakdown.h"
#include "analysis_args.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli timeline TRACE [--format table|csv|md|json] [--range START:END]\n"
    "  The GPU time breakdown of each device (all its streams), in ns:\n"
    "    computation    time any compute kernel or memset ran\n"
    "    exposed comm   communication (NCCL/RCCL/HCCL) not overlapped by compute\n"
    "    exposed memcpy copies overlapped by neither\n"
    "    idle           total - busy; the parts add up to total exactly\n"
    "    total          first activity start to last activity end in the range\n"
    "    busy           busy time / total\n"
    "    comm overlap   share of communication time overlapped by compute\n";

}  // namespace

int runTimeline(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto prepared = prepare("timeline", argc, argv, {}, exitCode);
    if (!prepared) return exitCode;
    const AnalysisArgs* args = &prepared->args;
    const auto& trace = prepared->trace;
    const auto rows = timeBreakdowns(*trace, args->range.value_or(kWholeTrace));
    const ResultTable table = breakdownTable(rows);
    if (args->format == OutputFormat::Json) {
        printJson({{"devices", resultRowsJson(table)}});
        return 0;
    }
    if (rows.empty()) {
        std::cout << "No GPU activity in this trace" << (args->range ? " range" : "") << ".\n";
        return 0;
    }
    printResult(table, args->format);
    return 0;
}

}  // namespace gapscope::cli
