// Lanes and depths for one track, and the defined order of equal timestamps.

#include <QTest>

#include "model/slice_layout.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

Slice make(int64_t start, int64_t dur, StringId name) {
    Slice s;
    s.start = start;
    s.dur = dur;
    s.name = name;
    return s;
}

struct Placed {
    StringId name;
    uint16_t lane, depth;
};

std::vector<Placed> place(const HugeVector<Slice>& in) {
    HugeVector<uint32_t> seq(in.size());
    for (uint32_t i = 0; i < seq.size(); ++i)
        seq[i] = i;
    const LayoutResult r = layoutSlices(in, seq);
    std::vector<Placed> out(in.size());
    for (const Row& row : r.rows) {
        for (uint32_t i = row.begin; i < row.end; ++i) {
            out[r.slices[i].name] = {r.slices[i].name, row.lane, row.depth};
            if (r.slices[i].depth != row.depth)
                QTest::qFail("slice depth != row depth", __FILE__, __LINE__);
        }
    }
    return out;
}

}  // namespace

class TestSliceLayout : public QObject {
    Q_OBJECT
  private slots:
    void nesting() {
        const auto p = place({make(0, 100, 0), make(10, 20, 1), make(12, 5, 2), make(40, 10, 3)});
        QCOMPARE(p[0].depth, uint16_t(0));
        QCOMPARE(p[1].depth, uint16_t(1));
        QCOMPARE(p[2].depth, uint16_t(2));
        QCOMPARE(p[3].depth, uint16_t(1));
        for (const auto& x : p)
            QCOMPARE(x.lane, uint16_t(0));
    }
    void equalStartLongerIsParent() {
        // File order puts the child first; the longer one still encloses it.
        const auto p = place({make(5, 10, 0), make(5, 20, 1)});
        QCOMPARE(p[1].depth, uint16_t(0));
        QCOMPARE(p[0].depth, uint16_t(1));
    }
    void equalStartAndDurationFileOrder() {
        const auto p = place({make(5, 10, 0), make(5, 10, 1)});
        QCOMPARE(p[0].depth, uint16_t(0));
        QCOMPARE(p[1].depth, uint16_t(1));
    }
    void touchingIsSibling() {
        const auto p = place({make(0, 10, 0), make(10, 10, 1), make(10, 0, 2)});
        QCOMPARE(p[0].depth, uint16_t(0));
        QCOMPARE(p[1].depth, uint16_t(0));
        QCOMPARE(p[2].depth, uint16_t(1));  // zero-length at 10 nests in [10, 20]
    }
    void zeroLengthInsideParent() {
        const auto p = place({make(0, 10, 0), make(0, 0, 1)});
        QCOMPARE(p[1].depth, uint16_t(1));
    }
    void partialOverlapMovesToLane() {
        // Kineto GPU kernels on one stream can overlap without nesting.
        HugeVector<uint32_t> seq{0, 1, 2};
        const HugeVector<Slice> in{make(0, 10, 0), make(5, 10, 1), make(20, 5, 2)};
        const LayoutResult r = layoutSlices(in, seq);
        QCOMPARE(r.slices.size(), size_t(3));  // nothing dropped
        QCOMPARE(r.movedToLanes, uint64_t(1));
        QCOMPARE(r.laneCount, uint16_t(2));
        const auto p = place(in);
        QCOMPARE(p[0].lane, uint16_t(0));
        QCOMPARE(p[1].lane, uint16_t(1));
        QCOMPARE(p[2].lane, uint16_t(0));  // the first lane that fits
        for (const Slice& s : r.slices) {
            if (s.name == 1) QVERIFY(s.flags & kSliceOverlapLane);
            if (s.name == 1) QCOMPARE(s.dur, int64_t(10));  // not truncated
        }
    }
    void rowsAreStartSorted() {
        HugeVector<Slice> in;
        for (int i = 0; i < 50; ++i)
            in.push_back(make((i * 37) % 101, 3, StringId(i)));
        HugeVector<uint32_t> seq(in.size());
        for (uint32_t i = 0; i < seq.size(); ++i)
            seq[i] = i;
        const LayoutResult r = layoutSlices(in, seq);
        for (const Row& row : r.rows) {
            for (uint32_t i = row.begin + 1; i < row.end; ++i)
                QVERIFY(r.slices[i - 1].start <= r.slices[i].start);
        }
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestSliceLayout)
#include "tst_slice_layout.moc"
