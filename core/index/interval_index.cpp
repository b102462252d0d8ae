#include "index/interval_index.h"

#include <algorithm>
#include <limits>

#include "model/trace.h"

namespace gapscope {

void IntervalIndex::build(const std::vector<Slice>& slices, std::vector<uint32_t> ids) {
    std::sort(ids.begin(), ids.end(), [&](uint32_t a, uint32_t b) {
        return slices[a].start != slices[b].start ? slices[a].start < slices[b].start : a < b;
    });
    order_ = std::move(ids);
    order_.shrink_to_fit();
    maxEnd_.assign(order_.size(), 0);
    maxEnd_.shrink_to_fit();
    buildRange(slices, 0, order_.size());
}

int64_t IntervalIndex::buildRange(const std::vector<Slice>& slices, size_t lo, size_t hi) {
    if (lo >= hi) return std::numeric_limits<int64_t>::min();
    const size_t mid = lo + (hi - lo) / 2;
    const int64_t left = buildRange(slices, lo, mid);
    const int64_t right = buildRange(slices, mid + 1, hi);
    const int64_t own = slices[order_[mid]].end();
    maxEnd_[mid] = std::max({own, left, right});
    return maxEnd_[mid];
}

void IntervalIndex::overlapping(const std::vector<Slice>& slices, int64_t t0, int64_t t1,
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
            if (maxEnd_[mid] < t0) continue;  // nothing here reaches t0
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
