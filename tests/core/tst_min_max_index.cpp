// The counter min/max index against brute force: every range of small
// arrays, random ranges of large ones, block edges, constant runs.

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>

#include "index/min_max_index.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

MinMax bruteForce(const HugeVector<double>& v, size_t lo, size_t hi) {
    MinMax m{v[lo], v[lo]};
    for (size_t i = lo; i < hi; ++i) {
        m.min = std::min(m.min, v[i]);
        m.max = std::max(m.max, v[i]);
    }
    return m;
}

HugeVector<double> randomValues(QRandomGenerator& rng, size_t n) {
    HugeVector<double> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = rng.bounded(1000) == 0 ? 1e9 : rng.generateDouble() * 100 - 50;  // rare spikes
    return v;
}

}  // namespace

class TestMinMaxIndex : public QObject {
    Q_OBJECT
  private slots:
    void everyRangeOfSmallArrays() {
        QRandomGenerator rng(5);
        for (const size_t n : {size_t(1), size_t(2), size_t(15), size_t(16), size_t(17),
                               size_t(255), size_t(256), size_t(257), size_t(300)}) {
            const HugeVector<double> v = randomValues(rng, n);
            MinMaxIndex index;
            index.build(v);
            const MinMax all = bruteForce(v, 0, n);
            QCOMPARE(index.overall().min, all.min);
            QCOMPARE(index.overall().max, all.max);
            for (size_t lo = 0; lo < n; ++lo) {
                for (size_t hi = lo + 1; hi <= n; ++hi) {
                    const MinMax got = index.query(v, lo, hi), want = bruteForce(v, lo, hi);
                    if (got.min != want.min || got.max != want.max)
                        QFAIL(qPrintable(QStringLiteral("n %1, [%2, %3)").arg(n).arg(lo).arg(hi)));
                }
            }
        }
    }

    void randomRangesOfALargeArray() {
        QRandomGenerator rng(11);
        const size_t n = 1'000'003;  // several levels, a ragged last block
        const HugeVector<double> v = randomValues(rng, n);
        MinMaxIndex index;
        index.build(v);
        for (int q = 0; q < 3000; ++q) {
            const size_t lo = rng.bounded(quint32(n));
            const size_t len = q % 3 == 0 ? rng.bounded(40) : rng.bounded(quint32(n - lo));
            const size_t hi = std::min(n, lo + std::max<size_t>(1, len));
            const MinMax got = index.query(v, lo, hi), want = bruteForce(v, lo, hi);
            QCOMPARE(got.min, want.min);
            QCOMPARE(got.max, want.max);
        }
        // About a byte per sample.
        QVERIFY(index.memoryBytes() <= n * 2);
    }

    void aSingleSpikeIsFoundInAnyRangeThatHoldsIt() {
        const size_t n = 100'000;
        HugeVector<double> v(n, 1.0);
        v[54'321] = 7.0;
        v[12'345] = -3.0;
        MinMaxIndex index;
        index.build(v);
        QCOMPARE(index.query(v, 0, n).max, 7.0);
        QCOMPARE(index.query(v, 54'321, 54'322).max, 7.0);
        QCOMPARE(index.query(v, 54'000, 60'000).max, 7.0);
        QCOMPARE(index.query(v, 54'322, n).max, 1.0);
        QCOMPARE(index.query(v, 0, 54'321).max, 1.0);
        QCOMPARE(index.query(v, 0, 54'321).min, -3.0);
        QCOMPARE(index.query(v, 12'346, n).min, 1.0);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestMinMaxIndex)
#include "tst_min_max_index.moc"
