#include "kernels_command.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/kernel_stats.h"
#include "analysis_args.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli kernels TRACE [--format table|csv|md|json] [--range START:END]\n"
    "                    [--by-device] [--top N]\n"
    "  Kernel statistics per kernel name, by total time: count, total, mean, min,\n"
    "  max, median, p95 (nearest rank), sample standard deviation, share of all\n"
    "  kernel time and of the GPU's busy time, streams, Tensor Core use (by name,\n"
    "  as TensorBoard's profiler decides). Raw kernel durations, in ns; a kernel\n"
    "  counts when it starts inside --range. Launch parameters (grid, block,\n"
    "  registers, shared memory, occupancy) of the name's first kernel, and the CPU\n"
    "  op that launched it (correlation -> runtime call -> enclosing cpu_op; the most\n"
    "  frequent one).\n"
    "  --by-device         one row per (device, kernel name)\n"
    "  --top N             the N kernels with the most total time\n";

}  // namespace

int runKernels(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto prepared = prepare("kernels", argc, argv, {"--by-device", "--top"}, exitCode);
    if (!prepared) return exitCode;
    const AnalysisArgs* args = &prepared->args;
    const auto& trace = prepared->trace;
    KernelStatsOptions options;
    options.window = args->range.value_or(kWholeTrace);
    options.byDevice = args->byDevice;
    std::vector<KernelStats> rows = kernelStats(*trace, options);
    if (args->top && rows.size() > args->top) rows.resize(args->top);
    const ResultTable table = kernelTable(*trace, rows, args->byDevice);
    if (args->format == OutputFormat::Json) {
        printJson({{"kernels", resultRowsJson(table)}});
        return 0;
    }
    if (rows.empty()) {
        std::cout << "No GPU kernels in this trace" << (args->range ? " range" : "") << ".\n";
        return 0;
    }
    // The terminal's table leaves the launch parameters and streams to the
    // other formats.
    if (args->format == OutputFormat::Text) {
        printResult(
            project(table, {"device", "name", "count", "total_ns", "mean_ns", "min_ns", "max_ns",
                            "median_ns", "p95_ns", "stddev_ns", "share_of_kernel_time",
                            "share_of_busy_time", "tensor_cores", "launched_by"}),
            args->format);
        return 0;
    }
    printResult(table, args->format);
    return 0;
}

}  // namespace gapscope::cli
