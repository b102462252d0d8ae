// finish() stage 3: flow events (s/t/f) bind to slices and become arrows.
// 's' and 't' bind to the enclosing slice; 'f' binds to the enclosing slice
// with "bp":"e" (Kineto's ac2g flows), else to the next slice that begins.

#include <algorithm>
#include <atomic>
#include <span>
#include <tuple>

#include "model/builder_state.h"

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

void linkDirectFlows(TraceBuilder::State& st) {
    Trace& t = st.trace;
    auto& ends = st.directFlowEnds;
    if (ends.empty()) return;
    // By id, the start first: one flow from it to each end.
    std::sort(ends.begin(), ends.end(), [](const DirectFlowEnd& a, const DirectFlowEnd& b) {
        if (a.category != b.category) return a.category < b.category;
        if (a.id != b.id) return a.id < b.id;
        return a.out > b.out;
    });
    const StringId name = t.strings.intern("launch");
    auto sliceOf = [&](const DirectFlowEnd& e) { return st.tracks[e.track].finalIndex[e.index]; };
    for (size_t i = 0; i < ends.size();) {
        size_t j = i;
        while (j < ends.size() && ends[j].id == ends[i].id && ends[j].category == ends[i].category)
            ++j;
        const bool started = ends[i].out;
        if (started && i + 1 < j && ends[i + 1].out)
            t.report.warn(0, "flow " + std::to_string(ends[i].id) +
                                 " starts at more than one slice; the first start is kept");
        for (size_t k = i + (started ? 1 : 0); k < j; ++k) {
            if (ends[k].out) continue;
            if (!started) {
                ++t.report.orphanFlowEvents;  // its start is not in the trace
                continue;
            }
            t.flows.push_back({sliceOf(ends[i]), sliceOf(ends[k]), name, ends[i].category});
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
                ++t.report.orphanFlowEvents;  // its start was before the trace window
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
