#pragma once
// Where a run of short, tightly packed intervals ends. For the intervals
// [begin, end) of one row (sorted, not overlapping), answers "the first item
// at or after `from` that is at least `longNs` long, or that is followed by a
// gap of at least `gapNs`" in O(log n), whatever the thresholds.
//
// The timeline folds the sub-pixel slices of a row into blocks, and a block
// ends at the first gap of two pixels or the first slice of a pixel. Walking
// there costs a search per two pixels of block; a whole-trace frame of a
// dense row then costs more than the rest of the frame together. With this,
// a frame costs a query per block drawn.
//
// A tree of maxima with fanout 16: level 0 holds per 16 items the longest
// item and the widest gap after one; each level above holds the maxima of 16
// nodes of the level below. About 1 byte per item. Rows of few items are not
// indexed; their queries scan.
//
// Below the model: an item only needs `start`, `dur` and `end()` (int64 ns).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace gapscope {

class RunBreakIndex {
  public:
    static constexpr size_t kFanout = 16;
    static constexpr size_t kMinItems = 64;  // fewer are scanned

    template <class Items>
    void build(const Items& items, uint32_t begin, uint32_t end);

    // The first k in [from, limit) with items[k].dur >= longNs or a gap of
    // at least gapNs between items[k] and items[k + 1] (the row's last item
    // is followed by an endless gap); `limit` if there is none. from and
    // limit lie within the row the index was built for.
    template <class Items>
    uint32_t firstBreak(const Items& items, uint32_t from, uint32_t limit, int64_t longNs,
                        int64_t gapNs) const;

    size_t memoryBytes() const {
        size_t n = 0;
        for (const auto& level : levels_)
            n += level.capacity() * sizeof(Node);
        return n;
    }

  private:
    struct Node {
        int64_t longest = 0;
        int64_t widestGap = 0;
        bool breaks(int64_t longNs, int64_t gapNs) const {
            return longest >= longNs || widestGap >= gapNs;
        }
    };

    template <class Items>
    int64_t gapAfter(const Items& items, uint32_t k) const {
        return k + 1 < end_ ? items[k + 1].start - items[k].end()
                            : std::numeric_limits<int64_t>::max();
    }
    template <class Items>
    bool itemBreaks(const Items& items, uint32_t k, int64_t longNs, int64_t gapNs) const {
        return items[k].dur >= longNs || gapAfter(items, k) >= gapNs;
    }

    uint32_t begin_ = 0, end_ = 0;
    std::vector<std::vector<Node>> levels_;  // levels_[L][i]: items [i·16^(L+1), (i+1)·16^(L+1))
};

template <class Items>
void RunBreakIndex::build(const Items& items, uint32_t begin, uint32_t end) {
    begin_ = begin;
    end_ = end;
    levels_.clear();
    const size_t n = end - begin;
    if (n < kMinItems) return;
    std::vector<Node> level((n + kFanout - 1) / kFanout);
    for (size_t i = 0; i < n; ++i) {
        Node& node = level[i / kFanout];
        const uint32_t k = begin + static_cast<uint32_t>(i);
        node.longest = std::max(node.longest, static_cast<int64_t>(items[k].dur));
        node.widestGap = std::max(node.widestGap, gapAfter(items, k));
    }
    levels_.push_back(std::move(level));
    while (levels_.back().size() > 1) {
        const std::vector<Node>& below = levels_.back();
        std::vector<Node> above((below.size() + kFanout - 1) / kFanout);
        for (size_t i = 0; i < below.size(); ++i) {
            Node& node = above[i / kFanout];
            node.longest = std::max(node.longest, below[i].longest);
            node.widestGap = std::max(node.widestGap, below[i].widestGap);
        }
        levels_.push_back(std::move(above));
    }
}

template <class Items>
uint32_t RunBreakIndex::firstBreak(const Items& items, uint32_t from, uint32_t limit,
                                   int64_t longNs, int64_t gapNs) const {
    if (levels_.empty()) {
        for (uint32_t k = from; k < limit; ++k)
            if (itemBreaks(items, k, longNs, gapNs)) return k;
        return limit;
    }
    // Positions relative to the row's first item.
    size_t pos = from - begin_;
    const size_t stop = limit - begin_;
    // The items up to the end of the first level-0 node.
    for (const size_t edge = std::min(stop, (pos / kFanout + 1) * kFanout); pos < edge; ++pos)
        if (itemBreaks(items, begin_ + static_cast<uint32_t>(pos), longNs, gapNs))
            return begin_ + static_cast<uint32_t>(pos);
    // Up: at each level, the nodes to the end of the parent, then the parent's
    // level; the first node that breaks is where the answer lies.
    size_t level = 0, span = kFanout;  // items per node of `level`
    while (pos < stop) {
        const size_t node = pos / span;
        if (levels_[level][node].breaks(longNs, gapNs)) break;
        pos += span;
        if ((pos / span) % kFanout == 0 && level + 1 < levels_.size()) {
            ++level;
            span *= kFanout;
        }
    }
    if (pos >= stop) return limit;
    // Down: the first child that breaks, to the items.
    while (level > 0) {
        --level;
        span /= kFanout;
        while (!levels_[level][pos / span].breaks(longNs, gapNs))
            pos += span;
    }
    for (const size_t edge = std::min(stop, pos + kFanout); pos < edge; ++pos)
        if (itemBreaks(items, begin_ + static_cast<uint32_t>(pos), longNs, gapNs))
            return begin_ + static_cast<uint32_t>(pos);
    return limit;
}

}  // namespace gapscope
