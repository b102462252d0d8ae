#include "analysis/distribution.h"

#include <algorithm>
#include <cmath>

namespace gapscope {

namespace {

// The k-th smallest of d[0, end) (k < end) by selection, O(n) instead of a
// sort: a kernel table sorts millions of durations otherwise.
TimeNs select(std::vector<TimeNs>& d, size_t k, size_t end) {
    const auto first = d.begin();
    std::nth_element(first, first + static_cast<ptrdiff_t>(k), first + static_cast<ptrdiff_t>(end));
    return d[k];
}

// After select(d, m, ...): d[0, m) holds the m smallest values.
TimeNs medianAfterSelect(const std::vector<TimeNs>& d, size_t m) {
    const size_t n = d.size();
    if (n % 2) return d[m];
    const TimeNs below = *std::max_element(d.begin(), d.begin() + static_cast<ptrdiff_t>(m));
    return below + (d[m] - below) / 2;  // floor of the mean, without overflow (d[m] >= below)
}

}  // namespace

Distribution distributionOf(std::vector<TimeNs>& d) {
    Distribution out;
    if (d.empty()) return out;
    const size_t n = d.size();
    out.count = n;
    const auto [lo, hi] = std::minmax_element(d.begin(), d.end());
    out.min = *lo;
    out.max = *hi;
    for (const TimeNs x : d)
        out.total += x;
    // Before the selection reorders them, so that the sum runs in the
    // caller's (trace) order whatever the selection does.
    out.mean = static_cast<double>(out.total) / static_cast<double>(n);
    if (n > 1) {
        double sq = 0;
        for (const TimeNs x : d)
            sq += (static_cast<double>(x) - out.mean) * (static_cast<double>(x) - out.mean);
        out.stddev = std::sqrt(sq / static_cast<double>(n - 1));
    }
    // p95 first: its rank is never below the median's, so selecting the
    // median inside [0, p95 rank] keeps both in place.
    const size_t r95 = static_cast<size_t>(std::ceil(0.95 * static_cast<double>(n))) - 1;
    const size_t m = n / 2;
    out.p95 = select(d, r95, n);
    if (m < r95) select(d, m, r95);
    out.median = medianAfterSelect(d, m);
    return out;
}

TimeNs medianOf(std::vector<TimeNs> values) {
    if (values.empty()) return 0;
    const size_t m = values.size() / 2;
    select(values, m, values.size());
    return medianAfterSelect(values, m);
}

TimeNs nearestRankOf(std::vector<TimeNs> values, double q) {
    if (values.empty()) return 0;
    const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
    const size_t i = std::clamp<size_t>(rank, 1, values.size()) - 1;
    std::nth_element(values.begin(), values.begin() + std::ptrdiff_t(i), values.end());
    return values[i];
}

}  // namespace gapscope
