#include "report/run_summary.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "analysis/analysis_index.h"
#include "report/analysis_registry.h"
#include "report/analysis_render.h"
#include "report/run_metrics.h"
#include "report/table.h"

namespace gapscope {

std::vector<ResultTable> summaryTables(const Trace& trace, const StepOptions& stepOptions,
                                       size_t top) {
    std::unique_ptr<AnalysisIndex> own;
    const StepOptions options = wholeTraceOptions(trace, stepOptions, own);
    Scope scope;  // the whole trace
    scope.stepRegex = options.regex;
    scope.minGapNs = options.minGapNs;
    scope.index = options.index;
    scope.cancel = options.cancel;
    // Each analysis's parts, in the registry's order; the steps and the time
    // account they share are computed once (the index keeps them).
    std::vector<ResultTable> out;
    for (const Analysis& a : analysisRegistry().all()) {
        if (a.summary.empty()) continue;
        const std::vector<ResultTable> tables =
            renderedTables(trace, a, computeAnalysis(a, trace, scope));
        for (const SummaryPart& part : a.summary) {
            const auto it = std::find_if(tables.begin(), tables.end(),
                                         [&](const ResultTable& t) { return t.id == part.table; });
            if (it == tables.end()) continue;
            ResultTable t = project(
                *it, std::vector<std::string_view>(part.columns.begin(), part.columns.end()),
                part.top ? top : 0);
            t.id = part.id;
            t.title = part.title;
            out.push_back(std::move(t));
        }
    }
    return out;
}

}  // namespace gapscope
