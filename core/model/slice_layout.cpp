#include "model/slice_layout.h"

#include <algorithm>
#include <numeric>

namespace gapscope {

namespace {
constexpr uint32_t kMaxRows = 65535;

struct Lane {
    std::vector<TimeNs> openEnds;  // ends of the enclosing slices, innermost last
    uint32_t group = 0;            // nesting group of the open slices
    uint32_t maxDepth = 0;
};
}  // namespace

LayoutResult layoutSlices(const HugeVector<Slice>& slices, const HugeVector<uint32_t>& seq,
                          const std::vector<uint32_t>& group, Slice* out, uint32_t* positions) {
    LayoutResult result;
    const size_t n = slices.size();
    // Scratch per slice: on huge pages like the model (a track can hold
    // millions of slices).
    HugeVector<uint32_t> order(n);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const Slice& x = slices[a];
        const Slice& y = slices[b];
        if (x.start != y.start) return x.start < y.start;
        if (x.dur != y.dur) return x.dur > y.dur;
        return seq[a] < seq[b];
    });

    std::vector<Lane> lanes;
    HugeVector<uint16_t> laneOf(n);
    HugeVector<uint32_t> depthOf(n);
    for (uint32_t i : order) {
        const Slice& s = slices[i];
        const uint32_t g = group.empty() ? 0 : group[i];
        size_t lane = 0;
        for (; lane < lanes.size(); ++lane) {
            auto& ends = lanes[lane].openEnds;
            while (!ends.empty() && ends.back() <= s.start) {
                ends.pop_back();
            }
            if (ends.empty()) break;                                      // top level
            if (ends.back() >= s.end() && lanes[lane].group == g) break;  // nests
        }
        if (lane == lanes.size()) {
            if (lanes.size() >= kMaxRows) {
                lane = lanes.size() - 1;  // hostile input: pile the rest into the last lane
                result.clamped = true;
                lanes[lane].openEnds.clear();
            } else {
                lanes.emplace_back();
            }
        }
        Lane& l = lanes[lane];
        if (l.openEnds.empty()) l.group = g;
        const auto depth = static_cast<uint32_t>(l.openEnds.size());
        l.openEnds.push_back(s.end());
        l.maxDepth = std::max(l.maxDepth, depth);
        laneOf[i] = static_cast<uint16_t>(lane);
        depthOf[i] = depth;
        if (lane > 0) ++result.movedToLanes;
    }

    // Row numbers: lane 0's depths, then lane 1's, ...
    std::vector<uint32_t> laneBase(lanes.size() + 1, 0);
    for (size_t k = 0; k < lanes.size(); ++k)
        laneBase[k + 1] = laneBase[k] + lanes[k].maxDepth + 1;
    const uint32_t rowCount = std::min<uint32_t>(laneBase[lanes.size()], kMaxRows);
    if (laneBase[lanes.size()] > kMaxRows) result.clamped = true;

    // Counting sort by row; `order` is start order, so rows stay start-sorted.
    HugeVector<uint32_t> rowOf(n);
    std::vector<uint32_t> counts(rowCount + 1, 0);
    for (uint32_t i = 0; i < n; ++i) {
        rowOf[i] = std::min(laneBase[laneOf[i]] + depthOf[i], rowCount - 1);
        ++counts[rowOf[i] + 1];
    }
    std::partial_sum(counts.begin(), counts.end(), counts.begin());
    result.rows.resize(rowCount);
    for (uint32_t r = 0; r < rowCount; ++r) {
        result.rows[r].begin = counts[r];
        result.rows[r].end = counts[r + 1];
    }
    for (size_t k = 0; k < lanes.size(); ++k) {
        for (uint32_t d = 0; d <= lanes[k].maxDepth; ++d) {
            const uint32_t r = laneBase[k] + d;
            if (r >= rowCount) break;
            result.rows[r].lane = static_cast<uint16_t>(k);
            result.rows[r].depth = static_cast<uint16_t>(std::min<uint32_t>(d, 65535));
        }
    }
    if (!out) {
        result.slices.resize(n);
        out = result.slices.data();
    }
    std::vector<uint32_t> fill(counts.begin(), counts.end() - 1);
    for (uint32_t i : order) {
        Slice s = slices[i];
        s.row = static_cast<uint16_t>(rowOf[i]);
        s.depth = result.rows[rowOf[i]].depth;
        if (laneOf[i] > 0) s.flags |= kSliceOverlapLane;
        if (positions) positions[i] = fill[rowOf[i]];
        out[fill[rowOf[i]]++] = s;
    }
    result.laneCount = static_cast<uint16_t>(lanes.size());
    return result;
}

}  // namespace gapscope
