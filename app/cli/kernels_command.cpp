#include "kernels_command.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/kernel_stats.h"
#include "analysis_args.h"
#include "cli_output.h"
#include "report/table.h"

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

nlohmann::json launchJson(const LaunchParams& l) {
    nlohmann::json j = {{"grid", {l.grid[0], l.grid[1], l.grid[2]}},
                        {"block", {l.block[0], l.block[1], l.block[2]}}};
    if (l.registersPerThread >= 0) j["registers_per_thread"] = l.registersPerThread;
    if (l.sharedMemory >= 0) j["shared_memory_bytes"] = l.sharedMemory;
    if (l.occupancyPercent >= 0) j["occupancy_percent"] = l.occupancyPercent;
    return j;
}

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
    const Trace& t = *trace;
    if (args->format == OutputFormat::Json) {
        nlohmann::json kernels = nlohmann::json::array();
        for (const KernelStats& k : rows) {
            nlohmann::json j = {
                {"name", std::string(t.str(k.name))},
                {"count", k.count},
                {"total_ns", k.total},
                {"mean_ns", k.mean},
                {"min_ns", k.min},
                {"max_ns", k.max},
                {"median_ns", k.median},
                {"p95_ns", k.p95},
                {"stddev_ns", k.stddev ? nlohmann::json(*k.stddev) : nlohmann::json(nullptr)},
                {"share_of_kernel_time", k.shareOfKernelTime},
                {"share_of_busy_time", k.shareOfBusyTime},
                {"streams", k.streams},
                {"communication", k.communication},
                {"tensor_cores", k.tensorCores == TensorCoreUse::Unknown
                                     ? nlohmann::json(nullptr)
                                     : nlohmann::json(k.tensorCores == TensorCoreUse::Yes)},
                {"launch", k.launch ? launchJson(*k.launch) : nullptr},
                {"launched_by",
                 k.launchedBy ? nlohmann::json(std::string(t.str(*k.launchedBy))) : nullptr}};
            if (k.device >= 0) j["device"] = k.device;
            kernels.push_back(std::move(j));
        }
        std::cout << nlohmann::json{{"kernels", kernels}}.dump(2) << "\n";
        return 0;
    }
    if (rows.empty()) {
        std::cout << "No GPU kernels in this trace" << (args->range ? " range" : "") << ".\n";
        return 0;
    }
    Table table;
    if (args->byDevice) table.headers.push_back("device");
    for (const char* h :
         {"name", "count", "total ns", "mean ns", "min ns", "max ns", "median ns", "p95 ns",
          "stddev ns", "% kernel", "% busy", "tensor cores", "launched by"})
        table.headers.push_back(h);
    table.numeric.assign(table.headers.size(), true);
    table.numeric[args->byDevice ? 1 : 0] = false;
    table.numeric[table.headers.size() - 2] = false;
    table.numeric.back() = false;
    for (const KernelStats& k : rows) {
        std::vector<std::string> r;
        if (args->byDevice) r.push_back(std::to_string(k.device));
        std::string name(t.str(k.name));
        if (args->format == OutputFormat::Table && name.size() > 80)
            name = name.substr(0, 77) + "...";
        r.insert(r.end(), {name, std::to_string(k.count), std::to_string(k.total), fixed(k.mean, 1),
                           std::to_string(k.min), std::to_string(k.max), std::to_string(k.median),
                           std::to_string(k.p95), k.stddev ? fixed(*k.stddev, 1) : "-",
                           fixed(k.shareOfKernelTime * 100, 1), fixed(k.shareOfBusyTime * 100, 1),
                           tensorCoreUseName(k.tensorCores),
                           k.launchedBy ? fitName(t.str(*k.launchedBy), args->format, 40) : "-"});
        table.rows.push_back(std::move(r));
    }
    printTable(table, args->format);
    return 0;
}

}  // namespace gapscope::cli
