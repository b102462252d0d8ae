// A list of slices as a table: what a search found.

#include "analysis/slice_queries.h"
#include "report/analysis_tables.h"

namespace gapscope {

ResultTable sliceTable(const Trace& trace, const std::vector<uint32_t>& slices, size_t most) {
    ResultTable t;
    t.id = "slices";
    t.title = "Slices";
    t.columns = {symbolColumn("name", "Name"),
                 {"track", "Track", Unit::Text},
                 {"start_ns", "Start", Unit::Time},
                 {"duration_ns", "Duration", Unit::Duration}};
    for (size_t i = 0; i < slices.size() && i < most; ++i) {
        const uint32_t s = slices[i];
        if (s >= trace.slices.size()) continue;
        const Slice& slice = trace.slices[s];
        ResultRow r;
        r.cells = {std::string(trace.str(slice.name)), trackLabel(trace, trace.trackOfSlice(s)),
                   slice.start, slice.dur};
        r.ref.kind = ResultRef::Kind::Slice;
        r.ref.slice = s;
        t.rows.push_back(std::move(r));
    }
    return t;
}

}  // namespace gapscope
