#pragma once
// The busy union of a GPU: the merged intervals during which any of its
// streams ran a kernel, memcpy or memset. Idle gaps are its complement.

#include <vector>

#include "model/trace.h"

namespace gapscope {

// Sorts and merges `intervals` in place; touching intervals merge.
void mergeIntervals(std::vector<BusyInterval>& intervals);

// Gaps between consecutive busy intervals that last at least minGapNs.
std::vector<BusyInterval> idleGaps(const std::vector<BusyInterval>& busy, TimeNs minGapNs);

// The busy union of every device, from the slices flagged kSliceGpuActivity.
std::vector<GpuDevice> gpuBusyFromSlices(const Trace& trace);

// Fills trace.gpuDevices (gpuBusyFromSlices) while building.
void computeGpuBusy(Trace& trace);

}  // namespace gapscope
