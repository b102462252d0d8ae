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
        case PathEdgeKind::Operator:
            break;
    }
    if (e.attributed == kNone) return BoundBy::None;
    const Slice& s = t.slices[e.attributed];
    if (!(s.flags & kSliceGpuActivity)) return BoundBy::Cpu;
    return sliceKind(s) == SliceKind::CommKernel ? BoundBy::GpuCommunication : BoundBy::GpuCompute;
}

LongestPath longestPath(const PathGraph& g, const std::vector<TimeNs>& weights) {
    LongestPath out;
    // One edge per pair of nodes, a later one replacing an earlier's
    // weight and kind in its place (a directed graph's edges, as networkx
    // keeps them); nodes in the order their first edge named them.
    std::unordered_map<uint64_t, uint32_t> edgeOf;
    std::vector<uint32_t> unique;
    std::vector<uint32_t> order;  // graph node -> its place in the node order (kNone: in no edge)
    std::vector<uint32_t> nodesInOrder;
    order.assign(g.nodes.size(), kNone);
    auto touch = [&](uint32_t n) {
        if (order[n] == kNone) {
            order[n] = static_cast<uint32_t>(nodesInOrder.size());
            nodesInOrder.push_back(n);
        }
    };
    for (uint32_t i = 0; i < g.edges.size(); ++i) {
        const PathEdge& e = g.edges[i];
        const uint64_t key = uint64_t{e.from} << 32 | e.to;
        auto [it, added] = edgeOf.try_emplace(key, static_cast<uint32_t>(unique.size()));
        if (added) {
            unique.push_back(i);
        } else {
            unique[it->second] = i;
        }
        touch(e.from);
        touch(e.to);
    }
    // Successors and predecessors in the order their edges came.
    const size_t n = nodesInOrder.size();
    std::vector<std::vector<uint32_t>> successors(n), predecessors(n);  // edge indices
    std::vector<uint32_t> inDegree(n, 0);
    for (const uint32_t i : unique) {
        const PathEdge& e = g.edges[i];
        successors[order[e.from]].push_back(i);
        predecessors[order[e.to]].push_back(i);
        ++inDegree[order[e.to]];
    }
    // Topological order, a generation at a time.
    std::vector<uint32_t> topo, generation, next;
    for (uint32_t v = 0; v < n; ++v)
        if (inDegree[v] == 0) generation.push_back(v);
    while (!generation.empty()) {
        next.clear();
        for (const uint32_t v : generation) {
            topo.push_back(v);
            for (const uint32_t e : successors[v])
                if (--inDegree[order[g.edges[e].to]] == 0) next.push_back(order[g.edges[e].to]);
        }
        std::swap(generation, next);
    }
    // (Nodes on a cycle, which times that go forward never make, are left out.)
    std::vector<TimeNs> dist(n, 0);
    std::vector<uint32_t> via(n, kNone);  // the edge the longest chain arrives by
    for (const uint32_t v : topo) {
        for (const uint32_t e : predecessors[v]) {
            const uint32_t u = order[g.edges[e].from];
            const TimeNs d = dist[u] + weights[e];
            if (via[v] == kNone || d > dist[v]) {
                dist[v] = d;
                via[v] = e;
            }
        }
    }
    if (topo.empty()) return out;
    uint32_t last = topo.front();
    for (const uint32_t v : topo)
        if (dist[v] > dist[last]) last = v;
    out.lengthNs = dist[last];
    std::vector<uint32_t> nodes{nodesInOrder[last]}, edges;
    for (uint32_t v = last; via[v] != kNone;) {
        edges.push_back(via[v]);
        v = order[g.edges[via[v]].from];
        nodes.push_back(nodesInOrder[v]);
    }
    std::reverse(nodes.begin(), nodes.end());
    std::reverse(edges.begin(), edges.end());
    out.nodes = std::move(nodes);
    out.edges = std::move(edges);
    return out;
}

const char* pathKindName(PathKind k) {
    switch (k) {
        case PathKind::CpuOp:
            return "cpu_op";
        case PathKind::RuntimeCall:
            return "runtime_call";
        case PathKind::InputWait:
            return "input_wait";
        case PathKind::Kernel:
            return "kernel";
        case PathKind::Memcpy:
            return "memcpy";
        case PathKind::Memset:
            return "memset";
        case PathKind::Communication:
            return "communication";
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
    for (const Row& row : t.tracks[t.trackOfSlice(slice)].rows) {
        if (row.depth >= s.depth) continue;
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
    return isRuntimeKind(sliceKind(s)) ? PathKind::RuntimeCall : PathKind::CpuOp;
}

}  // namespace

void findLongestPath(const Trace& t, CriticalPath& out) {
    const PathGraph& g = out.graph;
    std::vector<TimeNs> weights(g.edges.size());
    for (size_t i = 0; i < g.edges.size(); ++i)
        weights[i] = g.edges[i].weight;
    LongestPath path = longestPath(g, weights);
    out.lengthNs = path.lengthNs;
    out.nodes = std::move(path.nodes);
    out.edges = std::move(path.edges);
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
