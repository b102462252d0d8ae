#pragma once
// `gapscope-cli info TRACE [--json]`: open a trace the same way the GUI does
// (read, build, index) and summarise it.

#include <iosfwd>
#include <string>

#include "model/trace.h"

namespace gapscope::cli {

int runInfo(int argc, char** argv);

// The JSON rendering (the text one is core's writeTraceSummary).
void writeInfoJson(const Trace& trace, const std::string& cacheNote, std::ostream& out);

const char* processKindName(ProcessKind k);

}  // namespace gapscope::cli
