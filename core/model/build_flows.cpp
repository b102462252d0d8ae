// finish() stage 3: flow events (s/t/f) bind to slices and become arrows.
// 's' and 't' bind to the enclosing slice; 'f' binds to the enclosing slice
// with "bp":"e" (Kineto's ac2g flows), else to the next slice that begins.

#include <algorithm>
#include <atomic>
#include <span>
#include <stdexcept>
#include <tuple>

#include "model/builder_state.h"
#include "model/earliest_slices.h"
#include "util/radix_sort.h"

namespace gapscope {

namespace {

uint32_t enclosingSlice(const Trace& t, const Track& track, TimeNs ts,
                        std::vector<uint32_t>& scratch) {
    scratch.clear();
    track.index.overlapping(t.slices, ts, ts, scratch);
    uint32_t best = kNone;
    for (uint32_t id : scratch) {
        const Slice& s = t.slices[id];
        if (s.end() == ts && s.dur > 0) continue;  // ended exactly here: not enclosing
        if (best == kNone || s.dur < t.slices[best].dur ||
            (s.dur == t.slices[best].dur && s.depth > t.slices[best].depth)) {
            best = id;
        }
    }
    return best;
}

uint32_t nextSlice(const Trace& t, const Track& track, TimeNs ts) {
    uint32_t best = kNone;
    for (const Row& row : track.rows) {
        const auto first = t.slices.begin() + row.begin;
        const auto last = t.slices.begin() + row.end;
        const auto it =
            std::lower_bound(first, last, ts, [](const Slice& s, TimeNs v) { return s.start < v; });
        if (it == last) continue;
        const auto id = static_cast<uint32_t>(it - t.slices.begin());
        if (best == kNone || it->start < t.slices[best].start ||
            (it->start == t.slices[best].start && it->depth < t.slices[best].depth)) {
            best = id;
        }
    }
    return best;
}

}  // namespace

std::vector<uint32_t> groupFlowPoints(const HugeVector<FlowPoint>& points) {
    // One sort (no container per flow id).
    std::vector<uint32_t> order(points.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    auto keyTuple = [&](const MatchKey& k) {
        return std::tuple(k.category, k.scope, k.id.isText,
                          k.id.isText ? int64_t{k.id.text} : k.id.number);
    };
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const auto ka = keyTuple(points[a].key), kb = keyTuple(points[b].key);
        return ka != kb ? ka < kb : points[a].ts < points[b].ts;
    });
    return order;
}

FlowBinding::FlowBinding(const TraceBuilder::State& st,
                         const std::vector<uint32_t>& finalTrackOfPending)
    : trace_(st.trace),
      points_(st.flowPoints),
      finalTrackOfPending_(finalTrackOfPending),
      bound_(st.flowPoints.size(), kNone) {}

void FlowBinding::bindSome() {
    std::vector<uint32_t> scratch;
    const size_t n = points_.size();
    for (;;) {
        const size_t begin = nextBlock_.fetch_add(1, std::memory_order_relaxed) * kBlock;
        if (begin >= n) return;
        const size_t end = std::min(n, begin + kBlock);
        for (size_t i = begin; i < end; ++i) {
            const FlowPoint& p = points_[i];
            const uint32_t f = finalTrackOfPending_[p.track];
            if (f == kNone) continue;
            const Track& track = trace_.tracks[f];
            bound_[i] = p.bindEnclosing ? enclosingSlice(trace_, track, p.ts, scratch)
                                        : nextSlice(trace_, track, p.ts);
        }
    }
}

namespace {

// The order of the ends by category, then id, the start first; in the order
// they came otherwise: each end's index in the low 32 bits of a word. When
// one category's ids span less than 2^31 (one process's correlation ids, as
// Nsight's reader gives them), its key is the word's high half, and a radix
// sort orders them: this sort is most of what remains of a load once the
// reader is done, and std::sort's comparisons cost several times as much.
std::vector<uint64_t> directFlowEndOrder(const HugeVector<DirectFlowEnd>& ends) {
    std::vector<uint64_t> order(ends.size());
    uint64_t lo = UINT64_MAX, hi = 0;
    bool oneCategory = true;
    for (const DirectFlowEnd& e : ends) {
        lo = std::min(lo, e.id);
        hi = std::max(hi, e.id);
        oneCategory = oneCategory && e.category == ends.front().category;
    }
    const bool packed = oneCategory && hi - lo < (uint64_t{1} << 31);
    for (size_t i = 0; i < ends.size(); ++i) {
        const uint64_t key = packed ? ((ends[i].id - lo) << 1) | (ends[i].out ? 0u : 1u) : 0;
        order[i] = (key << 32) | i;
    }
    if (packed) {
        radixSort(order, [](uint64_t w) { return w >> 32; });
        return order;
    }
    std::stable_sort(order.begin(), order.end(), [&](uint64_t x, uint64_t y) {
        const DirectFlowEnd &a = ends[static_cast<uint32_t>(x)],
                            &b = ends[static_cast<uint32_t>(y)];
        if (a.category != b.category) return a.category < b.category;
        if (a.id != b.id) return a.id < b.id;
        return a.out > b.out;
    });
    return order;
}

}  // namespace

