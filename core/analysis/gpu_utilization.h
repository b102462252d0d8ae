#pragma once
// GPU utilisation as the viewer's overview strip and the summaries show it:
// the busy share of a device's active span, and busy fractions per time bin.

#include <optional>
#include <vector>

#include "index/interval_set.h"
#include "model/trace.h"

namespace gapscope {

// From the device's first activity start to its last activity end (its
// zero-duration activity included); empty when it has none.
std::optional<Interval> activeSpan(const GpuDevice& device);

// busyNs / |activeSpan| in percent; nullopt when the span is empty.
std::optional<double> busyPercentOfActiveSpan(const GpuDevice& device);

// The busy share (0..1) of `window`: the device's busy time inside it over
// its length; nullopt for an empty window.
std::optional<double> busyShareWithin(const GpuDevice& device, Interval window);

// Busy fraction (0..1) of one device in each of `bins` equal bins of `window`.
std::vector<double> utilizationBins(const GpuDevice& device, Interval window, int bins);

}  // namespace gapscope
