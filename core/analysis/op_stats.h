#pragma once
// Op statistics, what a regression check scripts as "the top 10 ops": per
// op name, count, inclusive time, self time (less its direct children on
// the thread, any kind), the GPU time of the work it launched, and its
// share of the step time.
//  - PyTorch: CPU ops (Kineto cat cpu_op; Operator in 2021), without the
//    ProfilerStep#N markers. A GPU activity (kernel, memcpy, memset) counts
//    for every op around its launch call (the op, its parent op, ...), so a
//    recursive op counts it twice, as PyTorch's profiler does.
//  - TensorFlow: the device-side "TensorFlow Ops" line of each GPU; these
//    ranges are GPU time, so inclusive = self = GPU time = duration.
// An op counts when it starts inside the window. Sorted by GPU time, then
// self time, then name.

#include <optional>
#include <vector>

#include "analysis/steps.h"

namespace gapscope {

class AnalysisIndex;

struct OpStats {
    StringId name = 0;
    uint64_t count = 0;
    TimeNs inclusive = 0, self = 0, gpu = 0;
    std::optional<double> shareOfStepTime;  // inclusive / step time, with steps
    // With OpStatsOptions::parts: the self and GPU time of the ops that
    // start in each part (one per part, in order).
    std::vector<TimeNs> selfPerPart, gpuPerPart;
};

struct OpStatsOptions {
    Interval window = kWholeTrace;
    TimeNs stepTime = 0;                   // total duration of the steps (0: none)
    const AnalysisIndex* index = nullptr;  // built once per trace; else built here
    const CancelToken* cancel = nullptr;
    // Parts of the window, by start and not overlapping (the steps' CPU
    // spans): each op's times also go to the part it starts in, in the
    // same pass.
    std::vector<Interval> parts;
};

std::vector<OpStats> opStats(const Trace& trace, const OpStatsOptions& options = {});

}  // namespace gapscope
