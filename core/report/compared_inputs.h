#pragma once
// What the comparisons read, as their callers loaded it: a job's ranks
// (each rank's figures, computed while its trace was loaded and let go)
// and two runs (each run's figures, and its ranks where it is a job).

#include <optional>
#include <string>
#include <vector>

#include "analysis/rank_comparison.h"
#include "report/ranks_report.h"
#include "report/run_metrics.h"

namespace gapscope {

// A job of ranks: every rank (in any order: the analysis sorts them), a
// file that failed with its error, and the comparison of those loaded
// (stragglers, clocks) where the caller made one (a job in `diff`).
struct RankJob {
    std::string path;  // what was opened: a folder, or the first file
    std::vector<RankRow> ranks;
    RankComparison comparison;
};

// Two runs: BASE and NEW as opened, their figures, and their ranks where
// each is a job.
struct TwoRuns {
    std::string basePath, newPath;
    RunMetrics base, now;
    std::optional<RankJob> baseJob, newJob;
};

}  // namespace gapscope
