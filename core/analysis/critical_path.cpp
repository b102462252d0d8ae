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
    LongestPath path = longestPath(g);
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
        out.slices.push_back(g.node(v).slice);
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
