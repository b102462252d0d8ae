#include <iostream>

#include "analysis/launch_overhead.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"
#include "report/table.h"
#include "util/readable_units.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli launch TRACE [--format table|csv|md|json] [--range START:END]\n"
    "                   [--step N] [--top N]\n"
    "  Launch overhead: per kernel whose launch call is known (correlation id, else\n"
    "  the ac2g flow), the launch delay (GPU start - end of the call, >= 0) and the\n"
    "  call's duration; kernels shorter than 10 us; a histogram of the delays by\n"
    "  decade; per kernel name the mean and largest delay.\n"
    "  --top N             the N kernel names with the largest mean delay\n";

nlohmann::json distributionJson(const Distribution& d) {
    if (d.count == 0) return nullptr;
    return {{"mean", d.mean}, {"median", d.median}, {"p95", d.p95}, {"max", d.max}};
}

}  // namespace

int runLaunch(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("launch", argc, argv, {"--top"}, exitCode);
    if (!p) return exitCode;
    const Trace& t = *p->trace;
    LaunchOverhead r = launchOverhead(t, p->args.range.value_or(kWholeTrace));
    if (p->args.top && r.byName.size() > p->args.top) r.byName.resize(p->args.top);
    if (p->args.format == OutputFormat::Json) {
        nlohmann::json histogram = nlohmann::json::array();
        for (size_t b = 0; b < kDelayBuckets; ++b) {
            histogram.push_back(
                {{"from_ns", kDelayBucketStart[b]},
                 {"to_ns",
                  b + 1 < kDelayBuckets ? nlohmann::json(kDelayBucketStart[b + 1]) : nullptr},
                 {"count", r.histogram[b]}});
        }
        const nlohmann::json byName = resultRowsJson(launchTable(t, r));
        printJson({{"kernels", r.kernels},
                   {"kernels_with_launch", r.kernelsWithLaunch},
                   {"delay_ns", distributionJson(r.delay)},
                   {"launch_ns", distributionJson(r.launch)},
                   {"short_kernels",
                    {{"count", r.shortKernels},
                     {"share", orNull(r.shortShare)},
                     {"time_share", orNull(r.shortTimeShare)}}},
                   {"histogram", histogram},
                   {"by_name", byName}});
        return 0;
    }
    if (r.kernels == 0) {
        std::cout << "No GPU kernels in this trace" << (p->args.range ? " range" : "") << ".\n";
        return 0;
    }
    std::cout << r.kernels << " kernels, " << r.kernelsWithLaunch << " with a known launch call; "
              << r.shortKernels << " shorter than 10 us ("
              << readablePercent(r.shortShare.value_or(0)) << " of kernels, "
              << readablePercent(r.shortTimeShare.value_or(0)) << " of kernel time)\n";
    if (r.kernelsWithLaunch == 0) return 0;
    std::cout << "launch delay ns: mean " << fixed(r.delay.mean, 1) << ", median " << r.delay.median
              << ", p95 " << r.delay.p95 << ", max " << r.delay.max << "\n"
              << "launch call ns:  mean " << fixed(r.launch.mean, 1) << ", median "
              << r.launch.median << ", p95 " << r.launch.p95 << ", max " << r.launch.max << "\n\n";
    static constexpr const char* kBucketNames[] = {"< 1 us",      "1-10 us", "10-100 us",
                                                   "100 us-1 ms", "1-10 ms", ">= 10 ms"};
    Table histogram;
    histogram.headers = {"launch delay", "kernels"};
    histogram.numeric = {false, true};
    for (size_t b = 0; b < kDelayBuckets; ++b)
        histogram.rows.push_back({kBucketNames[b], std::to_string(r.histogram[b])});
    printTable(histogram, p->args.format);
    std::cout << "\n";
    printResult(launchTable(t, r), p->args.format);
    return 0;
}

}  // namespace gapscope::cli
