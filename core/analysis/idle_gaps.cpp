#include "analysis/idle_gaps.h"

namespace gapscope {

std::vector<Interval> idleGaps(const GpuDevice& device, TimeNs minGapNs) {
    return gapsBetween(device.busy, device.instants, minGapNs);
}

std::vector<std::vector<Interval>> idleGapsPerDevice(const Trace& trace, TimeNs minGapNs) {
    std::vector<std::vector<Interval>> out;
    out.reserve(trace.gpuDevices.size());
    for (const GpuDevice& d : trace.gpuDevices)
        out.push_back(idleGaps(d, minGapNs));
    return out;
}

}  // namespace gapscope
