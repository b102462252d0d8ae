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

ResultTable inputWaitTable(const PipelineReport& pipeline, const std::vector<Step>& steps) {
    ResultTable table;
    table.id = "input_wait_per_step";
    table.title = "Wait per step";
    table.columns = {{"number", "Step", Unit::Count},
                     {"host_wait_ns", "Host waiting for input", Unit::Duration},
                     {"host_share", "Share of the step", Unit::Share}};
    for (size_t i = 0; i < pipeline.perStep.size(); ++i) {
        const StepInputWait& w = pipeline.perStep[i];
        ResultRow r;
        r.cells = {w.number, w.wait, w.share};
        r.ref.kind = ResultRef::Kind::Step;
        r.ref.step = w.number;
        if (i < steps.size()) {
            r.ref.slice = steps[i].slice;
            r.ref.range = steps[i].span;
        }
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace gapscope
