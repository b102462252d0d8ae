#pragma once
// Which CPU call launched each GPU activity, and the CPU op around it: the
// link the launch-overhead, op-statistics and gap-cause analyses follow.
// A launch call is a CPU slice of a runtime kind (model/slice_kind.h) with
// the activity's correlation id; when no such slice exists, the source
// slice of a launch flow ending at the activity.

#include <unordered_map>
#include <vector>

#include "model/trace.h"

namespace gapscope {

class LaunchCalls {
  public:
    explicit LaunchCalls(const Trace& trace);
    LaunchCalls(const Trace&&) = delete;  // it keeps a reference

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
    // The runtime or driver call with this correlation id (kNone: none).
    uint32_t callWithCorrelation(int64_t correlation) const {
        const auto it = byCorrelation_.find(correlation);
        return it == byCorrelation_.end() ? kNone : it->second;
    }

  private:
    size_t firstFlowInto(uint32_t activity) const;

    const Trace& trace_;
    std::unordered_map<int64_t, uint32_t> byCorrelation_;
    std::vector<uint32_t> flowsByTarget_;  // ac2g flows sorted by their activity slice
};

// The CPU ops a person reads in op tables: slices of kind CpuOp (Kineto's
// cpu_op, TensorFlow's Operator; the ProfilerStep#N markers are steps).
bool isCpuOp(const Slice& slice);

// The slices that enclose a slice on its track (same lane, lower depth),
// innermost first, in O(depth · log n): rows are looked up by (lane, depth)
// in tables built once.
class EnclosingSlices {
  public:
    explicit EnclosingSlices(const Trace& trace);
    EnclosingSlices(const Trace&&) = delete;  // it keeps a reference
    template <class F>
    void forEach(uint32_t slice, F&& f) const {
        forEachUntil(slice, [&](uint32_t s) {
            f(s);
            return false;
        });
    }
    // The same until f returns true (what is found innermost first ends
    // the walk: the levels above it cost nothing).
    template <class F>
    void forEachUntil(uint32_t slice, F&& f) const {
        const uint32_t tr = trace_.trackOfSlice(slice);
        if (tr == kNone || rowsOf_[tr].empty()) return;
        const Slice& s = trace_.slices[slice];
        const Track& track = trace_.tracks[tr];
        const Row& mine = track.rows[s.row];
        const auto& rows = rowsOf_[tr];
        for (uint16_t depth = mine.depth; depth-- > 0;) {
            const auto r = rows.find(key(mine.lane, depth));
            if (r == rows.end()) continue;
            const uint32_t found = containing(track.rows[r->second], s);
            if (found != kNone && f(found)) return;
        }
    }

  private:
    uint32_t containing(const Row& row, const Slice& s) const;

    const Trace& trace_;
    static uint32_t key(uint16_t lane, uint16_t depth) { return (uint32_t{lane} << 16) | depth; }
    // Per CPU track: (lane, depth) -> row; proportional to the rows, however
    // deep or wide the track (other tracks: empty).
    std::vector<std::unordered_map<uint32_t, uint32_t>> rowsOf_;
};

}  // namespace gapscope
