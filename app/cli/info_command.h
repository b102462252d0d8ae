#pragma once
// `gapscope-cli info TRACE [--json]`: open a trace the same way the GUI does
// (read, build, index) and summarise it.

#include <iosfwd>
#include <string>

#include "model/trace.h"

namespace gapscope::cli {

int runInfo(int argc, char** argv);

// The two renderings of the summary.
void writeInfoJson(const Trace& trace, std::ostream& out);
void writeInfoText(const Trace& trace, std::ostream& out);

// Helpers shared by both renderings.
std::string idToText(const Trace& trace, const IdKey& id);
const char* processKindName(ProcessKind k);

}  // namespace gapscope::cli
