#pragma once
// Any registered analysis (report/analysis_registry.h) as a gapscope-cli
// command: its --help from the registration, the shared options (--format,
// --table, --out, --range, --step, --step-regex, --min-gap-us, --schema) and
// its own, then the result rendered by report/analysis_render.h.

#include <string>

#include "report/analysis_registry.h"

namespace gapscope::cli {

int runAnalysisCommand(const Analysis& analysis, int argc, char** argv);

// The usage text of `--help`.
std::string analysisHelp(const Analysis& analysis);

}  // namespace gapscope::cli
