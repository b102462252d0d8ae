#pragma once
// The idle gaps of each GPU: the maximal intervals without busy time or the
// start of a zero-duration activity (which ran) that last at least a
// threshold. Shared by the timeline's
// shading, the CLI and (later) the gap-cause analysis.

#include <vector>

#include "index/interval_set.h"
#include "model/trace.h"

namespace gapscope {

// The default threshold: gaps shorter than 100 µs are kernel-launch noise.
inline constexpr TimeNs kDefaultGapThresholdNs = 100'000;

// The gaps of one device lasting at least minGapNs.
std::vector<Interval> idleGaps(const GpuDevice& device, TimeNs minGapNs);

// Per entry of trace.gpuDevices, in the same order.
std::vector<std::vector<Interval>> idleGapsPerDevice(const Trace& trace, TimeNs minGapNs);

}  // namespace gapscope
