#pragma once
// The efficiency of a scope (analysis/efficiency.h: efficiencyOfWindow) as
// the Efficiency, Kernels and Ops analyses all read it: over the scope's
// window, its steps, against the GPU table's roofs or the peaks given.

#include <memory>
#include <optional>

#include "analysis/efficiency.h"
#include "report/analysis_registry.h"

namespace gapscope {

std::shared_ptr<const EfficiencyResult> scopedEfficiency(const Trace& trace, const Scope& scope);

}  // namespace gapscope
