#pragma once
// The ranks of a job opened for the viewer: every file loaded (several at
// once, each with its own index cache entry), each rank's figures computed
// from its own trace (analysis/rank_figures.h: exactly the single-file
// analyses), the ranks compared, and all merged into one trace for one
// timeline (model/merge_traces.h). Each rank is merged as soon as the ranks
// before it have been, and its own trace freed, so that only the ranks in
// flight are held beside the merged trace (the peak is about the merged
// trace's size, not the files'). Files load in the order of the ranks
// their names (or the heads of their traces) state; where that is not the
// ranks' order, the ranks are loaded again and merged once all are at
// hand. The merged trace is the same either way.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analysis/rank_comparison.h"
#include "loader/job_cache.h"
#include "loader/rank_set.h"

namespace gapscope {

struct RankViewOptions {
    RankLoadOptions load;                // its afterLoad is not used
    std::optional<int64_t> alignOnStep;  // shifts the ranks' times in the merged trace too
    RankFigureOptions figures;
    // Ranks that may wait for the merge before the workers that loaded them
    // wait too; 0: twice the files loading at once, plus 2.
    size_t ranksAhead = 0;
    // With load.load.cache: the job is reopened from its own entry, and
    // after a load its entry is written (false: the caller writes it later
    // with storeJob; the viewer does, once the job is shown). Each file's
    // entry is its load's either way.
    bool storeJobInCache = true;
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
    bool mergedAsLoaded = false;         // false: loaded twice, merged at the end (or restored)
    // What the job's index cache entry did: "" without a cache, else as
    // LoadResult::cacheNote ("hit", "miss (no entry); written"...).
    std::string cacheNote;
    // Set when the job was loaded (not restored) and may be stored (storeJob).
    std::optional<JobCacheEntry> cacheEntry;
};

// `path` names the merged trace (a folder opened, or the files' common folder).
RankView loadRankView(const std::vector<RankSource>& sources, const std::string& path,
                      const RankViewOptions& options);

// Writes the job's entry; "" on success, else what went wrong.
std::string storeJob(const IndexCache& cache, const Trace& merged, const JobCacheEntry& entry);

// What the comparison of the ranks says in their merged trace: the step it
// is aligned on, and the clocks that disagree (its import warnings).
void noteComparison(Trace& merged, const RankComparison& comparison);

// The folder that holds all of `files` ("/" at worst).
std::string commonFolder(const std::vector<std::string>& files);

}  // namespace gapscope
