// Op statistics per name (analysis/op_stats.h).

#include <algorithm>

#include "analysis/op_stats.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"
#include "report/scoped_efficiency.h"

namespace gapscope {

Analysis opsAnalysis() {
    Analysis a;
    a.id = "ops";
    a.title = "Ops";
    a.what = "op statistics: count, inclusive, self and GPU time";
    a.help =
        "Op statistics per op name: count, inclusive and self time, the GPU time of the\n"
        "kernels, copies and memsets it launched (itself and its children), and its\n"
        "share of the step duration (the steps' CPU spans, summed). PyTorch: CPU ops\n"
        "(cpu_op / Operator, without ProfilerStep#N); TensorFlow: the device-side\n"
        "TensorFlow Ops line. Sorted by GPU time, then self time. An op counts when it\n"
        "starts inside the range; with --step N, inside that step's CPU span.";
    a.usesPeaks = true;
    a.options = {{"top", OptionSpec::Kind::Count, "the first N ops"}};
    a.summary = {{"ops", "ops", "Top ops by GPU time", {}, true}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        OpStatsOptions options;
        options.window = scope.window;
        options.index = scope.index;
        options.cancel = scope.cancel;
        const std::vector<Step> steps = scope.steps(t);
        // CPU ops belong to a step's CPU span (step N's window is its GPU
        // windows): every rank's step N, their hull.
        if (scope.step && !steps.empty()) {
            options.window = steps.front().span;
            for (const Step& s : steps)
                options.window = {std::min(options.window.start, s.span.start),
                                  std::max(options.window.end, s.span.end)};
        }
        for (const Step& s : steps)
            options.stepTime += s.span.length();
        std::vector<OpStats> ops = opStats(t, options);
        if (const auto top = o.value("top"); top && ops.size() > static_cast<size_t>(*top))
            ops.resize(static_cast<size_t>(*top));
        AnalysisResult r;
        r.addFigure({"step_time_ns", "Step duration", Unit::Duration}, options.stepTime);
        r.tables.push_back(opTable(t, ops, scopedEfficiency(t, scope).get()));
        if (ops.empty()) r.empty = scope.nothing("ops");
        return r;
    };
    return a;
}

}  // namespace gapscope
