// The search and sort helpers of util/ against the standard library's:
// gallopLowerBound against std::lower_bound on random sorted arrays with
// runs of equal values, for every query value in and around the range and
// every start offset (the same iterator every time); radixSort against
// std::stable_sort on keys that vary in few digits, in many, across a
// digit's edge, or not at all.

#include <QRandomGenerator>
#include <QTest>
#include <algorithm>
#include <vector>

#include "support/suite_main.h"
#include "util/gallop.h"
#include "util/radix_sort.h"

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

    void radixSortIsAStableSortByKey() {
        QRandomGenerator rng(11);
        struct Item {
            uint64_t key;
            uint32_t seq;  // its place before sorting
        };
        // (Digits of 12 bits: masks that vary across a digit's edge, and in
        // the last digit's four bits alone, where equal keys are common.)
        for (const uint64_t mask :
             {uint64_t{0}, uint64_t{0xFF}, uint64_t{0xF0F00}, ~uint64_t{0}, uint64_t{0xFFFF} << 40,
              uint64_t{0x1800}, uint64_t{0xB} << 60, (uint64_t{0x3} << 23) | 0x7}) {
            for (int round = 0; round < 20; ++round) {
                const auto n = static_cast<uint32_t>(rng.bounded(0, 3000));
                std::vector<Item> items(n);
                for (uint32_t i = 0; i < n; ++i)
                    items[i] = {(rng.generate64() & mask) | (uint64_t{1} << 62), i};
                std::vector<Item> want = items;
                std::stable_sort(want.begin(), want.end(),
                                 [](const Item& a, const Item& b) { return a.key < b.key; });
                radixSort(items, [](const Item& it) { return it.key; });
                for (uint32_t i = 0; i < n; ++i) {
                    QCOMPARE(items[i].key, want[i].key);
                    QCOMPARE(items[i].seq, want[i].seq);
                }
            }
        }
    }
};

GAPSCOPE_TEST_APPLESS_MAIN(TestGallop)
#include "tst_gallop.moc"
