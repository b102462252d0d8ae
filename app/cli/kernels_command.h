#pragma once
// gapscope-cli kernels TRACE: kernel statistics per name (per device).

namespace gapscope::cli {

int runKernels(int argc, char** argv);

}  // namespace gapscope::cli
