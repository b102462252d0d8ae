// The interval index, the per-row visible query and the run breaks against
// brute force on random data, including zero-length and identical intervals. (The interval
// algebra has its own suite: tst_interval_set.)

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>

#include "index/interval_index.h"
#include "index/run_break_index.h"
#include "model/slice_layout.h"
#include "model/trace.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

IntervalIndex indexOf(const HugeVector<Slice>& slices) {
    HugeVector<uint32_t> ids(slices.size());
    for (uint32_t i = 0; i < ids.size(); ++i)
        ids[i] = i;
    IntervalIndex index;
    index.build(slices, ids);
    return index;
}

// The index's answer for [t0, t1] against a scan of every slice.
bool matchesBruteForce(const IntervalIndex& index, const HugeVector<Slice>& slices, int64_t t0,
                       int64_t t1) {
    std::vector<uint32_t> got, want;
    index.overlapping(slices, t0, t1, got);
    for (uint32_t i = 0; i < slices.size(); ++i) {
        if (slices[i].start <= t1 && slices[i].end() >= t0) want.push_back(i);
    }
    std::sort(got.begin(), got.end());
    return got == want;
}

}  // namespace

class TestIntervalIndex : public QObject {
    Q_OBJECT
  private slots:
    void overlapMatchesBruteForce() {
        QRandomGenerator rng(12345);
        for (int round = 0; round < 200; ++round) {
            HugeVector<Slice> slices;
            const int n = int(rng.bounded(0, 300));
            const int span = int(rng.bounded(10, 2000));
            for (int i = 0; i < n; ++i) {
                Slice s;
                s.start = rng.bounded(span);
                s.dur = rng.bounded(4) == 0 ? 0 : rng.bounded(span / 4 + 1);
                slices.push_back(s);
            }
            const IntervalIndex index = indexOf(slices);
            for (int q = 0; q < 50; ++q) {
                const int64_t t0 = rng.bounded(-10, span + 10);
                const int64_t t1 = rng.bounded(2) ? t0 : t0 + rng.bounded(span / 3 + 1);
                QVERIFY(matchesBruteForce(index, slices, t0, t1));
            }
        }
    }

    void overlapAtExtremeTimes() {
        // Epoch-scale and near-int64 times: the quantised bounds must still
        // never prune a slice that overlaps.
        QRandomGenerator rng(4242);
        for (const int64_t base :
             {int64_t(0), int64_t(1712195495519689047LL), INT64_MAX / 2 - 10, INT64_MIN / 2}) {
            HugeVector<Slice> slices;
            for (int i = 0; i < 300; ++i) {
                Slice s;
                s.start = base + int64_t(rng.bounded(1 << 30)) * 1000;
                s.dur = int64_t(rng.bounded(1 << 20)) * 977;
                slices.push_back(s);
            }
            const IntervalIndex index = indexOf(slices);
            for (int q = 0; q < 200; ++q) {
                const int64_t t0 = base + int64_t(rng.bounded(1 << 30)) * 1000;
                const int64_t t1 = t0 + int64_t(rng.bounded(1 << 20)) * 100;
                QVERIFY(matchesBruteForce(index, slices, t0, t1));
            }
        }
    }

    void visibleInRowMatchesBruteForce() {
        QRandomGenerator rng(777);
        for (int round = 0; round < 100; ++round) {
            HugeVector<Slice> input;
            HugeVector<uint32_t> seq;
            const int n = int(rng.bounded(1, 200));
            for (int i = 0; i < n; ++i) {
                Slice s;
                s.start = rng.bounded(1000);
                s.dur = rng.bounded(3) == 0 ? 0 : rng.bounded(200);
                input.push_back(s);
                seq.push_back(uint32_t(i));
            }
            LayoutResult laid = layoutSlices(input, seq);
            Trace t;
            t.slices = laid.slices;
            QCOMPARE(t.slices.size(), input.size());  // nothing dropped
            for (const Row& row : laid.rows) {
                for (uint32_t i = row.begin + 1; i < row.end; ++i) {
                    QVERIFY(t.slices[i - 1].end() <= t.slices[i].start);  // rows never overlap
                }
                for (int q = 0; q < 20; ++q) {
                    const int64_t t0 = rng.bounded(-5, 1100);
                    const int64_t t1 = t0 + rng.bounded(300);
                    const auto [lo, hi] = t.visibleInRow(row, t0, t1);
                    for (uint32_t i = row.begin; i < row.end; ++i) {
                        const bool visible = t.slices[i].start <= t1 && t.slices[i].end() >= t0;
                        QCOMPARE(visible, i >= lo && i < hi);
                    }
                }
            }
        }
    }

    // The first break of a run against a scan, on rows below and above the
    // indexed size, packed and sparse, for random starts, limits and
    // thresholds (0 and huge included).
    void runBreaksMatchBruteForce() {
        QRandomGenerator rng(4242);
        for (int round = 0; round < 120; ++round) {
            HugeVector<Slice> slices;
            const int n = int(rng.bounded(1, round < 60 ? 100 : 5000));
            const int maxGap = int(rng.bounded(1, 50)), maxDur = int(rng.bounded(1, 50));
            int64_t t = rng.bounded(100);
            for (int i = 0; i < n; ++i) {
                Slice s;
                s.start = t;
                s.dur = rng.bounded(8) == 0 ? 0 : rng.bounded(maxDur);
                slices.push_back(s);
                // Mostly packed, now and then a wide gap.
                t = s.end() + (rng.bounded(50) == 0 ? rng.bounded(1000) : rng.bounded(maxGap));
            }
            // The row is a middle part of the array, as in a trace.
            const uint32_t begin = uint32_t(rng.bounded(0, std::max(1, n / 4)));
            const uint32_t end = uint32_t(rng.bounded(int(begin) + 1, n + 1));
            RunBreakIndex index;
            index.build(slices, begin, end);
            for (int q = 0; q < 40; ++q) {
                const uint32_t from = uint32_t(rng.bounded(int(begin), int(end)));
                const uint32_t limit = uint32_t(rng.bounded(int(from), int(end) + 1));
                const int64_t longNs = q == 0 ? 0 : (q == 1 ? INT64_MAX : rng.bounded(60));
                const int64_t gapNs = q == 2 ? INT64_MAX : rng.bounded(1, 1200);
                uint32_t want = limit;
                for (uint32_t k = from; k < limit; ++k) {
                    const int64_t gap =
                        k + 1 < end ? slices[k + 1].start - slices[k].end() : INT64_MAX;
                    if (slices[k].dur >= longNs || gap >= gapNs) {
                        want = k;
                        break;
                    }
                }
                QCOMPARE(index.firstBreak(slices, from, limit, longNs, gapNs), want);
            }
        }
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestIntervalIndex)
#include "tst_interval_index.moc"
