#pragma once
// GPU time breakdown per device over a window (the CLI's `timeline`):
//   computation    = |∪compute|
//   exposed comm   = |∪comm − ∪compute|
//   exposed memcpy = |∪memcpy − ∪compute − ∪comm|
//   busy           = |∪all|
//   total          = last activity end − first activity start in the window
//   idle           = total − busy
// The parts add up to total exactly (integer ns). Communication overlap =
// |∪compute ∩ ∪comm| / |∪comm| (none without communication).

#include <optional>
#include <vector>

#include "analysis/gpu_activity.h"

namespace gapscope {

struct GpuTimeBreakdown {
    int device = 0;
    TimeNs computation = 0, exposedComm = 0, exposedMemcpy = 0;
    TimeNs busy = 0, idle = 0, total = 0;
    TimeNs totalComm = 0, totalMemcpy = 0;
    std::optional<double> commOverlap;
    std::optional<Interval> activeSpan;  // first start .. last end in the window
};

GpuTimeBreakdown timeBreakdown(const Trace& trace, const GpuDevice& device, Interval window);

// One per device with activity in the window, in trace.gpuDevices order.
std::vector<GpuTimeBreakdown> timeBreakdowns(const Trace& trace, Interval window = kWholeTrace);

}  // namespace gapscope
