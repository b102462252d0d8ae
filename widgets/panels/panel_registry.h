#pragma once
// The one place that lists the analysis panels, in the order their docks
// are tabbed (Overview first).

#include <vector>

namespace gapscope::ui {

class AnalysisPanel;
class AnalysisSession;
class ViewState;

std::vector<AnalysisPanel*> createPanels(AnalysisSession* session, ViewState* view);

}  // namespace gapscope::ui
