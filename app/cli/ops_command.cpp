#include <iostream>

#include "analysis/op_stats.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli ops TRACE [--format table|csv|md|json] [--range START:END]\n"
    "                [--step N] [--top N]\n"
    "  Op statistics per op name: count, inclusive and self time, the GPU time of the\n"
    "  kernels, copies and memsets it launched (itself and its children), and its\n"
    "  share of the step time. PyTorch: CPU ops (cpu_op / Operator, without\n"
    "  ProfilerStep#N); TensorFlow: the device-side TensorFlow Ops line. Sorted by\n"
    "  GPU time, then self time. An op counts when it starts inside the range.\n"
    "  --top N             the first N ops\n";

}  // namespace

int runOps(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("ops", argc, argv, {"--top"}, exitCode);
    if (!p) return exitCode;
    const Trace& t = *p->trace;
    OpStatsOptions options;
    options.window = p->args.range.value_or(kWholeTrace);
    const std::vector<Step> steps = stepsInRange(t, p->args);
    // CPU ops belong to a step's CPU span (--step N's range is its GPU windows).
    if (p->args.step && steps.size() == 1) options.window = steps.front().span;
    for (const Step& s : steps)
        options.stepTime += s.span.length();
    std::vector<OpStats> ops = opStats(t, options);
    if (p->args.top && ops.size() > p->args.top) ops.resize(p->args.top);
    const ResultTable table = opTable(t, ops);
    if (p->args.format == OutputFormat::Json) {
        printJson({{"step_time_ns", options.stepTime}, {"ops", resultRowsJson(table)}});
        return 0;
    }
    if (ops.empty()) {
        std::cout << "No ops in this trace" << (p->args.range ? " range" : "") << ".\n";
        return 0;
    }
    printResult(table, p->args.format);
    return 0;
}

}  // namespace gapscope::cli
