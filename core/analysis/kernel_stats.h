#pragma once
// Kernel statistics per kernel name (optionally per device): count, total,
// mean, min, max, median, p95, sample standard deviation, shares, streams,
// Tensor Core use. Durations are the raw kernel durations (not clipped); a
// kernel counts when it starts inside the window. Median, p95 and stddev as
// analysis/distribution.h defines them. Launch parameters are those of the
// name's first kernel; the launching op is the innermost CPU op around the
// launch call, the most frequent one over the name's kernels.

#include <optional>
#include <string>
#include <vector>

#include "analysis/gpu_activity.h"
#include "analysis/tensor_cores.h"
#include "util/cancel_token.h"

namespace gapscope {

class AnalysisIndex;

struct KernelStats {
    StringId name = 0;
    uint32_t firstSlice = kNone;  // the earliest kernel of this name
    int device = -1;              // -1: all devices together
    uint64_t count = 0;
    TimeNs total = 0, min = 0, max = 0, median = 0, p95 = 0;
    double mean = 0;
    std::optional<double> stddev;
    double shareOfKernelTime = 0;      // of all kernels' total (same device, or all)
    double shareOfBusyTime = 0;        // of the device's busy time (all devices' sum)
    std::vector<std::string> streams;  // "GPU 0 · stream 7", in first-seen order
    bool communication = false;
    TensorCoreUse tensorCores = TensorCoreUse::Unknown;  // by name (analysis/tensor_cores.h)
    std::optional<LaunchParams> launch;  // of the first kernel, when the trace has them
    std::optional<StringId> launchedBy;  // the CPU op, when the launch call is known
};

struct KernelStatsOptions {
    Interval window = kWholeTrace;
    bool byDevice = false;
    bool launchers = true;                 // find the launching CPU op (indexes the launch calls)
    const AnalysisIndex* index = nullptr;  // built once per trace; else built here
    const CancelToken* cancel = nullptr;
};

// Sorted by total time, descending (then by name).
std::vector<KernelStats> kernelStats(const Trace& trace, const KernelStatsOptions& options = {});

}  // namespace gapscope
