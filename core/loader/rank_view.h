#pragma once
// The ranks of a job opened for the viewer: every file loaded (several at
// once, each with its own index cache entry), each rank's figures computed
// from its own trace (analysis/rank_figures.h: exactly the single-file
// analyses), the ranks compared, then all merged into one trace for one
// timeline (model/merge_traces.h), each rank's trace freed as it is copied.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/rank_comparison.h"
#include "loader/rank_set.h"

namespace gapscope {

struct RankViewOptions {
    RankLoadOptions load;                // its afterLoad is not used
    std::optional<int64_t> alignOnStep;  // shifts the ranks' times in the merged trace too
    RankFigureOptions figures;
};

struct RankFailure {
    int64_t rank = 0;
    LoadFailure failure;
    std::string part;  // RankLoad::part
};

struct RankView {
    std::shared_ptr<const Trace> trace;  // null when no file loaded (or cancelled)
    std::vector<RankEntry> ranks;        // by rank, those that loaded
    RankComparison comparison;
    std::vector<RankFailure> failed;
    std::map<std::string, RankOrigin> origins;  // RankLoad::name() -> how its rank was known
    std::vector<std::string> warnings;          // rank collisions
    bool cancelled = false;
    std::optional<LoadFailure> failure;  // why there is no trace
};

// `path` names the merged trace (a folder opened, or the files' common folder).
RankView loadRankView(const std::vector<RankSource>& sources, const std::string& path,
                      const RankViewOptions& options);

// The folder that holds all of `files` ("/" at worst).
std::string commonFolder(const std::vector<std::string>& files);

}  // namespace gapscope
