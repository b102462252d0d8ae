// shiftTest (analysis/shift_test.h) against what it is defined as:
//  - SciPy's documented example (mannwhitneyu's docstring, males against
//    females: U = 17, exact two-sided p = 0.1111...);
//  - on random small samples without ties, a brute-force reading: every way
//    of choosing which of the n + m values are the candidate's, counted by
//    U (the test's exact p), and the interval's ends from that count (R's
//    qwilcox rule) over the sorted pairwise differences;
//  - the normal approximation's p worked by hand for two samples too large
//    for the exact count, and with ties;
//  - the exact p and interval for one small run and one larger against the
//    classic recursion's counts, in whole numbers;
//  - what few steps cannot tell, and a gate with @LEVEL% looking one way;
//  - no test where either sample has fewer than two values.

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <vector>

#include "analysis/shift_test.h"
#include "report/fail_if.h"
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

// The interval's ends at the level whose alpha / 2 is 1 / `tail`: k =
// qwilcox(alpha / 2), the least u with P(U <= u) >= alpha / 2, compared in
// whole numbers (count · tail >= total), at least 1; the k-th smallest and
// largest difference.
std::pair<TimeNs, TimeNs> interval(const BruteForce& bf, const std::vector<TimeNs>& base,
                                   const std::vector<TimeNs>& cand, int tail) {
    size_t k = 0;
    double cumulative = bf.byU[0];
    while (cumulative * tail < bf.total)
        cumulative += bf.byU[++k];
    k = std::max<size_t>(k, 1);
    std::vector<TimeNs> diffs;
    for (TimeNs c : cand)
        for (TimeNs b : base)
            diffs.push_back(c - b);
    std::sort(diffs.begin(), diffs.end());
    return {diffs[k - 1], diffs[diffs.size() - k]};
}

