#pragma once
// The busy union of each GPU: the merged intervals during which any of its
// streams ran a kernel, memcpy or memset (slices flagged kSliceGpuActivity;
// never Kineto's gpu_user_annotation or TensorFlow's derived lines). Idle
// gaps are its complement. The loader stores the result in
// Trace::gpuDevices once per load; everything else reads it from there.

#include <vector>

#include "model/trace.h"

namespace gapscope {

// The busy union of every device, from the slices flagged kSliceGpuActivity.
std::vector<GpuDevice> gpuBusyFromSlices(const Trace& trace);

// Fills trace.gpuDevices (gpuBusyFromSlices) after building.
void computeGpuBusy(Trace& trace);

}  // namespace gapscope