namespace {

// A flow step or end whose start is not in the trace, at `slice` (kNone: none).
void noteOrphanFlow(Trace& t, uint32_t slice) {
    ++t.report.orphanFlowEvents;
    if (slice == kNone) return;
    // The earliest few by start: the list is that short, kept sorted; a
    // slice after its last, when it is full, changes nothing (most do).
    auto& kept = t.report.orphanFlowSlices;
    if (kept.size() >= kExampleSlices) {
        const Slice &s = t.slices[slice], &last = t.slices[kept.back()];
        if (s.start > last.start || (s.start == last.start && slice > kept.back())) return;
    }
    EarliestSlices earliest(t);
    for (const uint32_t s : t.report.orphanFlowSlices)
        earliest.add(s);
    earliest.add(slice);
    t.report.orphanFlowSlices = earliest.examples();
}

}  // namespace

void linkDirectFlows(TraceBuilder::State& st) {
    Trace& t = st.trace;
    auto& ends = st.directFlowEnds;
    if (ends.empty()) return;
    // By id, the start first: one flow from it to each end.
    if (ends.size() > UINT32_MAX) throw std::length_error("more than 2^32 flow ends");
    const std::vector<uint64_t> order = directFlowEndOrder(ends);
    auto end = [&](size_t i) -> const DirectFlowEnd& {
        return ends[static_cast<uint32_t>(order[i])];
    };
    const StringId name = t.strings.intern("launch");
    auto sliceOf = [&](const DirectFlowEnd& e) { return st.tracks[e.track].finalIndex[e.index]; };
    for (size_t i = 0; i < order.size();) {
        const DirectFlowEnd& first = end(i);
        size_t j = i + 1;
        while (j < order.size() && end(j).id == first.id && end(j).category == first.category)
            ++j;
        const bool started = first.out;
        if (started && i + 1 < j && end(i + 1).out)
            t.report.warn(0, "flow " + std::to_string(first.id) +
                                 " starts at more than one slice; the first start is kept");
        for (size_t k = i + (started ? 1 : 0); k < j; ++k) {
            if (end(k).out) continue;
            if (!started) {
                noteOrphanFlow(t, sliceOf(end(k)));  // its start is not in the trace
                continue;
            }
            t.flows.push_back({sliceOf(first), sliceOf(end(k)), name, first.category});
        }
        i = j;
    }
    HugeVector<DirectFlowEnd>().swap(ends);
    for (PendingTrack& tr : st.tracks)
        HugeVector<uint32_t>().swap(tr.finalIndex);
}

void FlowBinding::link(TraceBuilder::State& st, const std::vector<uint32_t>& order) {
    Trace& t = st.trace;
    auto& points = st.flowPoints;
    if (points.empty()) return;
    const HugeVector<uint32_t>& bound = bound_;
    for (size_t runBegin = 0; runBegin < order.size();) {
        size_t runEnd = runBegin + 1;
        while (runEnd < order.size() && points[order[runEnd]].key == points[order[runBegin]].key)
            ++runEnd;
        const std::span<const uint32_t> idx(order.data() + runBegin, runEnd - runBegin);
        runBegin = runEnd;
        uint32_t prev = kNone;
        StringId name = 0;
        uint16_t category = 0;
        bool inChain = false;
        for (uint32_t i : idx) {
            const FlowPoint& p = points[i];
            if (bound[i] == kNone) ++t.report.unresolvedFlows;
            if (p.phase == 's') {
                prev = bound[i];
                name = p.name;
                category = p.category;
                inChain = true;
                continue;
            }
            if (!inChain) {
                noteOrphanFlow(t, bound[i]);  // its start was before the trace window
                continue;
            }
            if (prev != kNone && bound[i] != kNone)
                t.flows.push_back({prev, bound[i], name, category});
            prev = bound[i];
            if (p.phase == 'f') inChain = false;
        }
    }
    points.clear();
    points.shrink_to_fit();
    HugeVector<uint32_t>().swap(bound_);
}

}  // namespace gapscope
