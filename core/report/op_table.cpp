#include "report/analysis_tables.h"

namespace gapscope {

ResultTable opTable(const Trace& t, const std::vector<OpStats>& ops,
                    const EfficiencyResult* efficiency) {
    ResultTable table;
    table.id = "ops";
    table.title = "Ops";
    table.columns = {{"name", "Op", Unit::Text},
                     {"count", "Count", Unit::Count},
                     {"inclusive_ns", "Inclusive", Unit::Duration},
                     {"self_ns", "Self", Unit::Duration},
                     {"gpu_ns", "GPU", Unit::Duration},
                     {"share_of_step_time", "Of step duration", Unit::Share}};
    for (const ResultColumn& c : efficiencyColumns())
        table.columns.push_back(c);
    for (const OpStats& o : ops) {
        ResultRow r;
        r.cells = {
            std::string(t.str(o.name)), static_cast<int64_t>(o.count), o.inclusive, o.self, o.gpu,
            cellOf(o.shareOfStepTime)};
        addEfficiencyCells(r, efficiency ? &efficiency->opNames : nullptr, o.name);
        r.ref.kind = ResultRef::Kind::Name;
        r.ref.name = o.name;
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace gapscope
