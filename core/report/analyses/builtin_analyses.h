#pragma once
// The built-in analyses' registrations, one function per file of this
// folder, listed in builtin_analyses.def (in the CLI's and panels' order).

#include "report/analysis_registry.h"

namespace gapscope {

#define GAPSCOPE_ANALYSIS(name) Analysis name##Analysis();
#include "report/analyses/builtin_analyses.def"
#undef GAPSCOPE_ANALYSIS

}  // namespace gapscope
