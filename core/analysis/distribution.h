#pragma once
// Summary statistics of a set of durations, defined once for every table:
//   median: the middle value; for an even count the mean of the two middle
//           ones, rounded down to an integer ns;
//   p95:    nearest rank, the ceil(0.95 · count)-th smallest value;
//   stddev: sample standard deviation (n − 1), none for a single value
//           (as pandas, which Holistic Trace Analysis uses).

#include <optional>
#include <vector>

#include "util/types.h"

namespace gapscope {

struct Distribution {
    uint64_t count = 0;
    TimeNs total = 0, min = 0, max = 0, median = 0, p95 = 0;
    double mean = 0;
    std::optional<double> stddev;
};

// Reorders `values` (non-negative) in place; all zero for an empty set.
Distribution distributionOf(std::vector<TimeNs>& values);

// The median alone, by the same rule (0 for an empty set).
TimeNs medianOf(std::vector<TimeNs> values);
// The nearest-rank quantile q in (0, 1]: the ceil(q · count)-th smallest
// value (at least the first); 0 for an empty set.
TimeNs nearestRankOf(std::vector<TimeNs> values, double q);

}  // namespace gapscope
