#pragma once
// A job's ranks in the index cache as one entry (IndexCache::storeMerged):
// the merged trace, and beside it the record of what the view holds that the
// trace does not, namely each rank's figures as its own trace gave them
// (before the ranks were compared: the comparison is made again from them,
// in a few milliseconds), how each rank was known and the collisions'
// warnings. Reopening a job then reads one entry instead of every rank's
// and merging them again.
//
// The entry is named by what was opened and how (the sources in their order,
// the alignment, the gap threshold) and holds while the stamp of all the
// files, taken before they were read, does. A view with a step regex or a
// rank that failed is not stored.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/rank_comparison.h"
#include "io/file_stamp.h"
#include "loader/rank_set.h"

namespace gapscope {

struct RankViewOptions;

// Bump when what the record holds changes, or what the ranks' figures are
// (analysis/rank_figures.h): older entries are then another key's, and
// the jobs are loaded and stored again. (The model's own format is
// IndexCache::kFormatVersion.)
inline constexpr int kJobRecordVersion = 1;

struct JobCacheEntry {
    std::string key;     // the sources in order, and the options that shape the view
    FileStamp stamp;     // of every file, taken before any was read
    std::string record;  // encodeJobRecord's, once the ranks have loaded
};

// The entry a view of `sources` has; none when it cannot be cached (no
// cache, a step regex, a file that cannot be stamped).
std::optional<JobCacheEntry> jobCacheEntry(const std::vector<RankSource>& sources,
                                           const RankViewOptions& options);

// What the view keeps beside the merged trace.
struct JobRecord {
    std::vector<RankEntry> ranks;  // by rank, their figures not yet compared
    std::map<std::string, RankOrigin> origins;
    std::vector<std::string> warnings;
};

std::string encodeJobRecord(const JobRecord& record);
// Throws std::runtime_error saying what is wrong (a crafted entry with a
// good checksum lands here: every count, enum and interval is checked).
JobRecord decodeJobRecord(std::string_view bytes);

}  // namespace gapscope
