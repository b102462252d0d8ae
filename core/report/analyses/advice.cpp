// Findings from the usual tuning checklist (analysis/advice.h).

#include "analysis/advice.h"

#include "report/analyses/builtin_analyses.h"

namespace gapscope {

Analysis adviceAnalysis() {
    Analysis a;
    a.id = "advice";
    a.title = "Advice";
    a.what = "findings with their numbers and evidence";
    a.help =
        "Findings from the usual tuning checklist, most severe first, each with its\n"
        "numbers (each with its unit) and evidence (time ranges and slices):\n"
        "input-bound, GPU idle > 20% of step time, many tiny kernels, blocking\n"
        "synchronisation, pageable copies, exposed communication > 10%, no Tensor\n"
        "Cores for GEMM / convolution, memory growth, peak memory > 90% of the\n"
        "device, a trace cut short. No finding without evidence. About the whole\n"
        "trace (its rules compare the steps).";
    a.scoped = false;
    a.usesPeaks = true;
    a.usesGapThreshold = true;
    a.hasFindings = true;
    a.primaryTable = "findings";
    a.summary = {
        {"findings", "advice", "Advice", {"severity", "rule", "device", "message"}, false}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
        AnalysisResult r;
        StepOptions options = scope.stepOptions();
        options.window = kWholeTrace;
        r.findings = adviseWholeTrace(t, options, scope.index, scope.peaks);
        if (r.findings.empty())
            r.empty = "No findings: none of the checks found a problem in this trace.";
        return r;
    };
    return a;
}

}  // namespace gapscope
