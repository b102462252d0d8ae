#pragma once
// The dependency graph of what ran in a window of one process's trace, as
// Holistic Trace Analysis builds it (docs/peers/hta-critical-path.md), so
// that the path through it is HTA's where the definitions agree:
//  - a start and an end node for each CPU op and runtime call that starts
//    in the window (and lasts), and for each GPU activity they launched;
//    and for each wait for input (a DataLoader's next) and the step's own
//    annotation, so that the time inside them between ops is on the chain
//    (HTA gives annotations no nodes; its traces have neither);
//  - on each thread, each top-level op a chain through its descendants'
//    nodes in time order (the time between them), the top-level ops joined
//    in program order at no cost; a call that blocks until the GPU is done
//    adds nothing for its tail (the GPU's chain into it stands for it);
//  - each activity's run; from its launch call's start to its start where
//    the stream was idle when it was launched (the launch overhead), else
//    from the previous activity on its stream (the gap between them);
//  - the waits, at no cost: a synchronize call's end after the GPU work it
//    waited for (the device's, a stream's, an event's), and a stream's next
//    activity after the work another stream recorded the event on;
//  - ranks of a job merged into one trace: each collective split where
//    the last rank entered it (the wait for that rank, then the transfer),
//    every rank's entry ordered before that point (the same collective:
//    the same name and record, the same instance on each rank; not a
//    point-to-point send or receive).

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "analysis/gpu_activity.h"
#include "analysis/launch_calls.h"
#include "analysis/launch_queues.h"
#include "model/trace.h"
#include "util/cancel_token.h"
#include "util/huge_vector.h"

namespace gapscope {

enum class PathEdgeKind : uint8_t {
    Operator,      // time in an op, a call or an activity
    Dependency,    // a thread's next top-level op: program order, no time
    KernelLaunch,  // a launch call's start to its work's start
    KernelKernel,  // a stream's gap between two activities
    Sync,          // the GPU work a wait waited for: no time
    PeerWait,      // a collective's wait for the last rank to enter it
};
inline constexpr size_t kPathEdgeKindCount = 6;
// HTA's names: "critical_path_operator", "critical_path_dependency", …
const char* pathEdgeKindName(PathEdgeKind kind);

struct PathNode {
    uint32_t slice = kNone;  // kNone: no node (a hole of a graph bySlice)
    bool end = false;
    // Inside a collective of ranks merged into one trace: when the last
    // rank entered it (neither its start nor its end).
    bool lastRankIn = false;
    TimeNs at = 0;
};

struct PathEdge {
    uint32_t from = 0, to = 0;  // node indices
    TimeNs weight = 0;          // never negative
    PathEdgeKind kind = PathEdgeKind::Operator;
    // The slice whose time an Operator or KernelKernel edge is (HTA's
    // attribution); kNone for the others.
    uint32_t attributed = kNone;
};

// Edges of one thread's chain walked as one (PathGraph::folds): members
// [first, first + count) of the graph's edges, from `from` to `to`, their
// weights summed. A single edge is a fold of one.
struct PathFold {
    uint32_t from = 0, to = 0;
    TimeNs weight = 0;
    uint32_t first = 0, count = 1;
};

struct PathGraphOptions {
    Interval window = kWholeTrace;
    // A kernel whose launch did not wait for an idle stream still cannot
    // start before its launch: a launch edge of no weight keeps that order
    // (HTA adds it with CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE, as its
    // tests do).
    bool zeroWeightLaunchEdges = true;
    const CancelToken* cancel = nullptr;
    // Most of a big trace of Kineto's: the GPU's part of the graph (and
    // the chain order of the threads the first core has not reached)
    // built on a second core, each slice's nodes at twice its index (the
    // same edges in the same order: the tests compare the two).
    bool twoCores = true;
    // The trace's launches and their queues (the index keeps them); built
    // for the call without. They must be built from the same launch table
    // as the one the graph is built with: a kernel's call is read from its
    // launch's record.
    const LaunchQueues* queues = nullptr;
    // A step's own slices (its ProfilerStep annotation on a CPU thread, one
    // per rank of a job merged into one trace): each thread's ops are a
    // chain inside it, so that the time between them is on it, and the
    // path ends at the end of one of them. None: HTA's graph, the path
    // ending wherever it is longest.
    std::vector<uint32_t> steps;
};

struct PathGraph {
    Interval window{};
    // Node v (v < nodeCount()): a slice's start (its end node follows it),
    // or a point inside a collective; a hole (slice kNone) where a graph
    // bySlice has a slice without nodes.
    PathNode node(uint32_t v) const {
        if (!bySlice) return stored[v];
        if (v >= 2 * sliceCount) return stored[v - 2 * sliceCount];
        if (hole(v)) return {};
        const uint32_t s = v / 2;
        return (v & 1) ? PathNode{s, true, false, slices[s].end()}
                       : PathNode{s, false, false, slices[s].start};
    }
    // A number bySlice whose slice has no nodes: named by no edge.
    bool hole(uint32_t v) const { return bySlice && v < 2 * sliceCount && !made[v / 2]; }
    size_t nodeCount() const { return (bySlice ? size_t{2} * sliceCount : 0) + stored.size(); }
    // A slice's start node (its end node follows it); kNone without nodes.
    uint32_t startNode(uint32_t slice) const {
        if (bySlice) return slice < sliceCount && made[slice] ? 2 * slice : kNone;
        return slice < startOf.size() ? startOf[slice] : kNone;
    }
    // Adds a node after the others: its index.
    uint32_t addNode(const PathNode& n) {
        stored.push_back(n);
        return static_cast<uint32_t>(nodeCount() - 1);
    }

