#include "report/scoped_efficiency.h"

namespace gapscope {

std::shared_ptr<const EfficiencyResult> scopedEfficiency(const Trace& t, const Scope& scope) {
    return efficiencyOfWindow(t, scope.window, scope.index, scope.stepRegex, scope.cancel,
                              scope.peaks);
}

}  // namespace gapscope
