#pragma once
// A static interval tree over one track's slices: the slices sorted by start,
// laid out as an implicit balanced binary tree (the middle of a range is its
// root) and augmented with the maximum end of each subtree. Answers "which
// slices overlap [t0, t1]" in O(log n + k) and stabbing queries as t0 == t1.
// Intervals are closed: a zero-length slice at t overlaps [t, t].

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "util/huge_vector.h"

namespace gapscope {

struct Slice;

class IntervalIndex {
  public:
    // `slices` is the whole trace's slice array; `ids` the members to index.
    void build(const HugeVector<Slice>& slices, HugeVector<uint32_t> ids);

    // Appends to `out` the ids of the indexed slices with start <= t1 and
    // end >= t0, in start order.
    void overlapping(const HugeVector<Slice>& slices, int64_t t0, int64_t t1,
                     std::vector<uint32_t>& out) const;

    size_t size() const { return order_.size(); }

    // The built arrays, for the index cache; restore() takes them back as
    // they were (the cache validates ids before restoring).
    const HugeVector<uint32_t>& order() const { return order_; }
    const HugeVector<uint32_t>& maxEnds() const { return maxEnd_; }
    int64_t base() const { return base_; }
    int shift() const { return shift_; }
    void restore(HugeVector<uint32_t> order, HugeVector<uint32_t> maxEnds, int64_t base,
                 int shift) {
        order_ = std::move(order);
        maxEnd_ = std::move(maxEnds);
        base_ = base;
        shift_ = shift;
    }
    size_t memoryBytes() const { return order_.capacity() * 4 + maxEnd_.capacity() * 4; }

  private:
    int64_t buildRange(const HugeVector<Slice>& slices, size_t lo, size_t hi);

    HugeVector<uint32_t> order_;   // slice ids sorted by start
    HugeVector<uint32_t> maxEnd_;  // per subtree root: its max end, quantised (see build)
    int64_t base_ = 0;              // the first start
    int shift_ = 0;
};

}  // namespace gapscope
