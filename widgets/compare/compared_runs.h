#pragma once
// Two loaded runs compared: each run's figures (core's runMetrics, as
// `gapscope-cli diff` computes them), the registered comparison's result
// (the tables the panel shows and the report writes), and the candidate's
// gap shading, computed together on a worker.

#include <memory>
#include <string>

#include "panels/analysis_session.h"
#include "picture/gap_colours.h"
#include "report/analysis_registry.h"
#include "report/ranks_report.h"
#include "util/cancel_token.h"

namespace gapscope::ui {

struct ComparedRuns {
    std::shared_ptr<const Trace> base, now;
    // What `diff` compared (each run's figures, and its ranks in a job of
    // ranks) and what it returned.
    TwoRuns input;
    AnalysisResult result;
    GapColorList newGapColours;  // the candidate timeline's shading by cause
    // Each run's analysis index (the candidate's also for its overview strip).
    std::shared_ptr<const IndexedTrace> baseIndexed, newIndexed;
    bool jobs() const { return input.baseJob && input.newJob; }
    std::string verdict() const { return textOr(result.figure("verdict")); }
    const ResultTable& table(std::string_view id) const;
};

// Two jobs of ranks: each one's ranks and stragglers (null for a single trace).
struct ComparedJobs {
    std::shared_ptr<const RanksDocument> base, now;
};

// Null when cancelled. `dark`: the shading's palette. `before`: an earlier
// comparison, whose indexes are reused where its runs are the same.
std::shared_ptr<ComparedRuns> compareRuns(std::shared_ptr<const Trace> base,
                                          std::shared_ptr<const Trace> now, TimeNs gapThreshold,
                                          bool dark, const CancelToken& cancel,
                                          const ComparedRuns* before = nullptr,
                                          const ComparedJobs& jobs = {});

// Where the two timelines line up: the start of BASE's step `baseStep` and
// of NEW's step `newStep` (indices into each run's steps), or the runs'
// starts without steps. `offset` takes a time of BASE to NEW's clock.
struct StepAlignment {
    std::optional<size_t> baseStep, newStep;
    TimeNs baseAt = 0, newAt = 0;
    TimeNs offset() const { return newAt - baseAt; }
};
// On the `index`-th step of each (each clamped to its run's last step), or
// with none given on each run's median step (the default).
StepAlignment alignRuns(const ComparedRuns& runs, std::optional<size_t> index = std::nullopt);

}  // namespace gapscope::ui
