// gallopLowerBound against std::lower_bound on random sorted arrays with
// runs of equal values, for every query value in and around the range and
// every start offset: the same iterator every time.

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>
#include <vector>

#include "support/suite_main.h"
#include "util/gallop.h"

using namespace gapscope;

class TestGallop : public QObject {
    Q_OBJECT
  private slots:
    void matchesLowerBound() {
        QRandomGenerator rng(7);
        for (int round = 0; round < 300; ++round) {
            const int n = int(rng.bounded(0, 70));
            std::vector<int> v(static_cast<size_t>(n));
            for (int& x : v)
                x = int(rng.bounded(0, 40));  // duplicates are common
            std::sort(v.begin(), v.end());
            for (int from = 0; from <= n; ++from) {
                for (int value = -2; value <= 42; ++value) {
                    const auto want = std::lower_bound(v.begin() + from, v.end(), value);
                    const auto got = gallopLowerBound(v.begin() + from, v.end(), value);
                    QCOMPARE(got - v.begin(), want - v.begin());
                }
            }
        }
    }

    void takesAComparator() {
        struct Item {
            long start;
        };
        std::vector<Item> items;
        for (long s = 0; s < 1000; s += 3)
            items.push_back({s});
        const auto less = [](const Item& i, long t) { return i.start < t; };
        for (long t = -5; t < 1010; ++t) {
            const auto want = std::lower_bound(items.begin(), items.end(), t, less);
            QCOMPARE(gallopLowerBound(items.begin(), items.end(), t, less) - items.begin(),
                     want - items.begin());
        }
    }
};

GAPSCOPE_TEST_APPLESS_MAIN(TestGallop)
#include "tst_gallop.moc"
