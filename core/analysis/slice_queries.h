#pragma once
// Questions a person asks about one slice or one time range, as pure
// functions of the Trace (used by the details panel and the CLI).

#include <string>
#include <vector>

#include "model/trace.h"
#include "util/cancel_token.h"

namespace gapscope {

// Duration minus the time covered by direct children (same lane, one level deeper).
TimeNs selfTime(const Trace& trace, uint32_t slice);

// The time covered by direct children of each slice [lo, hi) of `row` on
// `track` (so its self time is dur minus that, at least 0): one merge pass
// over the child rows, for tables that need the self time of many slices.
std::vector<TimeNs> childTimes(const Trace& trace, const Track& track, const Row& row, uint32_t lo,
                               uint32_t hi);

struct NameTotal {
    StringId name = 0;
    uint64_t count = 0;
    TimeNs totalNs = 0;  // time inside the range (clipped)
};

// Slices of all tracks that intersect [t0, t1], grouped by name, sorted by
// total time (descending). `onlyTrack` restricts to one track (kNone: all).
// O(rows · log n + k). Returns {} when `cancel` fires.
std::vector<NameTotal> summarizeRange(const Trace& trace, TimeNs t0, TimeNs t1,
                                      uint32_t onlyTrack = kNone,
                                      const CancelToken* cancel = nullptr);

// A set of slices (a selection, a search's matches): their count, summed
// duration, first start and last end, and per name the count and summed
// duration, by total descending. Empty (count 0) when `cancel` fires.
struct SliceSetSummary {
    uint64_t count = 0;
    TimeNs total = 0;
    TimeNs firstStart = 0, lastEnd = 0;
    std::vector<NameTotal> byName;
};
SliceSetSummary summarizeSlices(const Trace& trace, const std::vector<uint32_t>& slices,
                                const CancelToken* cancel = nullptr);

// Walking the timeline from a slice with the arrow keys, as Perfetto does:
// the previous / next slice of its row (same track, lane and depth), the
// slice that encloses it (one level up) and its first child (one level
// down). kNone where there is none.
enum class SliceStep : uint8_t { Previous, Next, Parent, FirstChild };
uint32_t neighbourSlice(const Trace& trace, uint32_t slice, SliceStep step);

// Flows that end at / start from a slice.
std::vector<const Flow*> flowsInto(const Trace& trace, uint32_t slice);
std::vector<const Flow*> flowsOutOf(const Trace& trace, uint32_t slice);

// "GPU 0 · stream 7", "python3 418 · pt_main_thread 1102".
std::string trackLabel(const Trace& trace, uint32_t track);

}  // namespace gapscope
