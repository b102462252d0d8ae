#pragma once
// Frame times of the whole timeline at several zoom levels, the GPU busy
// union, and counter rows with millions of samples.

#include <string>
#include <vector>

namespace gapscope::bench {

void printFrameTable(const std::vector<std::string>& files, bool quick);
// A generated counter series of `samples` samples, drawn at five zooms.
void printCounterFrames(size_t samples, bool quick);

}  // namespace gapscope::bench
