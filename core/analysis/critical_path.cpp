#include "analysis/critical_path.h"

#include <algorithm>
#include <unordered_map>

#include "model/slice_kind.h"

namespace gapscope {

const char* boundByName(BoundBy b) {
    switch (b) {
        case BoundBy::Cpu:
            return "cpu_bound";
        case BoundBy::GpuCompute:
            return "gpu_compute_bound";
        case BoundBy::GpuCommunication:
            return "gpu_communication_bound";
        case BoundBy::LaunchOverhead:
            return "gpu_kernel_launch_overhead";
        case BoundBy::KernelGap:
            return "gpu_kernel_kernel_overhead";
        case BoundBy::None:
            break;
    }
    return "";
}

BoundBy boundByOf(const Trace& t, const PathEdge& e) {
    switch (e.kind) {
        case PathEdgeKind::KernelKernel:
            return BoundBy::KernelGap;
        case PathEdgeKind::KernelLaunch:
            return BoundBy::LaunchOverhead;
        case PathEdgeKind::Dependency:
        case PathEdgeKind::Sync:
            return BoundBy::None;
        case PathEdgeKind::PeerWait:  // inside a collective, as HTA counts its whole run
            return BoundBy::GpuCommunication;
        case PathEdgeKind::Operator:
            break;
    }
    if (e.attributed == kNone) return BoundBy::None;
    const Slice& s = t.slices[e.attributed];
    if (!(s.flags & kSliceGpuActivity)) return BoundBy::Cpu;
    return sliceKind(s) == SliceKind::CommKernel ? BoundBy::GpuCommunication : BoundBy::GpuCompute;
}

LongestPath longestPath(const PathGraph& g, const std::vector<TimeNs>& weights,
                        const std::vector<TimeNs>* measured) {
    LongestPath out;
    const size_t n = g.nodes.size(), m = g.edges.size();
    std::vector<uint32_t> hubOf;  // by edge: a wait's hub (with `measured`)
    if (measured && !g.peerWaits.empty()) {
        hubOf.assign(m, kNone);
        for (const auto& [e, hub] : g.peerWaits)
            hubOf[e] = hub;
    }
    // Nodes in the order their first edge named them (networkx's node
    // order); each node's incoming and outgoing edges counted on the way.
    // (Tables, not a list per node: millions of small vectors cost more
    // than the search; and as few passes over the edges as can be.)
    std::vector<uint8_t> named(n, 0);
    std::vector<uint32_t> nodesInOrder;
    nodesInOrder.reserve(n);
    std::vector<uint32_t> predStart(n + 1, 0), succStart(n + 1, 0);
    for (const PathEdge& e : g.edges) {
        for (const uint32_t v : {e.from, e.to})
            if (!named[v]) {
                named[v] = 1;
                nodesInOrder.push_back(v);
            }
        ++predStart[e.to + 1];
        ++succStart[e.from + 1];
    }
    named = {};
    for (size_t v = 0; v < n; ++v)
        predStart[v + 1] += predStart[v];
    // Each incoming edge and its source side by side: the passes below
    // read them in order, not the edges at random.
    std::vector<uint32_t> preds(m), predFrom(m), fill(predStart.begin(), predStart.end() - 1);
    for (uint32_t i = 0; i < m; ++i) {  // in the order they came
        const uint32_t at = fill[g.edges[i].to]++;
        preds[at] = i;
        predFrom[at] = g.edges[i].from;
    }
    // One edge per pair of nodes, as a directed graph keeps them: a later
    // edge between the same two nodes gives the first its weight and kind
    // in the first's place (rare: a node has few incoming edges). `use`:
    // the edge whose weight an edge carries; kDead for the later ones.
    constexpr uint32_t kDead = kNone;
    std::vector<uint32_t> use(m), inDegree(n, 0);
    for (uint32_t i = 0; i < m; ++i)
        use[i] = i;
    auto drop = [&](uint32_t kept, uint32_t later) {
        use[later] = kDead;
        use[kept] = later;
        --succStart[g.edges[later].from + 1];
    };
    std::vector<std::pair<uint32_t, uint32_t>> byFrom;  // (source, place), a node's many
    for (size_t v = 0; v < n; ++v) {
        const uint32_t lo = predStart[v], hi = predStart[v + 1];
        if (hi - lo <= 16) {
            for (uint32_t a = lo; a < hi; ++a) {
                if (use[preds[a]] == kDead) continue;
                for (uint32_t b = a + 1; b < hi; ++b)
                    if (use[preds[b]] != kDead && predFrom[b] == predFrom[a])
                        drop(preds[a], preds[b]);
            }
        } else {
            // (Many waits on one call: sorted by source, not compared pairwise.)
            byFrom.clear();
            for (uint32_t a = lo; a < hi; ++a)
                byFrom.emplace_back(predFrom[a], a);
            std::sort(byFrom.begin(), byFrom.end());
            for (size_t i = 0; i < byFrom.size();) {
                size_t j = i + 1;
                for (; j < byFrom.size() && byFrom[j].first == byFrom[i].first; ++j)
                    drop(preds[byFrom[i].second], preds[byFrom[j].second]);
                i = j;
            }
        }
        for (uint32_t a = lo; a < hi; ++a)
            inDegree[v] += use[preds[a]] != kDead;
    }
    // Outgoing edges likewise, for the topological order.
    for (size_t v = 0; v < n; ++v)
        succStart[v + 1] += succStart[v];
    std::vector<uint32_t> succTo(m);  // each outgoing edge's target
    fill.assign(succStart.begin(), succStart.end() - 1);
    for (uint32_t i = 0; i < m; ++i)
        if (use[i] != kDead) succTo[fill[g.edges[i].from]++] = g.edges[i].to;
    fill = {};
    // Topological order, a generation at a time, from the nodes without a
    // predecessor in node order.
    std::vector<uint32_t> topo, generation, next;
    topo.reserve(nodesInOrder.size());
    for (const uint32_t v : nodesInOrder)
        if (inDegree[v] == 0) generation.push_back(v);
    while (!generation.empty()) {
        next.clear();
        for (const uint32_t v : generation) {
            topo.push_back(v);
            for (uint32_t a = succStart[v]; a < succStart[v + 1]; ++a) {
                const uint32_t to = succTo[a];
                if (--inDegree[to] == 0) next.push_back(to);
            }
        }
        std::swap(generation, next);
    }
    // Nodes on a cycle (clocks that disagree can make one) are left out, and
    // counted: the path is then of the rest of the graph.
    out.nodesLeftOut = nodesInOrder.size() - topo.size();
    std::vector<TimeNs> dist(n, 0);
    std::vector<uint32_t> via(n, kNone);  // the edge the longest chain arrives by
    for (const uint32_t v : topo) {
        for (uint32_t a = predStart[v]; a < predStart[v + 1]; ++a) {
            const uint32_t e = preds[a];
            if (use[e] == kDead) continue;
            // (Saturating: a hostile file's times, scaled by a what-if.)
            TimeNs w = weights[use[e]];
            if (!hubOf.empty() && hubOf[use[e]] != kNone) {
                const uint32_t hub = hubOf[use[e]];
                w = shortenedWait(w, (*measured)[hub], dist[hub]);
            }
            const TimeNs from = dist[predFrom[a]];
            const TimeNs d = from > INT64_MAX - w ? INT64_MAX : from + w;
            if (via[v] == kNone || d > dist[v]) {
                dist[v] = d;
                via[v] = use[e];
            }
        }
    }
    if (topo.empty()) return out;
    uint32_t last = topo.front();
    for (const uint32_t v : topo)
        if (dist[v] > dist[last]) last = v;
    // A step's path ends at a step's end (of the rank whose chain to it is
    // longest, where the graph reaches one).
    bool atEnd = false;
    for (const uint32_t end : g.endNodes)
        if (end < n && via[end] != kNone && (!atEnd || dist[end] > dist[last])) {
            last = end;
            atEnd = true;
        }
    out.lengthNs = dist[last];
    out.distance = std::move(dist);
    out.nodes.push_back(last);
    for (uint32_t v = last; via[v] != kNone;) {
        out.edges.push_back(via[v]);
        v = g.edges[via[v]].from;
        out.nodes.push_back(v);
    }
    std::reverse(out.nodes.begin(), out.nodes.end());
    std::reverse(out.edges.begin(), out.edges.end());
    return out;
}

const char* pathKindName(PathKind k) {
    switch (k) {
        case PathKind::CpuOp:
            return "op";
        case PathKind::RuntimeCall:
            return "runtime_call";
        case PathKind::InputWait:
            return "input_wait";
        case PathKind::Host:
            return "host";
        case PathKind::Kernel:
            return "kernel";
        case PathKind::Memcpy:
            return "memcpy";
        case PathKind::Memset:
            return "memset";
        case PathKind::Communication:
            return "communication";
        case PathKind::PeerWait:
            return "peer_wait";
        case PathKind::LaunchOverhead:
            return "launch_overhead";
        case PathKind::KernelGap:
            return "kernel_gap";
        case PathKind::None:
            break;
    }
    return "";
}

bool insideInputWait(const Trace& t, uint32_t slice) {
    const Slice& s = t.slices[slice];
    if (hostRole(s) == HostRole::InputWait) return true;
    const Track& track = t.tracks[t.trackOfSlice(slice)];
    uint16_t lane = 0;  // the slice's own row's: enclosing slices share it
    for (const Row& row : track.rows)
        if (slice >= row.begin && slice < row.end) lane = row.lane;
    for (const Row& row : track.rows) {
        if (row.depth >= s.depth || row.lane != lane) continue;
        const auto [lo, hi] = t.visibleInRow(row, s.start, s.start);
        for (uint32_t i = lo; i < hi; ++i) {
            const Slice& outer = t.slices[i];
            if (outer.start <= s.start && outer.end() >= s.end() &&
                hostRole(outer) == HostRole::InputWait)
                return true;
        }
    }
    return false;
}

namespace {

PathKind kindOf(const Trace& t, const PathEdge& e, std::unordered_map<uint32_t, bool>& input) {
    switch (e.kind) {
        case PathEdgeKind::KernelKernel:
            return PathKind::KernelGap;
        case PathEdgeKind::KernelLaunch:
            return PathKind::LaunchOverhead;
        case PathEdgeKind::Dependency:
        case PathEdgeKind::Sync:
            return PathKind::None;
        case PathEdgeKind::PeerWait:
            return PathKind::PeerWait;
        case PathEdgeKind::Operator:
            break;
    }
    if (e.attributed == kNone) return PathKind::None;
    const Slice& s = t.slices[e.attributed];
    switch (sliceKind(s)) {
        case SliceKind::Kernel:
            return PathKind::Kernel;
        case SliceKind::CommKernel:
            return PathKind::Communication;
        case SliceKind::Memcpy:
            return PathKind::Memcpy;
        case SliceKind::Memset:
            return PathKind::Memset;
        default:
            break;
    }
    auto [it, added] = input.try_emplace(e.attributed, false);
    if (added) it->second = insideInputWait(t, e.attributed);
    if (it->second) return PathKind::InputWait;
    if (isRuntimeKind(sliceKind(s))) return PathKind::RuntimeCall;
    // The step's own time: its thread in no op (Python, untraced work).
    return sliceKind(s) == SliceKind::CpuOp ? PathKind::CpuOp : PathKind::Host;
}

}  // namespace

void findLongestPath(const Trace& t, CriticalPath& out) {
    const PathGraph& g = out.graph;
    std::vector<TimeNs> weights(g.edges.size());
    for (size_t i = 0; i < g.edges.size(); ++i)
        weights[i] = g.edges[i].weight;
    LongestPath path = longestPath(g, weights);
    out.lengthNs = path.lengthNs;
    out.nodesLeftOut = path.nodesLeftOut;
    out.nodes = std::move(path.nodes);
    out.edges = std::move(path.edges);
    if (!g.peerWaits.empty()) out.distance = std::move(path.distance);
    std::unordered_map<uint32_t, bool> input;
    for (const uint32_t e : out.edges) {
        out.byBound[static_cast<size_t>(boundByOf(t, g.edges[e]))] += g.edges[e].weight;
        out.byKind[static_cast<size_t>(kindOf(t, g.edges[e], input))] += g.edges[e].weight;
    }
    for (const uint32_t v : out.nodes)
        out.slices.push_back(g.nodes[v].slice);
    std::sort(out.slices.begin(), out.slices.end());
    out.slices.erase(std::unique(out.slices.begin(), out.slices.end()), out.slices.end());
}

CriticalPath criticalPath(const Trace& trace, const LaunchCalls& calls,
                          const PathGraphOptions& options) {
    CriticalPath out;
    out.graph = buildPathGraph(trace, calls, options);
    out.cancelled = out.graph.cancelled;
    if (!out.cancelled) findLongestPath(trace, out);
    return out;
}

}  // namespace gapscope
