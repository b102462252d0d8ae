#include "analysis/time_breakdown.h"

namespace gapscope {

GpuTimeBreakdown timeBreakdown(const Trace& trace, const GpuDevice& device, Interval window) {
    const DeviceActivity a = deviceActivity(trace, device, window);
    GpuTimeBreakdown b;
    b.device = device.index;
    const std::vector<Interval> all = unionOf(unionOf(a.compute, a.communication), a.memcpy);
    const std::vector<TimeNs> points = pointsWithin(device.instants, window);
    if (all.empty() && points.empty()) return b;
    // The span of its activity in the window, zero-duration activity included.
    Interval span{INT64_MAX, INT64_MIN};
    if (!all.empty()) span = {all.front().start, all.back().end};
    if (!points.empty())
        span = {std::min(span.start, points.front()), std::max(span.end, points.back())};
    b.activeSpan = span;
    b.total = b.activeSpan->length();
    b.busy = totalLength(all);
    b.idle = b.total - b.busy;
    b.computation = totalLength(a.compute);
    b.exposedComm = totalLength(differenceOf(a.communication, a.compute));
    b.exposedMemcpy = totalLength(differenceOf(differenceOf(a.memcpy, a.compute), a.communication));
    b.totalComm = totalLength(a.communication);
    b.totalMemcpy = totalLength(a.memcpy);
    if (b.totalComm > 0) {
        b.commOverlap =
            static_cast<double>(totalLength(intersectionOf(a.compute, a.communication))) /
            static_cast<double>(b.totalComm);
    }
    return b;
}

std::vector<GpuTimeBreakdown> timeBreakdowns(const Trace& trace, Interval window) {
    std::vector<GpuTimeBreakdown> out;
    out.reserve(trace.gpuDevices.size());
    for (const GpuDevice& d : trace.gpuDevices) {
        GpuTimeBreakdown b = timeBreakdown(trace, d, window);
        if (b.activeSpan) out.push_back(b);
    }
    return out;
}

}  // namespace gapscope
