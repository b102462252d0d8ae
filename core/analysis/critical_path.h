#pragma once
// What bounded a window: the longest chain through the dependency graph of
// what ran in it (critical_path_graph.h), and what its time was spent on.
// The length is the graph's longest path over every start and end (as HTA
// finds it: networkx's dag_longest_path, whose choices among equal
// chains this follows: the first predecessor of the longest distance, the
// first node in topological order to reach it).

#include <array>
#include <vector>

#include "analysis/critical_path_graph.h"

namespace gapscope {

// What a piece of the path is, as HTA's summary names it: CPU time (ops
// and runtime calls), a kernel's or copy's run, a collective's, the launch
// overhead before a kernel started, a stream's gap between two kernels;
// None for the edges that only order (program order, a wait's end).
enum class BoundBy : uint8_t { Cpu, GpuCompute, GpuCommunication, LaunchOverhead, KernelGap, None };
inline constexpr size_t kBoundByCount = 6;
// "cpu_bound", "gpu_compute_bound", "gpu_communication_bound",
// "gpu_kernel_launch_overhead", "gpu_kernel_kernel_overhead", "".
const char* boundByName(BoundBy b);

// The same time in finer kinds, as people ask: an op's own time, a runtime
// call's, the loop's wait for input (and the CPU's work in it), the step's
// thread in no op (Python, untraced work), a kernel's run, a copy's, a
// memset's, a collective's, a collective's wait for the last rank to enter
// it (ranks merged), the launch overhead, a stream's gap; None for the
// edges that only order.
enum class PathKind : uint8_t {
    CpuOp,
    RuntimeCall,
    InputWait,
    Host,
    Kernel,
    Memcpy,
    Memset,
    Communication,
    PeerWait,
    LaunchOverhead,
    KernelGap,
    None,
};
inline constexpr size_t kPathKindCount = 12;
const char* pathKindName(PathKind k);  // "op", "runtime_call", "input_wait", …

struct CriticalPath {
    PathGraph graph;
    TimeNs lengthNs = 0;
    std::vector<uint32_t> nodes;  // the path's nodes, first to last (graph.node(v))
    std::vector<uint32_t> edges;  // the edges between them (graph.edges indices)
    std::array<TimeNs, kBoundByCount> byBound{};
    std::array<TimeNs, kPathKindCount> byKind{};
    std::vector<uint32_t> slices;  // every slice with a node on the path, sorted
    size_t nodesLeftOut = 0;       // on a cycle of the graph (clocks that disagree)
    // The longest chain to each node, kept where ranks wait for each other
    // (graph.peerWaits): a what-if's waits are measured against it.
    std::vector<TimeNs> distance;
    bool cancelled = false;
};

BoundBy boundByOf(const Trace& trace, const PathEdge& edge);

// Whether a CPU slice is, or is inside, the training loop's wait for input.
bool insideInputWait(const Trace& trace, uint32_t slice);

CriticalPath criticalPath(const Trace& trace, const LaunchCalls& calls,
                          const PathGraphOptions& options);

// The longest path of a built graph (its edges' weights summed).
void findLongestPath(const Trace& trace, CriticalPath& path);

struct LongestPath {
    TimeNs lengthNs = 0;
    std::vector<uint32_t> nodes, edges;
    size_t nodesLeftOut = 0;       // on a cycle: no order holds them
    std::vector<TimeNs> distance;  // the longest chain to each node
};
// The longest path of a graph whose edges weigh `weights` (one per edge).
// With `measured` (the distances of the graph as it ran), a rank's wait in
// a collective (graph.peerWaits) is shortened by as much as the point
// after every rank's entry moved earlier: the last rank entering sooner
// ends the wait sooner, all else unchanged.
LongestPath longestPath(const PathGraph& graph, const std::vector<TimeNs>& weights,
                        const std::vector<TimeNs>* measured = nullptr);
// … whose edges weigh what they say.
LongestPath longestPath(const PathGraph& graph);
// A wait's weight with the hub's distance now and as measured.
inline TimeNs shortenedWait(TimeNs wait, TimeNs hubMeasured, TimeNs hubNow) {
    return std::max<TimeNs>(0, wait - std::max<TimeNs>(0, hubMeasured - hubNow));
}

}  // namespace gapscope
