#include "analysis/gpu_busy.h"

#include <map>

#include "model/device_properties.h"

namespace gapscope {

std::vector<GpuDevice> gpuBusyFromSlices(const Trace& trace) {
    // A slice's device is its own args.device when the profiler wrote one,
    // else its process's device.
    std::map<int, GpuDevice> devices;
    for (uint32_t f = 0; f < trace.tracks.size(); ++f) {
        const Track& track = trace.tracks[f];
        if (track.gpuDevice < 0) continue;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            const Slice& s = trace.slices[i];
            if (!(s.flags & kSliceGpuActivity) || (s.flags & kSliceNegativeDuration)) continue;
            int device = track.gpuDevice;
            if (const int32_t own = trace.deviceOf(s.args); own >= 0) device = own;
            GpuDevice& d = devices[device];
            d.index = device;
            if (d.tracks.empty() || d.tracks.back() != f) d.tracks.push_back(f);
            if (s.dur > 0)
                d.busy.push_back({s.start, s.end()});
            else
                d.instants.push_back(s.start);
        }
    }
    const std::map<int, std::string> names = deviceNamesFromProperties(trace);
    std::vector<GpuDevice> out;
    for (auto& [index, d] : devices) {
        if (const auto n = propertyOfDevice(names, index)) d.name = *n;
        mergeIntervals(d.busy);
        d.busyNs = totalLength(d.busy);
        d.instants = pointsOutside(std::move(d.instants), d.busy);
        out.push_back(std::move(d));
    }
    return out;
}

void computeGpuBusy(Trace& trace) {
    trace.gpuDevices = gpuBusyFromSlices(trace);
}

}  // namespace gapscope
