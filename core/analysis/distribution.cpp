#include "analysis/distribution.h"

#include <algorithm>
#include <cmath>

namespace gapscope {

namespace {

TimeNs sortedMedian(const std::vector<TimeNs>& d) {
    const size_t n = d.size();
    if (n == 0) return 0;
    return n % 2 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;  // both >= 0: floor
}

}  // namespace

Distribution distributionOf(std::vector<TimeNs>& d) {
    Distribution out;
    if (d.empty()) return out;
    std::sort(d.begin(), d.end());
    const size_t n = d.size();
    out.count = n;
    for (const TimeNs x : d)
        out.total += x;
    out.min = d.front();
    out.max = d.back();
    out.median = sortedMedian(d);
    out.p95 = d[static_cast<size_t>(std::ceil(0.95 * static_cast<double>(n))) - 1];
    out.mean = static_cast<double>(out.total) / static_cast<double>(n);
    if (n > 1) {
        double sq = 0;
        for (const TimeNs x : d)
            sq += (static_cast<double>(x) - out.mean) * (static_cast<double>(x) - out.mean);
        out.stddev = std::sqrt(sq / static_cast<double>(n - 1));
    }
    return out;
}

TimeNs medianOf(std::vector<TimeNs> values) {
    std::sort(values.begin(), values.end());
    return sortedMedian(values);
}

}  // namespace gapscope