    // (On huge pages: a whole trace's graph is hundreds of MB, whose first
    // touch in 4 KiB pages took a third of the path's time.)
    HugeVector<PathEdge> edges;  // in the order they were added
    // The nodes kept as such: all of them; or, bySlice, those after the
    // slices' (a slice's pair is its start and end, read from the trace).
    HugeVector<PathNode> stored;
    HugeVector<uint32_t> startOf;  // by slice, without bySlice
    // Most of a big trace: each slice's nodes at twice its index (those
    // that have nodes: `made`), read from the trace's slices (which must
    // outlive the graph), not kept.
    bool bySlice = false;
    const Slice* slices = nullptr;
    uint32_t sliceCount = 0;
    HugeVector<uint8_t> made;  // by slice
    // The longest path's walk of a graph bySlice built with the trace's
    // launch queues (PathGraphOptions::queues): each thread's chain
    // (its edges come first, in chain order) folded between the nodes
    // other edges name too (a call's start that launched GPU work, a
    // call's end that waited for some), each fold ending on an edge of
    // time (so none of its inner nodes can be where the path ends). Edges
    // [0, foldedEdges) are walked as `folds`, the rest one by one. Empty:
    // every edge walked as it is.
    HugeVector<PathFold> folds;
    uint32_t foldedEdges = 0;
    // Where the path may end (a step's end on each rank); none: anywhere.
    std::vector<uint32_t> endNodes;
    // Collectives of several ranks whose instances could not be paired
    // (a name run a different number of times on the ranks, a subgroup).
    size_t unmatchedCollectives = 0;
    // Each rank's wait in a collective for the last rank (a PeerWait edge),
    // and the point that follows every rank's entry (its hub): a what-if
    // that moves the last entry moves the end of the wait with it.
    std::vector<std::pair<uint32_t, uint32_t>> peerWaits;  // (edge, hub node)
    bool cancelled = false;
};

PathGraph buildPathGraph(const Trace& trace, const LaunchCalls& calls,
                         const PathGraphOptions& options);

}  // namespace gapscope
