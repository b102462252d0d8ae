#include <string>

#include "report/analysis_tables.h"

namespace gapscope {

ResultTable pipelineStageTable(const Trace& t, const PipelineReport& pipeline) {
    ResultTable table;
    table.id = "input_stages";
    table.title = "Input pipeline stages";
    table.columns = {{"name", "Stage", Unit::Text},
                     {"calls", "Calls", Unit::Count},
                     {"inclusive_ns", "Inclusive", Unit::Duration},
                     {"self_ns", "Self", Unit::Duration},
                     {"share", "Share", Unit::Share}};
    for (const PipelineStage& s : pipeline.stages) {
        ResultRow r;
        r.cells = {std::string(t.str(s.name)), static_cast<int64_t>(s.calls), s.inclusive, s.self,
                   cellOf(s.share)};
        r.ref.kind = ResultRef::Kind::Name;
        r.ref.name = s.name;
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace gapscope
