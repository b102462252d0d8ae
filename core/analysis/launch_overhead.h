#pragma once
// Launch overhead: for each kernel whose launch call is known
// (analysis/launch_calls.h), the launch delay (GPU start − end of the call,
// at least 0) and the call's duration; how many kernels are shorter than
// 10 µs and their share of the kernels and of kernel time; a histogram of
// the delays by decade (< 1 µs, 1–10 µs, ..., ≥ 10 ms); per kernel name the
// mean and maximum delay. A kernel counts when it starts inside the window.

#include <array>
#include <optional>
#include <vector>

#include "analysis/distribution.h"
#include "analysis/gpu_activity.h"
#include "util/cancel_token.h"

namespace gapscope {

inline constexpr TimeNs kShortKernelNs = 10'000;
inline constexpr size_t kDelayBuckets = 6;
// The lower bound of each delay bucket, in ns (the last has no upper bound).
inline constexpr std::array<TimeNs, kDelayBuckets> kDelayBucketStart{
    0, 1'000, 10'000, 100'000, 1'000'000, 10'000'000};

struct KernelLaunchDelay {
    StringId name = 0;
    uint64_t count = 0;
    double meanDelay = 0, meanLaunch = 0;
    TimeNs maxDelay = 0;
};

struct LaunchOverhead {
    uint64_t kernels = 0, kernelsWithLaunch = 0;
    Distribution delay, launch;  // over the kernels with a launch call
    uint64_t shortKernels = 0;
    TimeNs shortTime = 0;  // the short kernels' own time
    std::optional<double> shortShare, shortTimeShare;
    std::array<uint64_t, kDelayBuckets> histogram{};
    std::vector<KernelLaunchDelay> byName;  // by mean delay, then name
};

class AnalysisIndex;

// `index`: built once per trace; else the launch calls are indexed here.
LaunchOverhead launchOverhead(const Trace& trace, Interval window = kWholeTrace,
                              const AnalysisIndex* index = nullptr,
                              const CancelToken* cancel = nullptr);

}  // namespace gapscope
