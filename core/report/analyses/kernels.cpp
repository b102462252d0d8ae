// Kernel statistics per name (analysis/kernel_stats.h).

#include "analysis/kernel_stats.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"
#include "report/scoped_efficiency.h"

namespace gapscope {

Analysis kernelsAnalysis() {
    Analysis a;
    a.id = "kernels";
    a.title = "Kernels";
    a.what =
        "kernel statistics per name (count, total, mean, min,\nmax, median, p95, stddev, shares, "
        "Tensor Cores, launch\nparameters, the CPU op that launched it)";
    a.help =
        "Kernel statistics per kernel name, by total time: count, total, mean, min,\n"
        "max, median, p95 (nearest rank), sample standard deviation, share of all\n"
        "kernel time and of the GPU's busy time, streams, Tensor Core use (by name,\n"
        "as TensorBoard's profiler decides). Raw kernel durations, in ns; a kernel\n"
        "counts when it starts inside --range. Launch parameters (grid, block,\n"
        "registers, shared memory, occupancy) of the name's first kernel, and the CPU\n"
        "op that launched it (correlation -> runtime call -> enclosing cpu_op; the most\n"
        "frequent one). The terminal's table leaves the launch parameters and streams\n"
        "to the other formats.";
    a.usesPeaks = true;
    a.options = {{"by-device", OptionSpec::Kind::Flag, "one row per (device, kernel name)"},
                 {"top", OptionSpec::Kind::Count, "the N kernels with the most total time"}};
    a.textColumns["kernels"] = {"device",
                                "name",
                                "count",
                                "total_ns",
                                "mean_ns",
                                "min_ns",
                                "max_ns",
                                "median_ns",
                                "p95_ns",
                                "stddev_ns",
                                "share_of_kernel_time",
                                "share_of_busy_time",
                                "tensor_cores",
                                "launched_by"};
    a.summary = {{"kernels",
                  "kernels",
                  "Top kernels by total time",
                  {"name", "count", "total_ns", "mean_ns", "share_of_kernel_time", "tensor_cores"},
                  true}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        KernelStatsOptions options;
        options.window = scope.window;
        options.byDevice = o.flag("by-device");
        options.index = scope.index;
        options.cancel = scope.cancel;
        std::vector<KernelStats> rows = kernelStats(t, options);
        AnalysisResult r;
        // Every kernel in the scope, before --top keeps the first names.
        int64_t count = 0;
        TimeNs total = 0;
        for (const KernelStats& k : rows) {
            count += static_cast<int64_t>(k.count);
            total += k.total;
        }
        r.addFigure({"count", "Kernels", Unit::Count}, count);
        r.addFigure({"total_ns", "Kernel time", Unit::Duration}, total);
        if (const auto top = o.value("top"); top && rows.size() > static_cast<size_t>(*top))
            rows.resize(static_cast<size_t>(*top));
        r.tables.push_back(
            kernelTable(t, rows, options.byDevice, scopedEfficiency(t, scope).get()));
        if (rows.empty()) r.empty = scope.nothing("GPU kernels");
        return r;
    };
    return a;
}

}  // namespace gapscope
