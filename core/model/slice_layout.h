#pragma once
// Places one track's slices into lanes and depths, the way a person reads a
// flame chart: a slice nests under the previous one when it lies inside it,
// and a slice that overlaps a sibling without nesting (common for GPU kernels
// in Kineto traces) moves to the first lane where it fits. Nothing is
// dropped or truncated.
//
// Order of equal timestamps (documented, tested): by start; at equal start
// the longer slice first (it encloses the shorter); at equal start and
// duration, file order (the earlier event is the parent). A slice that starts
// exactly where another ends is its sibling, not its child.

#include <cstdint>
#include <vector>

#include "model/trace.h"

namespace gapscope {

struct LayoutResult {
    HugeVector<Slice> slices;  // grouped by row, start-sorted within each row (unless `out`)
    std::vector<Row> rows;     // begin/end relative to `slices`
    uint16_t laneCount = 0;
    uint64_t movedToLanes = 0;
    bool clamped = false;  // more than 65535 rows: the deepest were merged
};

// `seq` gives each slice's file order for tie-breaking (same size as slices).
// `group`, when not empty, names each slice's nesting group: a slice only
// nests under a slice of its own group (async slices of different ids never
// nest; they take another lane instead).
// With `out`, the laid-out slices are written there (room for all of them)
// instead of into the result: the builder lays each track straight into the
// trace's array, with no copy of the biggest track in memory at once.
// With `positions` (room for all of them), where each slice went: its index
// in the laid-out slices.
LayoutResult layoutSlices(const HugeVector<Slice>& slices, const HugeVector<uint32_t>& seq,
                          const std::vector<uint32_t>& group = {}, Slice* out = nullptr,
                          uint32_t* positions = nullptr);

}  // namespace gapscope
