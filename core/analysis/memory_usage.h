#pragma once
// Memory per device, from the curves the trace has:
//  - Kineto [memory] events: "Total Allocated" / "Total Reserved" per
//    (Device Type, Device Id); those of 2021 carry only "Bytes" changes and
//    give a relative curve (their running sum from the trace start);
//  - TensorFlow "Memory Usage" counters of a /device:GPU:N process
//    (bytes_in_use, bytes_reserved);
//  - any other counter series is listed as a plain curve.
// Per device: the peak allocated with the first time it is reached, the
// peak reserved, the peak as a share of the device's memory (Kineto's
// deviceProperties), the peak of each step (the level in effect at the
// step's start and every point inside it), and growth: over at least 4
// steps with a peak, a least-squares slope > 0 whose fit has R² ≥ 0.9 is
// reported as bytes per step.

#include <optional>
#include <vector>

#include "analysis/steps.h"

namespace gapscope {

struct DeviceMemory {
    int device = -1;  // GPU index; -1 host
    bool gpu = false;
    bool relative = false;
    // A series of the curve (several processes may report one device; the
    // figures merge their points): index into Trace::counters.
    uint32_t allocatedSeries = kNone;
    uint32_t reservedSeries = kNone;
    double peakAllocated = 0;
    TimeNs peakTime = 0;
    std::optional<double> peakReserved;
    std::optional<int64_t> deviceMemory;
    std::optional<double> peakShare;
    std::vector<std::optional<double>> perStepPeak;  // one per step given
    std::optional<double> growthPerStep;             // bytes per step
    std::optional<double> growthR2;
};

struct MemoryReport {
    std::vector<DeviceMemory> devices;  // GPUs by index, then the host
    std::vector<uint32_t> otherCurves;  // counter series that are not memory curves
};

MemoryReport memoryUsage(const Trace& trace, const std::vector<Step>& steps);

}  // namespace gapscope
