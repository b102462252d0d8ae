#include "analysis/shift_test.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gapscope {

namespace {

// P(Z > z) of a standard normal.
double normalSf(double z) {
    return 0.5 * std::erfc(z / std::sqrt(2.0));
}

// The z with P(Z > z) = tail, by bisection (the quantile is asked once).
double normalIsf(double tail) {
    double lo = -40, hi = 40;
    for (int i = 0; i < 200; ++i) {
        const double mid = (lo + hi) / 2;
        (normalSf(mid) > tail ? lo : hi) = mid;
    }
    return (lo + hi) / 2;
}

// How many arrangements of n + m distinct values give U = u, for every u
// in 0..n·m: the coefficients of the Gaussian binomial [n + m choose n],
// built as [m + i choose i] for i = 1..n. A coefficient below m + 1 is a
// sum of counts; above, a difference of large ones, which loses the small
// ones of the upper tail: only the lower tail is read (the distribution is
// symmetric).
std::vector<long double> uCounts(uint64_t n, uint64_t m) {
    if (n > m) std::swap(n, m);
    std::vector<long double> c(n * m + 1, 0);
    c[0] = 1;  // [m choose 0]
    std::vector<long double> next(c.size());
    for (uint64_t i = 1; i <= n; ++i) {
        // [m+i choose i] = [m+i-1 choose i-1] · (1 − q^(m+i)) / (1 − q^i)
        const uint64_t degree = i * m;
        for (uint64_t k = 0; k <= degree; ++k) {
            long double v = c[k] - (k >= m + i ? c[k - (m + i)] : 0);
            if (k >= i) v += next[k - i];
            next[k] = v;
        }
        std::swap(c, next);
        std::fill(next.begin(), next.end(), 0);
    }
    return c;
}

}  // namespace

std::optional<ShiftTest> shiftTest(const std::vector<TimeNs>& base,
                                   const std::vector<TimeNs>& candidate, double level,
                                   bool withShift) {
    const uint64_t nb = base.size(), nc = candidate.size();
    if (nb < 2 || nc < 2 || !(level > 0 && level < 1)) return std::nullopt;
    ShiftTest t;
    t.baseCount = nb;
    t.newCount = nc;
    t.level = level;

    // Ranks of both samples together, ties given their mean rank.
    struct Value {
        TimeNs v;
        bool candidate;
    };
    std::vector<Value> all;
    all.reserve(nb + nc);
    for (TimeNs v : base)
        all.push_back({v, false});
    for (TimeNs v : candidate)
        all.push_back({v, true});
    std::sort(all.begin(), all.end(), [](const Value& a, const Value& b) { return a.v < b.v; });
    const auto n = static_cast<double>(all.size());
    double candidateRanks = 0, tieTerm = 0;
    for (size_t i = 0; i < all.size();) {
        size_t j = i;
        while (j < all.size() && all[j].v == all[i].v)
            ++j;
        const double rank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
        for (size_t k = i; k < j; ++k)
            if (all[k].candidate) candidateRanks += rank;
        const auto tied = static_cast<double>(j - i);
        tieTerm += tied * tied * tied - tied;
        i = j;
    }
    const double pairs = static_cast<double>(nb) * static_cast<double>(nc);
    t.u = candidateRanks - static_cast<double>(nc) * static_cast<double>(nc + 1) / 2;
    const double uMax = std::max(t.u, pairs - t.u);

    // Exact where SciPy's "auto" is exact (and the table stays small).
    t.exact = tieTerm == 0 && std::min(nb, nc) <= 8 && nb * nc <= kMaxShiftPairs;
    std::vector<long double> cdf;  // P(U <= u), for the interval
    if (t.exact) {
        const std::vector<long double> counts = uCounts(nb, nc);
        long double total = 0;
        for (long double c : counts)
            total += c;
        cdf.resize(counts.size());
        long double below = 0;
        for (size_t u = 0; u < counts.size(); ++u) {
            below += counts[u];
            cdf[u] = below / total;
        }
        // P(U >= uMax) = P(U <= nm − uMax), by symmetry (uMax is an
        // integer without ties).
        const auto mirror = static_cast<size_t>(pairs - uMax);
        t.pValue = std::clamp(static_cast<double>(2 * cdf[mirror]), 0.0, 1.0);
        t.smallestP = std::min(1.0, static_cast<double>(2 * cdf[0]));
    } else {
        const double spread = std::sqrt(pairs / 12 * ((n + 1) - tieTerm / (n * (n - 1))));
        auto pOf = [&](double u) {  // spread 0: all tied, z = −inf, p = 1
            return std::clamp(2 * normalSf((u - pairs / 2 - 0.5) / spread), 0.0, 1.0);
        };
        t.pValue = pOf(uMax);
        t.smallestP = pOf(pairs);
    }
    t.significant = t.pValue < 1 - level;

    if (!withShift || nb * nc > kMaxShiftPairs) return t;
    std::vector<TimeNs> diffs;
    diffs.reserve(nb * nc);
    for (TimeNs c : candidate)
        for (TimeNs b : base)
            diffs.push_back(c - b);
    std::sort(diffs.begin(), diffs.end());
    const size_t count = diffs.size(), mid = count / 2;
    // (diffs[mid] >= diffs[mid - 1]: the halved gap is already rounded down.)
    t.shift = count % 2 ? diffs[mid] : diffs[mid - 1] + (diffs[mid] - diffs[mid - 1]) / 2;
    const double alpha = 1 - level;
    uint64_t k = 0;  // 1-based rank of the interval's low end
    if (t.exact) {
        // R: qu = qwilcox(alpha / 2, n, m), the least u with P(U <= u) >=
        // alpha / 2, the target lowered by 10 ulp as R lowers it (1 − 0.95
        // rounds up in a double: a P(U <= u) of exactly alpha / 2 counts).
        const double target = alpha / 2 - 10 * std::numeric_limits<double>::epsilon();
        while (k < cdf.size() && cdf[k] < target)
            ++k;
    } else {
        const double z = normalIsf(alpha / 2);
        k = static_cast<uint64_t>(
            std::max(0.0, std::floor(pairs / 2 - z * std::sqrt(pairs * (n + 1) / 12))));
    }
    k = std::clamp<uint64_t>(k, 1, count);
    // What the interval's level is: with few steps the asked one cannot be
    // had (R: "requested conf.level not achievable"), and k = 1 gives less.
    t.intervalLevel = t.exact ? static_cast<double>(1 - 2 * cdf[k - 1]) : level;
    t.shiftLow = diffs[k - 1];
    t.shiftHigh = diffs[count - k];
    return t;
}

}  // namespace gapscope
