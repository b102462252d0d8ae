#include "index/gpu_busy.h"

#include <algorithm>
#include <map>

#include "index/gpu_busy.h"

namespace gapscope {

void mergeIntervals(std::vector<BusyInterval>& v) {
    std::sort(v.begin(), v.end(),
              [](const BusyInterval& a, const BusyInterval& b) { return a.start < b.start; });
    size_t out = 0;
    for (size_t i = 0; i < v.size(); ++i) {
        if (out > 0 && v[i].start <= v[out - 1].end) {
            v[out - 1].end = std::max(v[out - 1].end, v[i].end);
        } else {
            v[out++] = v[i];
        }
    }
    v.resize(out);
    v.shrink_to_fit();
}

std::vector<BusyInterval> idleGaps(const std::vector<BusyInterval>& busy, TimeNs minGapNs) {
    std::vector<BusyInterval> gaps;
    for (size_t i = 1; i < busy.size(); ++i) {
        const TimeNs len = busy[i].start - busy[i - 1].end;
        if (len >= minGapNs && len > 0) gaps.push_back({busy[i - 1].end, busy[i].start});
    }
    return gaps;
}

std::vector<GpuDevice> gpuBusyFromSlices(const Trace& trace) {
    // A slice's device is its own args.device when the profiler wrote one,
    // else its process's device.
    std::map<int, GpuDevice> devices;
    for (uint32_t f = 0; f < trace.tracks.size(); ++f) {
        const Track& track = trace.tracks[f];
        if (track.gpuDevice < 0) continue;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = trace.slices[i];
            if (!(s.flags & kSliceGpuActivity) || s.dur <= 0) continue;
            int device = track.gpuDevice;
            if (const int32_t own = trace.deviceOf(s.args); own >= 0) device = own;
            GpuDevice& d = devices[device];
            d.index = device;
            if (d.tracks.empty() || d.tracks.back() != f) d.tracks.push_back(f);
            d.busy.push_back({s.start, s.end()});
        }
    }
    std::vector<GpuDevice> out;
    for (auto& [index, d] : devices) {
        mergeIntervals(d.busy);
        for (const BusyInterval& b : d.busy)
            d.busyNs += b.end - b.start;
        out.push_back(std::move(d));
    }
    return out;
}

void computeGpuBusy(Trace& trace) {
    trace.gpuDevices = gpuBusyFromSlices(trace);
}

}  // namespace gapscope
