#pragma once
// Which CPU call launched each GPU activity, and the CPU op around it: the
// link the launch-overhead, op-statistics and gap-cause analyses follow.
// A launch call is a CPU slice with cat cuda_runtime / cuda_driver /
// Runtime (2021 Kineto) and the activity's correlation id; when no such
// slice exists, the source slice of an ac2g flow ending at the activity.

#include <unordered_map>
#include <vector>

#include "model/trace.h"

namespace gapscope {

class LaunchCalls {
  public:
    explicit LaunchCalls(const Trace& trace);

    // Calls f(launchSlice) for each launch call of an activity slice.
    template <class F>
    void forEach(uint32_t activity, F&& f) const {
        const auto byCorr = byCorrelation_.find(correlationOf(activity));
        if (byCorr != byCorrelation_.end()) {
            f(byCorr->second);
            return;
        }
        for (size_t i = firstFlowInto(activity);
             i < flowsByTarget_.size() && trace_.flows[flowsByTarget_[i]].to == activity; ++i)
            f(trace_.flows[flowsByTarget_[i]].from);
    }
    // The first of them (kNone without one).
    uint32_t first(uint32_t activity) const;

    int64_t correlationOf(uint32_t slice) const;

  private:
    size_t firstFlowInto(uint32_t activity) const;

    const Trace& trace_;
    std::unordered_map<int64_t, uint32_t> byCorrelation_;
    std::vector<uint32_t> flowsByTarget_;  // ac2g flows sorted by their activity slice
};

// Whether a category names a launch call (cuda_runtime, cuda_driver, Runtime).
bool isLaunchCategory(std::string_view category);

// The CPU ops a person reads in op tables: Kineto cat cpu_op (Operator in
// 2021), except the ProfilerStep#N step markers.
bool isCpuOp(const Trace& trace, const Slice& slice);

// The slices that enclose a slice on its track (same lane, lower depth),
// innermost first, in O(depth · log n): rows are looked up by (lane, depth)
// in tables built once.
class EnclosingSlices {
  public:
    explicit EnclosingSlices(const Trace& trace);
    template <class F>
    void forEach(uint32_t slice, F&& f) const {
        const uint32_t tr = trace_.trackOfSlice(slice);
        if (tr == kNone) return;
        const Slice& s = trace_.slices[slice];
        const Track& track = trace_.tracks[tr];
        const Row& mine = track.rows[s.row];
        const std::vector<uint32_t>& rows = rowsOf_[tr];
        const size_t base = size_t{mine.lane} * depthsOf_[tr];
        for (uint16_t depth = mine.depth; depth-- > 0;) {
            const uint32_t r = rows[base + depth];
            if (r == kNone) continue;
            const uint32_t found = containing(track.rows[r], s);
            if (found != kNone) f(found);
        }
    }

  private:
    uint32_t containing(const Row& row, const Slice& s) const;

    const Trace& trace_;
    std::vector<std::vector<uint32_t>> rowsOf_;  // per track: [lane * depths + depth] -> row
    std::vector<size_t> depthsOf_;
};

}  // namespace gapscope
