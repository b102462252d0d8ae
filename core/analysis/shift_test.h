#pragma once
// Whether two runs' step times differ beyond their step-to-step noise, and
// by how much: the Wilcoxon–Mann–Whitney rank test and the Hodges–Lehmann
// shift with its distribution-free confidence interval, defined as SciPy's
// `mannwhitneyu` (two-sided, method "auto") and R's `wilcox.test(...,
// conf.int = TRUE)` define them (docs/analyses.md):
//   U       the candidate's statistic: the pairs (base b, candidate c) with
//           c > b, ties counted one half;
//   p       two-sided; exact (the distribution of U, by counting) when one
//           sample has at most 8 values and no value is tied, else the
//           normal approximation with the tie correction and a continuity
//           correction of one half;
//   shift   the median of all c − b (for an even count the mean of the two
//           middle ones, rounded down, as medians elsewhere);
//   low, high  the k-th smallest and k-th largest c − b, k from the
//           exact quantile of U where p is exact (as R), else from the
//           normal one: k = floor(nm/2 − z·sqrt(nm(n+m+1)/12)), at least 1.
// Steps are few (a profiler records tens), so the n·m differences are
// sorted; past kMaxShiftPairs the shift and its interval are left out, the
// test is not.

#include <cstdint>
#include <optional>
#include <vector>

#include "util/types.h"

namespace gapscope {

inline constexpr uint64_t kMaxShiftPairs = uint64_t{1} << 20;

struct ShiftTest {
    uint64_t baseCount = 0, newCount = 0;
    double u = 0;       // the candidate's U
    double pValue = 1;  // two-sided
    bool exact = false;
    double level = 0.95;       // asked for: 1 − the test's threshold, and the interval's
    bool significant = false;  // pValue < 1 − level
    // The smallest p these step counts can give (exact: 2 / C(n+m, n)): at
    // or above 1 − level no change can be significant, however large.
    double smallestP = 0;
    bool canBeSignificant() const { return smallestP < 1 - level; }
    // How much longer a candidate value is than a baseline one (negative:
    // shorter), and its interval at `level`; none past kMaxShiftPairs.
    std::optional<TimeNs> shift, shiftLow, shiftHigh;
    // The interval's own level: exact, the coverage of the ranks chosen
    // (at least `level`, but less where so few steps have no quantile that
    // far out); else `level`.
    double intervalLevel = 0.95;
    // What to call it: `level`, unless it could not be had.
    double statedIntervalLevel() const { return intervalLevel < level ? intervalLevel : level; }
};

// None when either sample has fewer than two values (no spread to measure
// the change against) or `level` is not in (0, 1). Without `withShift`, the
// test alone (O((n + m) log(n + m)), for many names at once): no shift.
std::optional<ShiftTest> shiftTest(const std::vector<TimeNs>& base,
                                   const std::vector<TimeNs>& candidate, double level = 0.95,
                                   bool withShift = true);

}  // namespace gapscope
