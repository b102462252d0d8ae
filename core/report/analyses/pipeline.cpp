// The input pipeline and its verdict (analysis/input_pipeline.h).

#include "analysis/analysis_index.h"
#include "analysis/gpu_time_account.h"
#include "analysis/input_pipeline.h"
#include "analysis/slice_queries.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

namespace {

// The input-wait slices, longest first.
ResultTable longestWaits(const Trace& t, const PipelineReport& pipeline) {
    ResultTable table;
    table.id = "longest_waits";
    table.title = "Longest waits for input";
    table.columns = {symbolColumn("name", "Slice"),
                     {"start_ns", "Start", Unit::Time},
                     {"end_ns", "End", Unit::Time},
                     {"duration_ns", "Duration", Unit::Duration},
                     {"track", "Track", Unit::Text}};
    for (const uint32_t s : pipeline.longestWaits) {
        ResultRow r;
        r.cells = {std::string(t.str(t.slices[s].name)), t.slices[s].start, t.slices[s].end(),
                   t.slices[s].dur, trackLabel(t, t.trackOfSlice(s))};
        r.ref.kind = ResultRef::Kind::Slice;
        r.ref.slice = s;
        table.rows.push_back(std::move(r));
    }
    return table;
}

ResultCell flag(const std::optional<PipelineChecks>& checks, bool PipelineChecks::*field) {
    return checks ? ResultCell(int64_t{(*checks).*field}) : ResultCell();
}

}  // namespace

Analysis pipelineAnalysis() {
    Analysis a;
    a.id = "pipeline";
    a.title = "Input pipeline";
    a.what = "input pipeline: time waiting for input and a verdict";
    a.help =
        "Is the job waiting for input? The share of the GPUs' time (step time, or\n"
        "the active span without steps) they sat idle waiting for input, with\n"
        "TensorBoard's verdict: >= 20% highly, >= 5% moderately, else not\n"
        "input-bound; the host's wait in DataLoader __next__ / IteratorGetNext over\n"
        "the steps' duration on the host as detail (the verdict reads it only\n"
        "without a GPU). tf.data stages (Iterator::...) with calls, inclusive and\n"
        "self time and checks (missing Prefetch, sequential Map, no Cache); the\n"
        "PyTorch DataLoader kind (single-process or worker processes) and whether a\n"
        "pin-memory thread runs. --range / --step: the steps that start inside it.\n"
        "CSV without --table writes the figures (the verdict and its numbers).";
    a.primaryTable = "figures";
    a.summary = {
        {"figures",
         "input_pipeline",
         "Input pipeline",
         {"verdict", "input_share", "input_wait_ns", "time_ns", "denominator", "host_wait_ns"},
         false}};
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
        const std::vector<Step> steps = scope.steps(t);
        std::unique_ptr<AnalysisIndex> own;
        StepOptions so = scope.stepOptions();
        if (!so.index) {
            own = std::make_unique<AnalysisIndex>(t);
            so.index = own.get();
        }
        so.onlyNumber = scope.step;
        const TimeAccount account = timeAccountOf(t, so);
        const PipelineReport p = inputPipeline(t, steps, &account);
        AnalysisResult r;
        ResultColumn verdict{"verdict", "Verdict", Unit::Text};
        r.addFigure(verdict, p.inputShare ? ResultCell(std::string(inputVerdictName(p.verdict)))
                                          : ResultCell());
        ResultColumn share{"input_share", "Waiting for input", Unit::Share};
        share.of = "time_ns";
        r.addFigure(share, cellOf(p.inputShare));
        r.addFigure({"input_wait_ns", "Input wait", Unit::Duration}, p.inputWait);
        r.addFigure({"time_ns", "Time", Unit::Duration}, p.time);
        r.addFigure({"denominator", "Time over", Unit::Text},
                    std::string(p.fromGpu ? denominatorName(p.denominator) : "host time"));
        r.addFigure({"from", "Measured on", Unit::Text}, std::string(p.fromGpu ? "gpu" : "host"));
        r.addFigure({"host_wait_ns", "Host wait for the next batch", Unit::Duration}, p.hostWait);
        r.addFigure({"host_time_ns", "Steps' duration on the host", Unit::Duration}, p.hostTime);
        r.addFigure({"steps", "Steps", Unit::Count}, static_cast<int64_t>(steps.size()));
        r.addFigure({"get_next_ns", "tf.data IteratorGetNext", Unit::Duration},
                    p.checks || p.getNext > 0 ? ResultCell(p.getNext) : ResultCell());
        r.addFigure({"checks.missing_prefetch", "tf.data: no Prefetch", Unit::Flag},
                    flag(p.checks, &PipelineChecks::missingPrefetch));
        r.addFigure({"checks.sequential_map", "tf.data: a sequential Map", Unit::Flag},
                    flag(p.checks, &PipelineChecks::sequentialMap));
        r.addFigure({"checks.no_cache", "tf.data: no Cache", Unit::Flag},
                    flag(p.checks, &PipelineChecks::noCache));
        const auto& l = p.dataLoader;
        r.addFigure({"dataloader.calls", "DataLoader calls", Unit::Count},
                    l ? ResultCell(static_cast<int64_t>(l->calls)) : ResultCell());
        r.addFigure({"dataloader.total_ns", "DataLoader time", Unit::Duration},
                    l ? ResultCell(l->total) : ResultCell());
        r.addFigure({"dataloader.kind", "DataLoader kind", Unit::Text},
                    l && l->kind ? ResultCell(*l->kind) : ResultCell());
        r.addFigure({"dataloader.pin_memory_thread", "DataLoader pin-memory thread", Unit::Flag},
                    l ? ResultCell(int64_t{l->pinMemoryThread}) : ResultCell());
        r.tables.push_back(pipelineStageTable(t, p));
        r.tables.push_back(inputWaitTable(p, steps));
        r.tables.push_back(longestWaits(t, p));
        return r;
    };
    return a;
}

}  // namespace gapscope
