#pragma once
// gapscope-cli gaps TRACE: each GPU's idle gaps with their cause and evidence.

namespace gapscope::cli {

int runGaps(int argc, char** argv);

}  // namespace gapscope::cli
