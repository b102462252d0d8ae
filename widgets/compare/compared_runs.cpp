#include "compare/compared_runs.h"

#include <algorithm>

#include "analysis/analysis_index.h"

namespace gapscope::ui {

namespace {

std::optional<RunMetrics> metricsOf(const Trace& trace, const AnalysisIndex& index,
                                    TimeNs gapThreshold, const CancelToken& cancel) {
    StepOptions options;
    options.index = &index;
    options.minGapNs = gapThreshold;
    options.cancel = &cancel;
    RunMetrics m = runMetrics(trace, options);
    if (cancel.isCancelled()) return std::nullopt;
    return m;
}

RankJob jobOf(const RanksDocument& document) {
    RankJob job;
    job.ranks = document.ranks;
    job.comparison = document.comparison;
    return job;
}

// The index of `trace`: `known`'s when it is of that trace, else built.
std::shared_ptr<const IndexedTrace> indexOf(std::shared_ptr<const Trace> trace,
                                            std::shared_ptr<const IndexedTrace> known) {
    if (known && known->trace == trace) return known;
    auto indexed = std::make_shared<IndexedTrace>();
    indexed->index = std::make_unique<const AnalysisIndex>(*trace);
    indexed->trace = std::move(trace);
    return indexed;
}

}  // namespace

const ResultTable& ComparedRuns::table(std::string_view id) const {
    static const ResultTable none;
    const ResultTable* t = result.table(id);
    return t ? *t : none;
}

std::shared_ptr<ComparedRuns> compareRuns(std::shared_ptr<const Trace> base,
                                          std::shared_ptr<const Trace> now, TimeNs gapThreshold,
                                          bool dark, const CancelToken& cancel,
                                          const ComparedRuns* before, const ComparedJobs& jobs) {
    auto out = std::make_shared<ComparedRuns>();
    // The indexes of an earlier comparison of the same runs (another gap
    // threshold) are reused: they do not depend on it.
    out->baseIndexed = indexOf(base, before ? before->baseIndexed : nullptr);
    if (cancel.isCancelled()) return nullptr;
    auto b = metricsOf(*base, *out->baseIndexed->index, gapThreshold, cancel);
    if (!b) return nullptr;
    out->newIndexed = indexOf(now, before ? before->newIndexed : nullptr);
    const AnalysisIndex& newIndex = *out->newIndexed->index;
    if (cancel.isCancelled()) return nullptr;
    auto n = metricsOf(*now, newIndex, gapThreshold, cancel);
    if (!n) return nullptr;
    GapOptions gaps;
    gaps.minGapNs = gapThreshold;
    gaps.index = &newIndex;
    gaps.cancel = &cancel;
    out->newGapColours = gapCauseColours(*now, gaps, dark);
    if (cancel.isCancelled()) return nullptr;
    TwoRuns& input = out->input;
    input.basePath = base->path;
    input.newPath = now->path;
    input.base = std::move(*b);
    input.now = std::move(*n);
    if (jobs.base && jobs.now) {
        input.baseJob = jobOf(*jobs.base);
        input.newJob = jobOf(*jobs.now);
    }
    out->result = computeAnalysis(*analysisRegistry().find("diff"), input);
    out->base = std::move(base);
    out->now = std::move(now);
    return out;
}

StepAlignment alignRuns(const ComparedRuns& runs, std::optional<size_t> index) {
    StepAlignment a;
    a.baseAt = runs.base->spanStart;
    a.newAt = runs.now->spanStart;
    const std::vector<Step>& bs = runs.input.base.steps;
    const std::vector<Step>& ns = runs.input.now.steps;
    if (bs.empty() || ns.empty()) return a;
    if (index) {
        a.baseStep = std::min(*index, bs.size() - 1);
        a.newStep = std::min(*index, ns.size() - 1);
    } else {
        a.baseStep = medianStepIndex(runs.input.base);
        a.newStep = medianStepIndex(runs.input.now);
    }
    a.baseAt = bs[*a.baseStep].span.start;
    a.newAt = ns[*a.newStep].span.start;
    return a;
}

}  // namespace gapscope::ui
