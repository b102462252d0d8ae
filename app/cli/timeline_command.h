#pragma once
// gapscope-cli timeline TRACE: the GPU time breakdown per device.

namespace gapscope::cli {

int runTimeline(int argc, char** argv);

}  // namespace gapscope::cli