// How many arrangements of `cand` candidate and `base` baseline values give
// each U, by the classic recursion on the largest value (a candidate's
// beats every baseline value): f(i, j, u) = f(i−1, j, u−j) + f(i, j−1, u).
std::vector<uint64_t> countsByRecursion(int cand, int base) {
    // f[i][j] as a vector over u, built for j = 0..base.
    std::vector<std::vector<std::vector<uint64_t>>> f(cand + 1,
                                                      std::vector<std::vector<uint64_t>>(base + 1));
    for (int i = 0; i <= cand; ++i)
        for (int j = 0; j <= base; ++j) {
            std::vector<uint64_t>& v = f[i][j];
            v.assign(size_t(i * j) + 1, 0);
            if (i == 0 || j == 0) {
                v[0] = 1;
                continue;
            }
            for (size_t u = 0; u < v.size(); ++u) {
                if (u >= size_t(j) && u - j < f[i - 1][j].size()) v[u] += f[i - 1][j][u - j];
                if (u < f[i][j - 1].size()) v[u] += f[i][j - 1][u];
            }
        }
    return f[cand][base];
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
            const auto nb = rng.bounded(2, 9), nc = rng.bounded(2, 9);
            std::vector<TimeNs> pool;
            while (pool.size() < size_t(nb + nc)) {
                const TimeNs v =
                    rng.bounded(1000, 2000) + (round % 3) * 400 * TimeNs(pool.size() >= size_t(nb));
                if (std::find(pool.begin(), pool.end(), v) == pool.end()) pool.push_back(v);
            }
            const std::vector<TimeNs> base(pool.begin(), pool.begin() + nb),
                cand(pool.begin() + nb, pool.end());
            const BruteForce want = bruteForce(base, cand);
            // Levels whose alpha / 2 is 1 / tail: 0.95, 0.9, 0.8.
            for (const int tail : {40, 20, 10}) {
                const double level = 1 - 2.0 / tail;
                const auto t = shiftTest(base, cand, level);
                QVERIFY(t && t->exact);
                QCOMPARE(t->u, want.u);
                QVERIFY2(std::abs(t->pValue - want.p) < 1e-12,
                         qPrintable(QString("%1 vs %2").arg(t->pValue).arg(want.p)));
                QCOMPARE(t->significant, want.p < 1 - level);
                const auto [low, high] = interval(want, base, cand, tail);
                QCOMPARE(*t->shiftLow, low);
                QCOMPARE(*t->shiftHigh, high);
                QVERIFY(*t->shiftLow <= *t->shift && *t->shift <= *t->shiftHigh);
            }
        }
    }

    // One small run and one larger: still exact (as SciPy's "auto"), checked
    // against the recursion's whole-number counts; the interval's rank at a
    // level where P(U <= u) is exactly alpha / 2 (3 against 13 steps at
    // 97.5 %: P(U <= 3) = 7 / 560 = 1 / 80), where R's qwilcox stops.
    void exactAgainstTheRecursion() {
        QRandomGenerator rng(9);
        struct Case {
            int cand, base, tail;  // alpha / 2 = 1 / tail
        };
        for (const Case c : {Case{3, 13, 80}, Case{2, 25, 40}, Case{5, 40, 40}, Case{8, 30, 20},
                             Case{8, 12, 40}}) {
            std::vector<TimeNs> base, cand;
            std::vector<TimeNs> used;
            auto fresh = [&](TimeNs from) {
                for (;;) {
                    const TimeNs v = from + rng.bounded(0, 5000);
                    if (std::find(used.begin(), used.end(), v) == used.end()) {
                        used.push_back(v);
                        return v;
                    }
                }
            };
            for (int i = 0; i < c.base; ++i)
                base.push_back(fresh(10'000));
            for (int i = 0; i < c.cand; ++i)
                cand.push_back(fresh(12'000));
            const std::vector<uint64_t> counts = countsByRecursion(c.cand, c.base);
            uint64_t total = 0;
            for (uint64_t n : counts)
                total += n;
            double u = 0;
            for (TimeNs x : cand)
                for (TimeNs y : base)
                    u += x > y;
            const double pairs = double(c.cand) * double(c.base);
            const auto far = static_cast<size_t>(std::max(u, pairs - u));
            uint64_t asFar = 0;
            for (size_t k = far; k < counts.size(); ++k)
                asFar += counts[k];
            const double p = std::min(1.0, 2.0 * double(asFar) / double(total));
            const auto t = shiftTest(base, cand, 1 - 2.0 / c.tail);
            QVERIFY(t && t->exact);
            QCOMPARE(t->u, u);
            QVERIFY2(std::abs(t->pValue - p) <= 1e-12 * std::max(p, 1e-300) + 1e-300,
                     qPrintable(QString("%1 vs %2").arg(t->pValue).arg(p)));
            size_t k = 0;
            uint64_t cumulative = counts[0];
            while (cumulative * uint64_t(c.tail) < total)
                cumulative += counts[++k];
            k = std::max<size_t>(k, 1);
            std::vector<TimeNs> diffs;
            for (TimeNs x : cand)
                for (TimeNs y : base)
                    diffs.push_back(x - y);
            std::sort(diffs.begin(), diffs.end());
            QCOMPARE(*t->shiftLow, diffs[k - 1]);
            QCOMPARE(*t->shiftHigh, diffs[diffs.size() - k]);
        }
    }

    // Three steps against three: the smallest p is 2 / C(6, 3) = 0.1, so
    // nothing is significant at 95 %, and the interval can only be had at
    // 1 − 2 · P(U <= 0) = 90 %. A complete separation of 8 against 2000
    // steps: a p that is tiny, never negative.
    void fewStepsSayWhatTheyCannot() {
        auto t = shiftTest({10, 11, 12}, {20, 21, 22});
        QVERIFY(t && t->exact);
        QCOMPARE(t->smallestP, 0.1);
        QVERIFY(!t->canBeSignificant() && !t->significant);
        QVERIFY(std::abs(t->intervalLevel - 0.9) < 1e-12);
        std::vector<TimeNs> many;
        for (TimeNs i = 0; i < 2000; ++i)
            many.push_back(i);
        t = shiftTest(many, {5000, 5001, 5002, 5003, 5004, 5005, 5006, 5007});
        QVERIFY(t && t->exact && t->significant);
        QVERIFY2(t->pValue > 0 && t->pValue < 1e-20, qPrintable(QString::number(t->pValue)));
    }

    // A gate with @95% looks one way: NEW's steps 10 % faster but for one
    // compile-like outlier raise the mean 31 %, and the rank test calls the
    // change significant, for a speed-up: `step_time>+5%@95%` does not hold.
    void aGateLooksOneWay() {
        RunMetrics base, now;
        base.stepDurations.assign(10, 100);
        now.stepDurations.assign(9, 90);
        now.stepDurations.push_back(500);
        base.headline["step_time"] = 100;
        now.headline["step_time"] = (9 * 90 + 500) / 10.0;
        std::string error;
        const auto up = parseFailIf("step_time>+5%@95%", error);
        QVERIFY2(up, error.c_str());
        FailIfResult r = evaluateFailIf(*up, base, now);
        QVERIFY(r.error.empty() && r.noise && r.noise->significant);
        QVERIFY(!r.noiseAgrees && !r.crossed);
        const auto down = parseFailIf("step_time<+40%@95%", error);
        QVERIFY2(down, error.c_str());
        r = evaluateFailIf(*down, base, now);
        QVERIFY(r.noiseAgrees && r.crossed);
        // An @ in a kernel regex is the regex's; a level follows the threshold.
        auto k = parseFailIf("kernel:a@b.total>+5%", error);
        QVERIFY2(k && !k->beyondNoise && k->metric == "a@b", error.c_str());
        k = parseFailIf("kernel:a@b.total>+5%@90%", error);
        QVERIFY(!k && error.find("only step_time") != std::string::npos);
        const auto level = parseFailIf("step_time_median>+5%@97.5%", error);
        QVERIFY(level && std::abs(*level->beyondNoise - 0.975) < 1e-12);
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
