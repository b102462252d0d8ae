// The interval algebra (merge, union, intersection, difference, clip,
// lengths, gaps) against a brute-force bitmap of covered nanoseconds on
// random lists, and the GPU idle gaps for soundness *and* completeness.

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>

#include "analysis/idle_gaps.h"
#include "index/interval_set.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

constexpr int kSpan = 400;
using Bitmap = std::vector<bool>;

// A random list (unsorted, overlapping, touching, empty intervals included)
// and the nanoseconds it covers.
std::vector<Interval> randomIntervals(QRandomGenerator& rng, Bitmap& covered) {
    std::vector<Interval> v;
    covered.assign(kSpan, false);
    const int n = int(rng.bounded(0, 30));  // drawn once per list
    for (int i = 0; i < n; ++i) {
        const int64_t s = rng.bounded(kSpan - 50);
        const int64_t e = s + rng.bounded(0, 50);  // 0: an empty interval
        v.push_back({s, e});
        for (int64_t x = s; x < e; ++x)
            covered[size_t(x)] = true;
    }
    return v;
}

// The merged list a bitmap describes: maximal runs of covered nanoseconds.
std::vector<Interval> runsOf(const Bitmap& b) {
    std::vector<Interval> out;
    for (int64_t x = 0; x < kSpan; ++x) {
        if (!b[size_t(x)]) continue;
        if (!out.empty() && out.back().end == x) {
            out.back().end = x + 1;
        } else {
            out.push_back({x, x + 1});
        }
    }
    return out;
}

Bitmap combine(const Bitmap& a, const Bitmap& b, char op) {
    Bitmap out(kSpan);
    for (size_t i = 0; i < size_t(kSpan); ++i)
        out[i] = op == '|' ? (a[i] || b[i]) : op == '&' ? (a[i] && b[i]) : (a[i] && !b[i]);
    return out;
}

}  // namespace

class TestIntervalSet : public QObject {
    Q_OBJECT
  private slots:
    void mergeGivesTheMaximalRuns() {
        QRandomGenerator rng(99);
        for (int round = 0; round < 500; ++round) {
            Bitmap covered;
            std::vector<Interval> v = randomIntervals(rng, covered);
            mergeIntervals(v);
            QCOMPARE(v, runsOf(covered));  // sorted, disjoint, never touching, exact
            QCOMPARE(totalLength(v), int64_t(std::count(covered.begin(), covered.end(), true)));
        }
    }

    void unionIntersectionDifference() {
        QRandomGenerator rng(7);
        for (int round = 0; round < 500; ++round) {
            Bitmap ca, cb;
            std::vector<Interval> a = randomIntervals(rng, ca);
            std::vector<Interval> b = randomIntervals(rng, cb);
            mergeIntervals(a);
            mergeIntervals(b);
            QCOMPARE(unionOf(a, b), runsOf(combine(ca, cb, '|')));
            QCOMPARE(intersectionOf(a, b), runsOf(combine(ca, cb, '&')));
            QCOMPARE(differenceOf(a, b), runsOf(combine(ca, cb, '-')));
            QCOMPARE(differenceOf(b, a), runsOf(combine(cb, ca, '-')));
        }
    }

    void clipAndLengthWithinAWindow() {
        QRandomGenerator rng(31);
        for (int round = 0; round < 500; ++round) {
            Bitmap c;
            std::vector<Interval> v = randomIntervals(rng, c);
            mergeIntervals(v);
            const int64_t w0 = rng.bounded(-20, kSpan);
            const int64_t w1 = w0 + rng.bounded(0, kSpan / 2);
            Bitmap inside(kSpan, false);
            for (int64_t x = std::max<int64_t>(0, w0); x < std::min<int64_t>(kSpan, w1); ++x)
                inside[size_t(x)] = c[size_t(x)];
            QCOMPARE(clippedTo(v, {w0, w1}), runsOf(inside));
            QCOMPARE(lengthWithin(v, {w0, w1}),
                     int64_t(std::count(inside.begin(), inside.end(), true)));
        }
    }

