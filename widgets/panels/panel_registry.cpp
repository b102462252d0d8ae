#include "panels/panel_registry.h"

#include "panels/advice_panel.h"
#include "panels/gaps_panel.h"
#include "panels/kernels_panel.h"
#include "panels/memory_panel.h"
#include "panels/ops_panel.h"
#include "panels/overview_panel.h"
#include "panels/pipeline_panel.h"
#include "panels/steps_panel.h"
#include "panels/utilization_panel.h"

namespace gapscope::ui {

std::vector<AnalysisPanel*> createPanels(AnalysisSession* session, ViewState* view) {
    return {
        new OverviewPanel(session), new GapsPanel(session),   new StepsPanel(session),
        new KernelsPanel(session),  new OpsPanel(session),    new MemoryPanel(session, view),
        new PipelinePanel(session), new AdvicePanel(session), new UtilizationPanel(session, view)};
}

}  // namespace gapscope::ui
