#pragma once
// One rank's figures per step, for comparing the ranks of a distributed job
// (the Ranks panel, `gapscope-cli ranks`, the fleet summary). Everything is
// computed from the rank's own trace by the single-trace analyses:
//
//  - the rank's GPU is its device with the most busy time inside its steps
//    (the whole trace's without steps; the lower index on a tie): a
//    PyTorch rank drives one; a TensorFlow worker with several is compared
//    on its busiest;
//  - per step (analysis/steps.h, the same sources): the step's CPU span;
//    busy = compute + exposed communication + exposed memcpy of the step's
//    breakdown on the rank's GPU, so busy + idle = the step's duration;
//    idle by cause as the breakdown splits it; communication = the length
//    of the union of its communication kernels inside the step; exposed
//    communication as the breakdown has it;
//  - the collectives it entered: every communication kernel that starts
//    inside the step's window on its GPU (the step's GPU window, else its
//    CPU span), in start order; a kernel's start is when the rank entered
//    it. The step's collective is the first until the ranks are compared
//    (rank_comparison.h picks the one they waited in longest);
//  - before each collective, its longest work in W = [the later of the
//    window's start and the previous collectives' last end, its entry) (the
//    whole window without a collective): when its GPU was busy for at least
//    half of W, the GPU activity of that GPU with the most time inside W;
//    else (the GPU waited for the host) the CPU slice one level below the
//    step slice, on the step's thread, with the most time inside W. Ties
//    go to the earlier one.

#include <array>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "analysis/gap_causes.h"
#include "analysis/steps.h"
#include "util/saturating.h"

namespace gapscope {

struct RankWork {
    std::string name;
    bool gpu = false;  // a GPU activity, else a CPU slice
    Interval span;     // its part inside the window
    TimeNs ns() const { return span.length(); }
};

struct RankCollective {
    std::string name;
    TimeNs enter = 0, end = 0;
    std::optional<RankWork> workBefore;
};

struct RankStep {
    std::string name;
    int64_t number = 0;
    Interval span;
    TimeNs busy = 0, idle = 0, comm = 0, exposedComm = 0, idleShort = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    std::vector<RankCollective> collectives;  // in start order
    // The step's collective (the first, or the one compareRanks picked),
    // and the rank's longest work before it.
    std::optional<TimeNs> collectiveEnter;
    std::optional<TimeNs> collectiveEnd;
    std::string collectiveName;
    std::optional<RankWork> longestWorkBefore;
    // Makes collectives[i] the step's collective.
    void pickCollective(size_t i);
    // Filled by compareRanks (analysis/rank_comparison.h): how long this
    // rank waited in the step's collective for the last rank to enter.
    std::optional<TimeNs> wait;
    // Its time in that collective once the last rank had entered: the
    // transfer itself (its end - the last entry, at least 0).
    std::optional<TimeNs> transfer;

    // (Saturating, as gpuTime(): a cache entry's figures are checked for
    // range, not for sums.)
    TimeNs duration() const { return saturatingSub(span.end, span.start); }
    // The step's GPU window on the rank's GPU (busy + idle; the span
    // without a GPU): what busy shares are of, as in the time account.
    TimeNs gpuTime() const { return saturatingAdd(busy, idle); }
};

struct RankFigures {
    int device = -1;  // the rank's GPU (-1: no GPU activity)
    StepSource source = StepSource::None;
    std::vector<RankStep> steps;  // in step order
};

class AnalysisIndex;

struct RankFigureOptions {
    const std::regex* stepRegex = nullptr;
    const AnalysisIndex* index = nullptr;
    TimeNs minGapNs = kDefaultGapThresholdNs;
    const CancelToken* cancel = nullptr;
};

RankFigures rankFigures(const Trace& trace, const RankFigureOptions& options = {});

}  // namespace gapscope
