// GPU utilisation (the overview strip and the summaries) against brute
// force: per-bin busy fractions from a bitmap of busy nanoseconds, and the
// busy share of the active span.

#include <QRandomGenerator>
#include <QTest>
#include <cmath>

#include "analysis/gpu_utilization.h"
#include "support/suite_main.h"

using namespace gapscope;

class TestGpuUtilization : public QObject {
    Q_OBJECT
  private slots:
    void binsMatchABitmap() {
        QRandomGenerator rng(17);
        for (int round = 0; round < 300; ++round) {
            GpuDevice d;
            std::vector<bool> busy(2000, false);
            const int n = int(rng.bounded(0, 25));
            for (int i = 0; i < n; ++i) {
                const int64_t s = rng.bounded(1900), e = s + rng.bounded(1, 100);
                d.busy.push_back({s, e});
                for (int64_t x = s; x < e; ++x)
                    busy[size_t(x)] = true;
            }
            mergeIntervals(d.busy);
            d.busyNs = totalLength(d.busy);
            // Windows whose length is a multiple of the bin count, so each
            // bin is a whole number of nanoseconds the bitmap can count.
            const int bins = int(rng.bounded(1, 40));
            const int64_t per = rng.bounded(1, 60);
            const int64_t w0 = rng.bounded(-50, 1500);
            const std::vector<double> got = utilizationBins(d, {w0, w0 + per * bins}, bins);
            QCOMPARE(int(got.size()), bins);
            for (int b = 0; b < bins; ++b) {
                int64_t covered = 0;
                for (int64_t x = w0 + per * b; x < w0 + per * (b + 1); ++x)
                    covered += x >= 0 && x < 2000 && busy[size_t(x)];
                const double want = double(covered) / double(per);
                QVERIFY2(std::abs(got[size_t(b)] - want) < 1e-9,
                         qPrintable(QStringLiteral("round %1 bin %2: %3 vs %4")
                                        .arg(round)
                                        .arg(b)
                                        .arg(got[size_t(b)])
                                        .arg(want)));
            }
            // Busy share of the active span.
            const auto share = busyPercentOfActiveSpan(d);
            if (d.busy.empty()) {
                QVERIFY(!share && !activeSpan(d));
                continue;
            }
            int64_t first = 0, last = 0;
            while (!busy[size_t(first)])
                ++first;
            for (int64_t x = 0; x < 2000; ++x)
                if (busy[size_t(x)]) last = x + 1;
            QCOMPARE(activeSpan(d)->start, first);
            QCOMPARE(activeSpan(d)->end, last);
            QVERIFY(std::abs(*share - 100.0 * double(std::count(busy.begin(), busy.end(), true)) /
                                          double(last - first)) < 1e-9);
        }
    }

    void degenerateInputs() {
        GpuDevice d;
        d.busy = {{10, 20}};
        d.busyNs = 10;
        QCOMPARE(utilizationBins(d, {0, 100}, 0).size(), size_t(0));
        QCOMPARE(utilizationBins(d, {5, 5}, 4), std::vector<double>(4, 0.0));      // empty window
        QCOMPARE(utilizationBins(d, {100, 200}, 2), std::vector<double>(2, 0.0));  // after it
        QCOMPARE(*busyPercentOfActiveSpan(d), 100.0);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestGpuUtilization)
#include "tst_gpu_utilization.moc"
