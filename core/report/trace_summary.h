#pragma once
// A readable summary of a loaded trace: format, events per phase, span, GPU
// busy time, processes and tracks, and the import report with its warnings.
// Shown by `gapscope-cli info` and the viewer's import report.

#include <iosfwd>

#include "model/trace.h"

namespace gapscope {

void writeTraceSummary(const Trace& trace, std::ostream& out);

}  // namespace gapscope
