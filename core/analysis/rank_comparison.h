#pragma once
// The ranks of one job side by side: their steps matched by step number,
// optionally aligned on one step, and each step's straggler.
//
//  - Alignment: times are as the traces wrote them (Kineto ranks share the
//    epoch clock). Aligned on step N, every rank's times are shifted so that
//    its step N starts when the first rank's (in rank order) does; a rank
//    without step N, or one whose times the shift would carry out of the
//    int64 range, is left as written and named in `unaligned`.
//  - The step's collective: the ranks' collectives in the step
//    (rank_figures.h) matched by name and occurrence (the k-th of that name
//    in each rank's step); of the matches with at least two ranks, the one
//    with the largest total wait (the latest entry minus each entry; the
//    earlier latest entry on a tie). The first collective of a DDP step, the
//    buffer broadcast, has every rank in step; the gradients' all-reduce is
//    where they wait for the slowest.
//  - Clocks that disagree: a collective cannot end on one rank before every
//    rank has entered it, so a matched collective that did (after any
//    alignment) says the ranks' times are not on one clock; each such step
//    is named with its widest contradiction. Only names every rank of the
//    match ran equally often in the step are matched for this (a lost
//    record would pair the k-th of one rank with the k+1-th of another).
//  - A step's straggler is the rank that entered the step's collective
//    last (the lower rank on a tie). Every other rank in it waited
//    entry(straggler) - entry(rank); the others' wait is the sum of those.
//    The rest of each rank's time in it, from the last entry to its end, is
//    the transfer itself. The straggler's "instead" is its longest work
//    before it entered (since its previous collectives ended).

#include <optional>
#include <string>
#include <vector>

#include "analysis/rank_figures.h"

namespace gapscope {

// "FILE" for a whole file, "FILE · PART" for a part of one (a rank's
// process in a file of several ranks).
std::string rankSourceName(const std::string& file, const std::string& part);

struct RankEntry {
    int64_t rank = 0;
    std::string file;
    std::string host;
    RankFigures figures;
    TimeNs offset = 0;  // added to every time of this rank when aligned
    // Every time of its trace, when known: an alignment must keep them all
    // inside int64, not only the figures' (a hostile trace can put one
    // event anywhere).
    std::optional<Interval> span;
    std::string part;  // the process of `file` it is, when the file holds several ranks
    std::string source() const { return rankSourceName(file, part); }
};

struct StepStraggler {
    int64_t step = 0;        // step number
    std::string name;        // the straggler's step name
    std::string collective;  // the step's collective (its kernel's name)
    int64_t rank = 0;        // the straggler
    size_t entry = 0;        // its index in the entries
    TimeNs enteredAt = 0;
    TimeNs othersWait = 0;  // sum over the other ranks
    TimeNs longestWait = 0;
    int64_t longestWaitRank = 0;  // the rank that waited longest
    int waitingRanks = 0;
    std::optional<RankWork> instead;
};

// In one step, a collective that ended on one rank before another entered it.
struct ClockDisagreement {
    int64_t step = 0;
    std::string collective;
    int64_t endedRank = 0;
    TimeNs endedAt = 0;
    int64_t enteredRank = 0;
    TimeNs enteredAt = 0;
    TimeNs by() const;  // enteredAt - endedAt (saturated): the clocks differ by at least this
    std::string sentence()
        const;  // "in step 3, ncclKernel… ended on rank 0 … before rank 1 entered it"
};

struct RankComparison {
    std::optional<int64_t> alignedOn;                   // the step number, when aligned
    std::vector<int64_t> unaligned;                     // ranks without that step
    std::vector<StepStraggler> stragglers;              // by step number
    std::vector<ClockDisagreement> clockDisagreements;  // by step number
};

// The shift that aligns one rank on step `number`: its step's start moved
// onto `reference`, which the first rank (in rank order) with that step
// sets. None where the rank has no such step or where the shift would carry
// one of its times (figures, `span`) out of int64: such a rank stays where
// it is. compareRanks aligns with it; a merge that aligns ranks as they
// come, in rank order, gets the same shifts.
std::optional<TimeNs> stepAlignmentShift(const RankFigures& figures, std::optional<Interval> span,
                                         int64_t number, std::optional<TimeNs>& reference);

// Sorts `ranks` by rank, applies the alignment to their times and fills
// each step's `wait`.
RankComparison compareRanks(std::vector<RankEntry>& ranks,
                            std::optional<int64_t> alignOnStep = std::nullopt);

}  // namespace gapscope
