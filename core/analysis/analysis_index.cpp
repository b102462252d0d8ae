#include "analysis/analysis_index.h"

#include <algorithm>

namespace gapscope {

AnalysisIndex::AnalysisIndex(const Trace& trace)
    : trace_(trace),
      launches_(trace),
      enclosing_(trace),
      explainer_(trace, &launches_),
      steps_(findSteps(trace)),
      windows_(gapscope::stepWindows(trace, steps_, launches_)) {
    for (const GpuDevice& device : trace.gpuDevices) {
        forEachActivity(trace, device, kWholeTrace, [&](uint32_t k, const Track&, ActivityKind) {
            const uint32_t call = launches_.first(k);
            if (call != kNone) launched_.push_back({call, k});
        });
    }
    std::sort(launched_.begin(), launched_.end());
}

}  // namespace gapscope
