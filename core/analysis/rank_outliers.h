#pragma once
// Which ranks of a job stand apart from the others: for each of three
// figures of a rank (its mean step time, its GPU busy share, and its wait
// in the steps' collectives per step), the modified z-score of Iglewicz
// and Hoaglin, 0.6745 · (x − median) / MAD, over the ranks that have the
// figure (MAD: the median absolute deviation). Where MAD is 0 (more than
// half the ranks equal), the mean absolute deviation stands for it,
// scaled to agree for a normal distribution: (x − median) / (1.2533 ·
// meanAD); where that is 0 too, no rank stands apart. A rank is an
// outlier when |z| > 3.5 for one of them, either way: a slow rank has the
// longer steps where nothing waits for it, and the shortest wait where the
// others wait for it in each step's collective (their steps take as long
// as its). Fewer than 4 ranks with the figure: none is judged.

#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "analysis/rank_totals.h"

namespace gapscope {

inline constexpr double kOutlierScore = 3.5;

enum class RankFigure : uint8_t { StepTime, BusyShare, Wait };
const char* rankFigureName(RankFigure f);  // "step_time", "busy_share", "wait"

struct RankOutlier {
    // The score furthest from 0 over the three figures (signed: above or
    // below the ranks' median), and the figure it is of; none without any
    // figure judged.
    std::optional<double> score;
    RankFigure figure = RankFigure::StepTime;
    bool outlier() const { return score && std::fabs(*score) > kOutlierScore; }
};

// One per rank, in the order given (a rank without steps: no score).
std::vector<RankOutlier> rankOutliers(const std::vector<RankTotals>& ranks,
                                      const std::vector<size_t>& stepCounts);

// The modified z-scores of `values` (none where a value is none), as above.
std::vector<std::optional<double>> modifiedZScores(
    const std::vector<std::optional<double>>& values);

}  // namespace gapscope
