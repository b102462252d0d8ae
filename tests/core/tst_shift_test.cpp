// shiftTest (analysis/shift_test.h) against what it is defined as:
//  - SciPy's documented example (mannwhitneyu's docstring, males against
//    females: U = 17, exact two-sided p = 0.1111...);
//  - on random small samples without ties, a brute-force reading: every way
//    of choosing which of the n + m values are the candidate's, counted by
//    U (the test's exact p), and the interval's ends from that count (R's
//    qwilcox rule) over the sorted pairwise differences;
//  - the normal approximation's p worked by hand for two samples too large
//    for the exact count, and with ties;
//  - no test where either sample has fewer than two values.

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/shift_test.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

struct BruteForce {
    double u = 0, p = 0;
    std::vector<double> byU;  // how many choices give each U
    double total = 0;
};

// Every choice of which pooled values are the candidate's (values distinct).
BruteForce bruteForce(const std::vector<TimeNs>& base, const std::vector<TimeNs>& cand) {
    std::vector<TimeNs> pooled = base;
    pooled.insert(pooled.end(), cand.begin(), cand.end());
    const size_t n = pooled.size(), m = cand.size();
    // greater[i]: the pooled values below value i, as a mask.
    std::vector<uint32_t> below(n, 0);
    for (size_t i = 0; i < n; ++i)
        for (size_t j = 0; j < n; ++j)
            if (pooled[i] > pooled[j]) below[i] |= 1u << j;
    auto uOf = [&](uint32_t mask) {
        double u = 0;
        for (size_t i = 0; i < n; ++i)
            if (mask >> i & 1) u += __builtin_popcount(below[i] & ~mask);
        return u;
    };
    uint32_t observed = 0;
    for (size_t i = base.size(); i < n; ++i)
        observed |= 1u << i;
    BruteForce out;
    out.u = uOf(observed);
    const double pairs = double(base.size() * m);
    const double uMax = std::max(out.u, pairs - out.u);
    out.byU.assign(static_cast<size_t>(pairs) + 1, 0);
    double atLeast = 0;
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
        if (static_cast<size_t>(__builtin_popcount(mask)) != m) continue;
        const double u = uOf(mask);
        out.byU[static_cast<size_t>(u)] += 1;
        out.total += 1;
        if (u >= uMax) atLeast += 1;
    }
    out.p = std::min(1.0, 2 * atLeast / out.total);
    return out;
}

// The interval's ends: k = qwilcox(alpha / 2) (the least u with P(U <= u)
// >= alpha / 2, at least 1); the k-th smallest and largest difference.
std::pair<TimeNs, TimeNs> interval(const BruteForce& bf, const std::vector<TimeNs>& base,
                                   const std::vector<TimeNs>& cand, double level) {
    size_t k = 0;
    double cumulative = bf.byU[0];
    while (cumulative / bf.total < (1 - level) / 2)
        cumulative += bf.byU[++k];
    k = std::max<size_t>(k, 1);
    std::vector<TimeNs> diffs;
    for (TimeNs c : cand)
        for (TimeNs b : base)
            diffs.push_back(c - b);
    std::sort(diffs.begin(), diffs.end());
    return {diffs[k - 1], diffs[diffs.size() - k]};
}

}  // namespace

class TestShiftTest : public QObject {
    Q_OBJECT
  private slots:
    void scipysDocumentedExample() {
        const std::vector<TimeNs> males = {19, 22, 16, 29, 24}, females = {20, 11, 17, 12};
        const auto t = shiftTest(females, males);
        QVERIFY(t);
        QCOMPARE(t->u, 17.0);
        QVERIFY(t->exact);
        QVERIFY(std::abs(t->pValue - 1.0 / 9) < 1e-12);  // 0.1111...
        QVERIFY(!t->significant);
        QCOMPARE(t->baseCount, uint64_t(4));
        QCOMPARE(t->newCount, uint64_t(5));
        // The 20 differences male − female, sorted: -4 -1 -1 2 3 4 5 5 7 7
        // 8 9 10 10 11 12 12 13 17 18; their median is (7 + 8) / 2 = 7.5,
        // rounded down.
        QCOMPARE(*t->shift, TimeNs(7));
    }

