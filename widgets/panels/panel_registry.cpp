#include "panels/panel_registry.h"

#include "panels/advice_panel.h"
#include "panels/critical_path_panel.h"
#include "panels/efficiency_panel.h"
#include "panels/gaps_panel.h"
#include "panels/health_panel.h"
#include "panels/kernels_panel.h"
#include "panels/memory_panel.h"
#include "panels/ops_panel.h"
#include "panels/overview_panel.h"
#include "panels/pipeline_panel.h"
#include "panels/registry_panel.h"
#include "panels/steps_panel.h"
#include "panels/utilization_panel.h"

namespace gapscope::ui {

namespace {

// A panel of its own as data: the registered analyses (gapscope-cli
// commands) whose figures it shows (their descriptions are the panel's
// help; "" for a chart no command prints), and how to make it. Every other
// registered analysis gets a RegistryPanel.
struct PanelSpec {
    const char* analysis;  // command names, ',' between them
    AnalysisPanel* (*create)(AnalysisSession* session, ViewState* view);
};

template <class Panel>
AnalysisPanel* make(AnalysisSession* session, ViewState*) {
    return new Panel(session);
}
template <class Panel>
AnalysisPanel* makeWithView(AnalysisSession* session, ViewState* view) {
    return new Panel(session, view);
}

constexpr PanelSpec kPanels[] = {{"account", make<OverviewPanel>},
                                 {"gaps", make<GapsPanel>},
                                 {"steps", make<StepsPanel>},
                                 {"kernels,memcpy", make<KernelsPanel>},
                                 {"ops", make<OpsPanel>},
                                 {"memory", makeWithView<MemoryPanel>},
                                 {"pipeline", make<PipelinePanel>},
                                 {"advice", make<AdvicePanel>},
                                 {"efficiency", make<EfficiencyPanel>},
                                 {"", makeWithView<UtilizationPanel>},
                                 {"health", make<HealthPanel>},
                                 {"critical-path", makeWithView<CriticalPathPanel>}};

}  // namespace

std::vector<AnalysisPanel*> createPanels(AnalysisSession* session, ViewState* view) {
    std::vector<AnalysisPanel*> panels;
    QStringList shown;
    for (const PanelSpec& spec : kPanels) {
        AnalysisPanel* panel = spec.create(session, view);
        const QStringList analyses =
            QString::fromLatin1(spec.analysis).split(QLatin1Char(','), Qt::SkipEmptyParts);
        panel->setAnalysis(analyses);
        shown += analyses;
        panels.push_back(panel);
    }
    for (const Analysis& a : analysisRegistry().all()) {
        const QString id = QString::fromStdString(a.id);
        // Comparisons: their windows; the summary: the report (its parts
        // are the panels' own tables).
        if (shown.contains(id) || !a.readsOneTrace() || !a.panel) continue;
        AnalysisPanel* panel = new RegistryPanel(session, a);
        panel->setAnalysis({id});
        panels.push_back(panel);
    }
    return panels;
}

}  // namespace gapscope::ui
