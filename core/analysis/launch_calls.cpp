#include "analysis/launch_calls.h"

#include <algorithm>

#include "model/slice_kind.h"

namespace gapscope {

bool isCpuOp(const Slice& s) {
    return sliceKind(s) == SliceKind::CpuOp;
}

LaunchCalls::LaunchCalls(const Trace& trace) : trace_(trace) {
    // Every runtime or driver call: the GPU work it launched is found by its
    // correlation id, whatever the call.
    auto isCall = [](const Slice& s) { return isRuntimeKind(sliceKind(s)); };
    // Counted first so that the table is sized once (rehashing a million
    // entries cost a tenth of building it).
    size_t calls = 0;
    for (const Track& track : trace.tracks) {
        if (track.kind != TrackKind::CpuThread) continue;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i)
            calls += isCall(trace.slices[i]);
    }
    byCorrelation_.reserve(calls);
    for (const Track& track : trace.tracks) {
        if (track.kind != TrackKind::CpuThread) continue;
        for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i) {
            if (!isCall(trace.slices[i])) continue;
            const int64_t corr = correlationOf(i);
            if (corr >= 0) byCorrelation_.emplace(corr, i);
        }
    }
    for (uint32_t f = 0; f < trace.flows.size(); ++f) {
        const Flow& flow = trace.flows[f];
        if (flow.from != kNone && flow.to != kNone && flow.kind == FlowKind::Launch)
            flowsByTarget_.push_back(f);
    }
    std::stable_sort(flowsByTarget_.begin(), flowsByTarget_.end(),
                     [&](uint32_t a, uint32_t b) { return trace.flows[a].to < trace.flows[b].to; });
}

int64_t LaunchCalls::correlationOf(uint32_t slice) const {
    const uint32_t a = trace_.slices[slice].args;
    if (a >= trace_.args.size() || trace_.args[a].extracted == kNone) return -1;
    return trace_.ids[trace_.args[a].extracted].correlation;
}

size_t LaunchCalls::firstFlowInto(uint32_t activity) const {
    return static_cast<size_t>(
        std::lower_bound(flowsByTarget_.begin(), flowsByTarget_.end(), activity,
                         [&](uint32_t f, uint32_t v) { return trace_.flows[f].to < v; }) -
        flowsByTarget_.begin());
}

uint32_t LaunchCalls::first(uint32_t activity) const {
    uint32_t found = kNone;
    forEach(activity, [&](uint32_t l) {
        if (found == kNone) found = l;
    });
    return found;
}

EnclosingSlices::EnclosingSlices(const Trace& trace) : trace_(trace), rowsOf_(trace.tracks.size()) {
    for (size_t tr = 0; tr < trace.tracks.size(); ++tr) {
        const Track& track = trace.tracks[tr];
        if (track.kind != TrackKind::CpuThread) continue;
        rowsOf_[tr].reserve(track.rows.size());
        for (uint32_t r = 0; r < track.rows.size(); ++r)
            rowsOf_[tr].emplace(key(track.rows[r].lane, track.rows[r].depth), r);
    }
}

uint32_t EnclosingSlices::containing(const Row& row, const Slice& s) const {
    // The last slice of the row starting at or before s: rows never overlap
    // internally, so it is the only candidate.
    const Slice* first = &trace_.slices[row.begin];
    const Slice* last = first + (row.end - row.begin);
    const Slice* it = std::upper_bound(first, last, s.start,
                                       [](TimeNs v, const Slice& x) { return v < x.start; });
    if (it == first) return kNone;
    --it;
    if (it->end() < s.end()) return kNone;
    return row.begin + static_cast<uint32_t>(it - first);
}

}  // namespace gapscope
