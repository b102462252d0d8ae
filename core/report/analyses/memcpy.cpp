// Copies and memsets per device, kind and name (analysis/memcpy_stats.h).

#include "analysis/memcpy_stats.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

Analysis memcpyAnalysis() {
    Analysis a;
    a.id = "memcpy";
    a.title = "Copies and memsets";
    a.what = "copies and memsets: count, time, bytes, bandwidth,\ndirection, pageable or pinned";
    a.help =
        "Copies and memsets per (device, kind, name): count, total time, bytes and\n"
        "bandwidth (GB/s) where every event of the group gives args.bytes, direction\n"
        "(HtoD, DtoH, DtoD, PtoP) and pageable or pinned host memory. An event counts\n"
        "when it starts inside the range.";
    a.options = {{"top", OptionSpec::Kind::Count, "the N groups with the most total time"}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        std::vector<CopyStats> rows = memcpyStats(t, scope.window, scope.cancel);
        if (const auto top = o.value("top"); top && rows.size() > static_cast<size_t>(*top))
            rows.resize(static_cast<size_t>(*top));
        AnalysisResult r;
        r.tables.push_back(copyTable(t, rows));
        if (rows.empty()) r.empty = scope.nothing("copies or memsets");
        return r;
    };
    return a;
}

}  // namespace gapscope
