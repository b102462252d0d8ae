// The summary of one trace: the summary parts of the other registered
// analyses (report/run_summary.h), one document or one CSV file per table.

#include "report/analyses/builtin_analyses.h"
#include "report/run_summary.h"

namespace gapscope {

Analysis summaryAnalysis() {
    Analysis a;
    a.id = "summary";
    a.title = "Summary";
    a.what =
        "the summary tables (GPU time, steps, top kernels and ops,\ninput pipeline, memory, "
        "advice) in one document";
    a.help =
        "The summary of a trace as tables: per GPU busy and idle by cause, steps, the\n"
        "top kernels and ops (--top, default 10), the input pipeline's verdict, memory\n"
        "peaks and growth, and the advice; each table is a part of another analysis's\n"
        "result (its columns, the same values). --format md, json and html write one\n"
        "document; csv one table (--table ID, default gpus), or every table as ID.csv\n"
        "with --out DIR. The whole trace.";
    a.options = {{"top", OptionSpec::Kind::Count, "the kernels and ops with the most time", 10}};
    a.scoped = false;
    a.usesPeaks = true;
    a.usesGapThreshold = true;
    // The viewer's report writes it; a panel of its own would repeat the
    // others' tables.
    a.panel = false;
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& options) {
        StepOptions so = scope.stepOptions();
        AnalysisResult r;
        r.tables = summaryTables(t, so, static_cast<size_t>(options.value("top").value_or(10)));
        return r;
    };
    return a;
}

}  // namespace gapscope
