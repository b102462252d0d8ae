#include "toy_analysis.h"

#include <algorithm>
#include <numeric>

#include "analysis/slice_queries.h"
#include "report/analysis_registry.h"

namespace gapscope::test {

void registerToyAnalysis() {
    if (analysisRegistry().find("longest-slices")) return;
    Analysis a;
    a.id = "longest-slices";
    a.title = "Longest slices";
    a.what = "the longest slices of the trace (a test's toy analysis)";
    a.help = "The N longest slices of the trace, and how many slices it has.";
    a.options = {{"top", OptionSpec::Kind::Count, "the N longest slices (default 3)", 3}};
    a.scoped = false;
    a.takesStepRegex = false;
    // The summary shows its longest slices' names and durations, top rows.
    a.summary = {{"longest", "longest_slices", "Longest slices", {"name", "duration_ns"}, true}};
    a.compute = [](const Trace& t, const Scope&, const AnalysisOptions& o) {
        std::vector<uint32_t> order(t.slices.size());
        std::iota(order.begin(), order.end(), 0u);
        const size_t top = std::min(order.size(), static_cast<size_t>(o.value("top").value_or(3)));
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(top),
                          order.end(), [&](uint32_t x, uint32_t y) {
                              return t.slices[x].dur != t.slices[y].dur
                                         ? t.slices[x].dur > t.slices[y].dur
                                         : x < y;
                          });
        AnalysisResult r;
        r.addFigure({"slices", "Slices", Unit::Count}, static_cast<int64_t>(t.slices.size()));
        ResultTable table;
        table.id = "longest";
        table.title = "Longest slices";
        table.columns = {symbolColumn("name", "Slice"),
                         {"start_ns", "Start", Unit::Time},
                         {"duration_ns", "Duration", Unit::Duration},
                         {"track", "Track", Unit::Text}};
        for (size_t i = 0; i < top; ++i) {
            const uint32_t s = order[i];
            ResultRow row;
            row.cells = {std::string(t.str(t.slices[s].name)), t.slices[s].start, t.slices[s].dur,
                         trackLabel(t, t.trackOfSlice(s))};
            row.ref.kind = ResultRef::Kind::Slice;
            row.ref.slice = s;
            table.rows.push_back(std::move(row));
        }
        r.tables.push_back(std::move(table));
        return r;
    };
    analysisRegistry().add(std::move(a));
}

}  // namespace gapscope::test