    void exactAgainstBruteForce() {
        QRandomGenerator rng(5);
        for (int round = 0; round < 60; ++round) {
            const auto nb = rng.bounded(2, 8), nc = rng.bounded(2, 8);
            std::vector<TimeNs> pool;
            while (pool.size() < size_t(nb + nc)) {
                const TimeNs v =
                    rng.bounded(1000, 2000) + (round % 3) * 400 * TimeNs(pool.size() >= size_t(nb));
                if (std::find(pool.begin(), pool.end(), v) == pool.end()) pool.push_back(v);
            }
            const std::vector<TimeNs> base(pool.begin(), pool.begin() + nb),
                cand(pool.begin() + nb, pool.end());
            const BruteForce want = bruteForce(base, cand);
            for (const double level : {0.95, 0.9, 0.8}) {
                const auto t = shiftTest(base, cand, level);
                QVERIFY(t && t->exact);
                QCOMPARE(t->u, want.u);
                QVERIFY2(std::abs(t->pValue - want.p) < 1e-12,
                         qPrintable(QString("%1 vs %2").arg(t->pValue).arg(want.p)));
                QCOMPARE(t->significant, want.p < 1 - level);
                const auto [low, high] = interval(want, base, cand, level);
                QCOMPARE(*t->shiftLow, low);
                QCOMPARE(*t->shiftHigh, high);
                QVERIFY(*t->shiftLow <= *t->shift && *t->shift <= *t->shiftHigh);
            }
        }
    }

    void normalApproximationByHand() {
        // 1..10 against 11..20: every candidate value is larger, U = 100 of
        // 100 pairs. Both samples have more than 8 values: the normal
        // approximation. mu = 50, sigma = sqrt(10 · 10 / 12 · 21) =
        // 13.2288; z = (100 − 50 − 0.5) / 13.2288 = 3.74183; two-sided p =
        // 2 · P(Z > 3.74183) = 1.82672e-4.
        std::vector<TimeNs> base, cand;
        for (TimeNs i = 1; i <= 10; ++i) {
            base.push_back(i);
            cand.push_back(i + 10);
        }
        auto t = shiftTest(base, cand);
        QVERIFY(t && !t->exact && t->significant);
        QCOMPARE(t->u, 100.0);
        QVERIFY2(std::abs(t->pValue - 1.82672e-4) < 1e-8, qPrintable(QString::number(t->pValue)));
        QCOMPARE(*t->shift, TimeNs(10));  // the differences are 1..19, 10 the middle
        // Interval: k = floor(50 − 1.95996 · sqrt(100 · 21 / 12)) = floor(24.07) = 24:
        // the 24th smallest and 24th largest of the 100 differences (the
        // difference d occurs 10 − |d − 10| times): 7 and 13.
        QCOMPARE(*t->shiftLow, TimeNs(7));
        QCOMPARE(*t->shiftHigh, TimeNs(13));

        // With ties: base {5, 5, 5, 6}, candidate {6, 7, 7, 7}. Pooled ranks:
        // the three 5s 2, the two 6s 4.5, the three 7s 7; the candidate's
        // rank sum 4.5 + 21 = 25.5, U = 25.5 − 10 = 15.5 of 16. Tie term
        // (27 − 3) + (8 − 2) + (27 − 3) = 54; sigma = sqrt(16 / 12 · (9 −
        // 54 / 56)) = 3.27327; z = (15.5 − 8 − 0.5) / 3.27327 = 2.13853;
        // p = 2 · P(Z > 2.13853) = 0.032473.
        t = shiftTest({5, 5, 5, 6}, {6, 7, 7, 7});
        QVERIFY(t && !t->exact);
        QCOMPARE(t->u, 15.5);
        QVERIFY2(std::abs(t->pValue - 0.032473) < 1e-6, qPrintable(QString::number(t->pValue)));
        QVERIFY(t->significant);
    }

    void needsTwoValuesEach() {
        QVERIFY(!shiftTest({1}, {2, 3}));
        QVERIFY(!shiftTest({1, 2}, {}));
        QVERIFY(!shiftTest({1, 2}, {3, 4}, 1.0));
        // All equal: no evidence of a change.
        const auto t = shiftTest({7, 7, 7}, {7, 7, 7});
        QVERIFY(t);
        QCOMPARE(t->pValue, 1.0);
        QCOMPARE(*t->shift, TimeNs(0));
    }
};

GAPSCOPE_TEST_APPLESS_MAIN(TestShiftTest)
#include "tst_shift_test.moc"
