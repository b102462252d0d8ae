// The GPU time breakdown per device (analysis/time_breakdown.h).

#include "analysis/time_breakdown.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

Analysis timelineAnalysis() {
    Analysis a;
    a.id = "timeline";
    a.title = "GPU time breakdown";
    a.what =
        "GPU time breakdown per device: computation, exposed\ncommunication and memcpy, idle "
        "(they add up exactly)";
    a.help =
        "The GPU time breakdown of each device (all its streams), in ns:\n"
        "  computation    time any compute kernel or memset ran\n"
        "  exposed comm   communication (NCCL/RCCL/HCCL) not overlapped by compute\n"
        "  exposed memcpy copies overlapped by neither\n"
        "  idle           total - busy; the parts add up to total exactly\n"
        "  total          first activity start to last activity end in the range\n"
        "  busy           busy time / total\n"
        "  comm overlap   share of communication time overlapped by compute";
    a.takesStepRegex = false;
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
        AnalysisResult r;
        const std::vector<GpuTimeBreakdown> devices = timeBreakdowns(t, scope.window);
        r.tables.push_back(breakdownTable(devices));
        if (devices.empty()) r.empty = scope.nothing("GPU activity");
        return r;
    };
    return a;
}

}  // namespace gapscope
