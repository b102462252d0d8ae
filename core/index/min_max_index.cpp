#include "index/min_max_index.h"

#include <algorithm>

namespace gapscope {

namespace {

void widen(MinMax& into, const MinMax& x) {
    into.min = std::min(into.min, x.min);
    into.max = std::max(into.max, x.max);
}

}  // namespace

void MinMaxIndex::build(const HugeVector<double>& values) {
    levels_.clear();
    overall_ = {};
    if (values.empty()) return;
    // Level 0 from the samples, each next level from the one below.
    std::vector<MinMax> level((values.size() + kFanout - 1) / kFanout);
    for (size_t b = 0; b < level.size(); ++b) {
        MinMax m{values[b * kFanout], values[b * kFanout]};
        const size_t end = std::min(values.size(), (b + 1) * kFanout);
        for (size_t i = b * kFanout + 1; i < end; ++i)
            widen(m, {values[i], values[i]});
        level[b] = m;
    }
    levels_.push_back(std::move(level));
    while (levels_.back().size() > 1) {
        const std::vector<MinMax>& below = levels_.back();
        std::vector<MinMax> up((below.size() + kFanout - 1) / kFanout);
        for (size_t b = 0; b < up.size(); ++b) {
            MinMax m = below[b * kFanout];
            const size_t end = std::min(below.size(), (b + 1) * kFanout);
            for (size_t i = b * kFanout + 1; i < end; ++i)
                widen(m, below[i]);
            up[b] = m;
        }
        levels_.push_back(std::move(up));
    }
    overall_ = levels_.back().front();
}

MinMax MinMaxIndex::query(const HugeVector<double>& values, size_t lo, size_t hi) const {
    MinMax m{values[lo], values[lo]};
    // Samples up to the first block boundary, then whole blocks climbing the
    // pyramid while the range still spans a block of the level above, then
    // down again; each level touches at most 2 (F - 1) entries.
    size_t unit = 1;  // samples per entry at the current level
    int level = -1;   // -1: the samples themselves
    auto entry = [&](size_t i) -> MinMax {
        return level < 0 ? MinMax{values[i], values[i]} : levels_[static_cast<size_t>(level)][i];
    };
    size_t a = lo, b = hi;  // in samples
    while (a < b) {
        const size_t up = unit * kFanout;
        const bool canClimb = static_cast<size_t>(level + 1) < levels_.size();
        const size_t aUp = (a + up - 1) / up * up, bUp = b / up * up;
        if (!canClimb || aUp >= bUp) {
            for (size_t i = a / unit; i < b / unit; ++i)
                widen(m, entry(i));
            return m;
        }
        for (size_t i = a / unit; i < aUp / unit; ++i)
            widen(m, entry(i));
        for (size_t i = bUp / unit; i < b / unit; ++i)
            widen(m, entry(i));
        a = aUp;
        b = bUp;
        unit = up;
        ++level;
    }
    return m;
}

size_t MinMaxIndex::memoryBytes() const {
    size_t total = 0;
    for (const auto& l : levels_)
        total += l.capacity() * sizeof(MinMax);
    return total;
}

}  // namespace gapscope
