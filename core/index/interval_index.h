#pragma once
// A static interval tree over a subset of an array of intervals (a track's
// slices): the members sorted by start, laid out as an implicit balanced
// binary tree (the middle of a range is its root) and augmented with the
// maximum end of each subtree. Answers "which members overlap [t0, t1]" in
// O(log n + k) and stabbing queries as t0 == t1. Intervals are closed: a
// zero-length interval at t overlaps [t, t].
//
// A plain structure below the model: it knows nothing of slices, only that
// an item has `start` and `end()` (int64 ns), so the model can embed it.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "util/huge_vector.h"

namespace gapscope {

class IntervalIndex {
  public:
    // `items` is the whole array (e.g. Trace::slices); `ids` the members to index.
    template <class Items>
    void build(const Items& items, HugeVector<uint32_t> ids);

    // Appends to `out` the ids of the members with start <= t1 and end >= t0,
    // in start order.
    template <class Items>
    void overlapping(const Items& items, int64_t t0, int64_t t1, std::vector<uint32_t>& out) const;

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

    // Whether its members are exactly the ids [begin, end) (as a track's
    // index is over its slices).
    bool covers(uint32_t begin, uint32_t end) const {
        if (end < begin || order_.size() != size_t{end - begin}) return false;
        if (order_.empty()) return true;
        const auto [lo, hi] = std::minmax_element(order_.begin(), order_.end());
        return *lo == begin && *hi == end - 1;  // (its ids are distinct)
    }

    // The same members moved: every id by `idBy`, every time by `timeBy`
    // (a rank's track appended to a job's trace). Order and subtree maxima
    // do not change, so nothing is rebuilt. False, unchanged, where a time
    // would leave the int64 range.
    bool move(uint32_t idBy, int64_t timeBy) {
        if (order_.empty()) return true;  // (no base: an empty index's is 0)
        int64_t base = 0;
        if (__builtin_add_overflow(base_, timeBy, &base)) return false;
        base_ = base;
        for (uint32_t& id : order_)
            id += idBy;
        return true;
    }

  private:
    template <class Items>
    int64_t buildRange(const Items& items, size_t lo, size_t hi);
    uint32_t quantise(int64_t end) const {
        const uint64_t offset = static_cast<uint64_t>(end) - static_cast<uint64_t>(base_);
        const uint64_t unit = uint64_t{1} << shift_;
        return static_cast<uint32_t>((offset + unit - 1) >> shift_);  // rounded up
    }

    HugeVector<uint32_t> order_;   // member ids sorted by start
    HugeVector<uint32_t> maxEnd_;  // per subtree root: its max end, quantised (see build)
    int64_t base_ = 0;             // the first start
    int shift_ = 0;
};

template <class Items>
void IntervalIndex::build(const Items& items, HugeVector<uint32_t> ids) {
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        return items[a].start != items[b].start ? items[a].start < items[b].start : a < b;
    });
    order_ = std::move(ids);
    order_.shrink_to_fit();
    maxEnd_.assign(order_.size(), 0);
    maxEnd_.shrink_to_fit();
    if (order_.empty()) return;
    // Subtree maxima are stored in 32 bits as ceil((end - base) / 2^shift):
    // an upper bound, so pruning stays exact while the index costs 8 bytes
    // per member instead of 12.
    base_ = items[order_.front()].start;
    int64_t last = base_;
    for (uint32_t id : order_)
        last = std::max<int64_t>(last, items[id].end());
    const uint64_t range = static_cast<uint64_t>(last) - static_cast<uint64_t>(base_);
    shift_ = 0;
    while ((range >> shift_) >= UINT32_MAX)
        ++shift_;
    buildRange(items, 0, order_.size());
}

template <class Items>
int64_t IntervalIndex::buildRange(const Items& items, size_t lo, size_t hi) {
    if (lo >= hi) return std::numeric_limits<int64_t>::min();
    const size_t mid = lo + (hi - lo) / 2;
    const int64_t left = buildRange(items, lo, mid);
    const int64_t right = buildRange(items, mid + 1, hi);
    const int64_t most = std::max({static_cast<int64_t>(items[order_[mid]].end()), left, right});
    maxEnd_[mid] = quantise(most);
    return most;
}

template <class Items>
void IntervalIndex::overlapping(const Items& items, int64_t t0, int64_t t1,
                                std::vector<uint32_t>& out) const {
    // Iterative in-order walk; depth is log2(n) so a fixed stack suffices.
    struct Range {
        size_t lo, hi;
        bool visitRoot;  // left subtree done: report root, then go right
    };
    Range stack[80];
    int top = 0;
    stack[top++] = {0, order_.size(), false};
    while (top > 0) {
        Range r = stack[--top];
        if (r.lo >= r.hi) continue;
        const size_t mid = r.lo + (r.hi - r.lo) / 2;
        if (!r.visitRoot) {
            // Nothing in this subtree reaches t0 (the stored maximum is an upper bound).
            // (Unsigned offsets from base_: no overflow for any int64 times.)
            if (t0 > base_ && (static_cast<uint64_t>(maxEnd_[mid]) << shift_) <
                                  static_cast<uint64_t>(t0) - static_cast<uint64_t>(base_)) {
                continue;
            }
            stack[top++] = {r.lo, r.hi, true};
            stack[top++] = {r.lo, mid, false};
            continue;
        }
        const auto& item = items[order_[mid]];
        if (item.start > t1) continue;  // the right subtree starts even later
        if (item.end() >= t0) out.push_back(order_[mid]);
        stack[top++] = {mid + 1, r.hi, false};
    }
}

}  // namespace gapscope
