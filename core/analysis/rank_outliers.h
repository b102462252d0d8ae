#pragma once
// Which ranks of a job stand apart from the others. Per rank, three
// figures: its mean step time, its GPU busy share (busy over its steps'
// GPU windows) and its mean wait in the steps' collectives (over the steps
// where it waited in one; none where it never did). For each figure over
// the ranks that have it (at least 4), the modified z-score of Iglewicz
// and Hoaglin, 0.6745 · (x − median) / MAD (the median absolute
// deviation); where MAD is 0 (more than half the ranks equal), the mean
// absolute deviation stands for it, scaled to agree for a normal
// distribution: (x − median) / (1.2533 · meanAD); where that is 0 too, 0.
// A rank stands apart in a figure when |z| > 3.5 and it is further from
// the median than a floor that no one would call a difference: 5 % of the
// median, and at least 10 µs for a time or 1 point for a share (Kineto
// writes whole microseconds, and a synchronous job's steps are nearly
// equal). Either way: a slow rank has the longer steps where nothing waits
// for it, and the shortest wait where the others wait for it in each
// step's collective (their steps last as long as its).

#include <optional>
#include <vector>

#include "analysis/rank_figures.h"

namespace gapscope {

inline constexpr double kOutlierScore = 3.5;
inline constexpr double kOutlierShareOfMedian = 0.05;
inline constexpr double kOutlierMinimumNs = 10'000;
inline constexpr double kOutlierMinimumShare = 0.01;

enum class RankFigure : uint8_t { StepTime, BusyShare, Wait };
const char* rankFigureName(RankFigure f);  // "step_time", "busy_share", "wait"

struct RankOutlier {
    // The score furthest from 0 over the three figures (signed: above or
    // below the ranks' median), and the figure it is of; none without any
    // figure judged.
    std::optional<double> score;
    RankFigure figure = RankFigure::StepTime;
    bool outlier = false;  // it stands apart in `figure` (score and floor)
};

// One per rank, in the order given; a null rank (a file that failed) and
// one without steps have no score.
std::vector<RankOutlier> rankOutliers(const std::vector<const RankFigures*>& ranks);

// The modified z-scores of `values` (none where a value is none), as above.
std::vector<std::optional<double>> modifiedZScores(
    const std::vector<std::optional<double>>& values);

}  // namespace gapscope
