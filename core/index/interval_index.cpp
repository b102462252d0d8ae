#include "index/interval_index.h"

#include <algorithm>
#include <limits>

#include "model/trace.h"

namespace gapscope {

void IntervalIndex::build(const HugeVector<Slice>& slices, HugeVector<uint32_t> ids) {
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        return slices[a].start != slices[b].start ? slices[a].start < slices[b].start : a < b;
    });
    order_ = std::move(ids);
    order_.shrink_to_fit();
    maxEnd_.assign(order_.size(), 0);
    maxEnd_.shrink_to_fit();
    if (order_.empty()) return;
    // Subtree maxima are stored in 32 bits as ceil((end - base) / 2^shift):
    // an upper bound, so pruning stays exact while the index costs 8 bytes
    // per slice instead of 12.
    base_ = slices[order_.front()].start;
    int64_t last = base_;
    for (uint32_t id : order_)
        last = std::max(last, slices[id].end());
    const uint64_t range = static_cast<uint64_t>(last) - static_cast<uint64_t>(base_);
    shift_ = 0;
    while ((range >> shift_) >= UINT32_MAX)
        ++shift_;
    buildRange(slices, 0, order_.size());
}

int64_t IntervalIndex::buildRange(const HugeVector<Slice>& slices, size_t lo, size_t hi) {
    if (lo >= hi) return std::numeric_limits<int64_t>::min();
    const size_t mid = lo + (hi - lo) / 2;
    const int64_t left = buildRange(slices, lo, mid);
    const int64_t right = buildRange(slices, mid + 1, hi);
    const int64_t own = slices[order_[mid]].end();
    const int64_t most = std::max({own, left, right});
    const uint64_t offset = static_cast<uint64_t>(most) - static_cast<uint64_t>(base_);
    const uint64_t unit = uint64_t{1} << shift_;
    maxEnd_[mid] = static_cast<uint32_t>((offset + unit - 1) >> shift_);  // rounded up
    return most;
}

void IntervalIndex::overlapping(const HugeVector<Slice>& slices, int64_t t0, int64_t t1,
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
        const Slice& s = slices[order_[mid]];
        if (s.start > t1) continue;  // the right subtree starts even later
        if (s.end() >= t0) out.push_back(order_[mid]);
        stack[top++] = {mid + 1, r.hi, false};
    }
}

}  // namespace gapscope