    void idleGapsAreSoundAndComplete() {
        // Every maximal uncovered run strictly between the first and the
        // last busy nanosecond that lasts >= the threshold is a gap, and
        // nothing else is.
        QRandomGenerator rng(2024);
        for (int round = 0; round < 500; ++round) {
            Bitmap c;
            GpuDevice d;
            d.busy = randomIntervals(rng, c);
            mergeIntervals(d.busy);
            const TimeNs threshold = rng.bounded(0, 12);
            std::vector<Interval> want;
            const std::vector<Interval> runs = runsOf(c);
            for (size_t i = 1; i < runs.size(); ++i) {
                if (runs[i].start - runs[i - 1].end >= threshold)
                    want.push_back({runs[i - 1].end, runs[i].start});
            }
            QCOMPARE(idleGaps(d, threshold), want);
        }
    }

    // Zero-length activity (points) against the bitmap: a point is outside
    // unless it lies on a covered nanosecond or at the end of a run; a gap
    // is a maximal uncovered stretch that starts at a run's end or a point
    // and ends at a run's start or a point.
    void pointsSplitGapsAndIntervals() {
        QRandomGenerator rng(4242);
        for (int round = 0; round < 500; ++round) {
            Bitmap c;
            std::vector<Interval> merged = randomIntervals(rng, c);
            mergeIntervals(merged);
            std::vector<TimeNs> points;
            const int n = int(rng.bounded(0, 8));
            for (int i = 0; i < n; ++i)
                points.push_back(rng.bounded(kSpan));
            points.push_back(points.empty() ? 0 : points.front());  // a duplicate

            std::vector<bool> isPoint(kSpan, false);
            for (const TimeNs p : points)
                isPoint[size_t(p)] = true;
            std::vector<TimeNs> outside;
            for (int64_t x = 0; x < kSpan; ++x) {
                const bool endOfRun = x > 0 && c[size_t(x - 1)];
                if (isPoint[size_t(x)] && !c[size_t(x)] && !endOfRun) outside.push_back(x);
            }
            QCOMPARE(pointsOutside(points, merged), outside);

            std::vector<bool> isOutside(kSpan, false);
            for (const TimeNs p : outside)
                isOutside[size_t(p)] = true;
            const TimeNs threshold = rng.bounded(0, 12);
            std::vector<Interval> want;
            for (int64_t a = 0; a < kSpan; ++a) {
                const bool opens =
                    isOutside[size_t(a)] || (a > 0 && c[size_t(a - 1)] && !c[size_t(a)]);
                if (!opens) continue;
                int64_t b = a + 1;
                while (b < kSpan && !c[size_t(b)] && !isOutside[size_t(b)])
                    ++b;
                if (b < kSpan && b - a >= threshold) want.push_back({a, b});
            }
            QCOMPARE(gapsBetween(merged, outside, threshold), want);

            // Runs of covered nanoseconds, a new one starting at each point.
            std::vector<TimeNs> sorted = points;
            std::sort(sorted.begin(), sorted.end());
            std::vector<Interval> pieces;
            for (int64_t x = 0; x < kSpan; ++x) {
                if (!c[size_t(x)]) continue;
                if (!pieces.empty() && pieces.back().end == x && !isPoint[size_t(x)])
                    pieces.back().end = x + 1;
                else
                    pieces.push_back({x, x + 1});
            }
            QCOMPARE(splitAt(merged, sorted), pieces);  // duplicates included

            const int64_t w0 = rng.bounded(-20, kSpan);
            const int64_t w1 = w0 + rng.bounded(0, kSpan / 2);
            std::vector<TimeNs> within;
            for (const TimeNs p : sorted)
                if (w0 <= p && p < w1) within.push_back(p);
            QCOMPARE(pointsWithin(sorted, {w0, w1}), within);
        }
    }

    void epochScaleTimesKeepTheirLength() {
        // Kineto writes epoch ns (~1.7e18): lengths must stay exact integers.
        const TimeNs base = 1712195495519689047LL;
        std::vector<Interval> v = {
            {base + 10, base + 20}, {base, base + 5}, {base + 19, base + 31}};
        mergeIntervals(v);
        QCOMPARE(v, (std::vector<Interval>{{base, base + 5}, {base + 10, base + 31}}));
        QCOMPARE(totalLength(v), TimeNs(26));
        QCOMPARE(lengthWithin(v, {base + 3, base + 12}), TimeNs(4));
        QCOMPARE(gapsBetween(v, 5), (std::vector<Interval>{{base + 5, base + 10}}));
        QCOMPARE(gapsBetween(v, 6), std::vector<Interval>{});
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestIntervalSet)
#include "tst_interval_set.moc"
