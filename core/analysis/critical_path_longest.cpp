// The longest path of a path graph, as networkx's dag_longest_path finds
// it (HTA calls it): each node's longest distance over its predecessors in
// the order their first edge came (the first of equals wins), a later edge
// between the same two nodes taking the first's place with its own weight;
// the path ends at the first node of the longest distance in Kahn's
// generation order (the nodes without predecessors in the order their
// first edge named them, then each generation's successors as they are
// freed).
//
// Walking the generations in that order takes a table per node and a pass
// per table over millions of nodes; the distances do not depend on the
// order. So one pass in any topological order finds every distance and
// each node's generation (its longest chain of edges from a node without
// predecessors); only where two nodes of the longest distance share the
// least generation is the exact order walked, to choose between them.
//
// A graph's folds (PathGraph::folds: a thread's chain between the nodes
// other edges name) are walked as one edge each: its members' summed
// weight, its count of edges added to the generation, its last member's
// place among the edges into its end. Its inner nodes have one edge in and
// one out, so each one's distance and generation follow from the fold's
// start; and a fold ends on an edge of time, so none of them can be where
// the path ends (each is shorter than the fold's end, after it); nor is a
// fold any other edge's pair of nodes. The path is then listed member by member.
// Where two ends tie, or a cycle holds nodes back, the graph is walked
// again edge by edge.

#include <algorithm>

#include "analysis/critical_path.h"
#include "util/executor.h"
#include "util/huge_vector.h"
#include "util/saturating.h"

namespace gapscope {

namespace {

// Kahn's generation order exactly as networkx walks it (one edge per pair
// of nodes, successors in the order their first edge came).
std::vector<uint32_t> generationOrder(const PathGraph& g) {
    const size_t n = g.nodeCount(), m = g.edges.size();
    std::vector<uint8_t> named(n, 0);
    std::vector<uint32_t> nodesInOrder, succStart(n + 1, 0), inDegree(n, 0);
    for (const PathEdge& e : g.edges)
        for (const uint32_t v : {e.from, e.to})
            if (!named[v]) {
                named[v] = 1;
                nodesInOrder.push_back(v);
            }
    // Each distinct (from, to) once, where it first came.
    std::vector<uint32_t> firstOf(m), order(m);
    for (uint32_t i = 0; i < m; ++i)
        order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        return std::pair(g.edges[a].from, g.edges[a].to) <
               std::pair(g.edges[b].from, g.edges[b].to);
    });
    std::vector<uint8_t> distinct(m, 0);
    for (size_t i = 0; i < m; ++i) {
        const PathEdge& e = g.edges[order[i]];
        const bool first =
            i == 0 || g.edges[order[i - 1]].from != e.from || g.edges[order[i - 1]].to != e.to;
        if (!first) continue;
        distinct[order[i]] = 1;
        ++succStart[e.from + 1];
        ++inDegree[e.to];
    }
    for (size_t v = 0; v < n; ++v)
        succStart[v + 1] += succStart[v];
    std::vector<uint32_t> succTo(succStart[n]), fill(succStart.begin(), succStart.end() - 1);
    for (uint32_t i = 0; i < m; ++i)
        if (distinct[i]) succTo[fill[g.edges[i].from]++] = g.edges[i].to;
    std::vector<uint32_t> topo, generation, next;
    for (const uint32_t v : nodesInOrder)
        if (inDegree[v] == 0) generation.push_back(v);
    while (!generation.empty()) {
        next.clear();
        for (const uint32_t v : generation) {
            topo.push_back(v);
            for (uint32_t a = succStart[v]; a < succStart[v + 1]; ++a)
                if (--inDegree[succTo[a]] == 0) next.push_back(succTo[a]);
        }
        std::swap(generation, next);
    }
    return topo;
}

// What the longest path keeps of a node, side by side: a relaxation
// touches one cache line, not five tables. All zero before the walk (a
// fresh mapping: a table of a hundred MB that nothing clears).
struct NodeState {
    TimeNs dist;
    uint32_t viaPlus1;  // the edge whose weight the chain arrives by, + 1; 0: none
    uint32_t viaPlace;  // where that pair's first edge came (pred order)
    uint32_t generation;
    uint32_t waiting;  // incoming edges not yet relaxed
    bool reached() const { return viaPlus1 != 0; }
    uint32_t via() const { return viaPlus1 - 1; }
};

// The edges the walk relaxes, by a number of their own: a graph's edges
// one by one, weighed by `weightOf(edge)`.
template <class WeightOf>
struct EdgeByEdge {
    const PathGraph& g;
    const WeightOf& weightOf;
    size_t size() const { return g.edges.size(); }
    uint32_t from(uint32_t i) const { return g.edges[i].from; }
    uint32_t to(uint32_t i) const { return g.edges[i].to; }
    TimeNs weight(uint32_t i) const { return weightOf(i); }
    // Where the edge into its target came among the graph's edges.
    uint32_t place(uint32_t i) const { return i; }
    uint32_t count(uint32_t) const { return 1; }
    uint32_t ofEdge(uint32_t edge) const { return edge; }
    // f(edge) for its edges, the last first.
    template <class F>
    void membersBackward(uint32_t i, F&& f) const {
        f(i);
    }
    template <class F>
    void forEach(F&& f) const {
        for (uint32_t i = 0; i < g.edges.size(); ++i)
            f(i, g.edges[i].from, g.edges[i].to);
    }
    static constexpr bool kFolded = false;
};

// A graph's folds, then its edges after them one by one, weighing what
// they say.
struct ByFold {
    const PathGraph& g;
    uint32_t folds = static_cast<uint32_t>(g.folds.size()), past = g.foldedEdges;
    size_t size() const { return folds + g.edges.size() - past; }
    uint32_t from(uint32_t i) const {
        return i < folds ? g.folds[i].from : g.edges[past + i - folds].from;
    }
    uint32_t to(uint32_t i) const {
        return i < folds ? g.folds[i].to : g.edges[past + i - folds].to;
    }
    TimeNs weight(uint32_t i) const {
        return i < folds ? g.folds[i].weight : g.edges[past + i - folds].weight;
    }
    uint32_t place(uint32_t i) const {
        return i < folds ? g.folds[i].first + g.folds[i].count - 1 : past + i - folds;
    }
    uint32_t count(uint32_t i) const { return i < folds ? g.folds[i].count : 1; }
    // (Only edges after the folds are named by number: waits for a rank.)
    uint32_t ofEdge(uint32_t edge) const { return folds + edge - past; }
    template <class F>
    void membersBackward(uint32_t i, F&& f) const {
        if (i >= folds) {
            f(past + i - folds);
            return;
        }
        for (uint32_t k = g.folds[i].count; k-- > 0;)
            f(g.folds[i].first + k);
    }
    template <class F>
    void forEach(F&& f) const {
        for (uint32_t i = 0; i < folds; ++i)
            f(i, g.folds[i].from, g.folds[i].to);
        for (uint32_t e = past; e < g.edges.size(); ++e)
            f(folds + e - past, g.edges[e].from, g.edges[e].to);
    }
    static constexpr bool kFolded = true;
};

// Each node's outgoing edges and each edge's target beside it, in the
// order they came: counted into their node's end, then placed from the
// last edge back, each node's end moving down to its start.
struct Successors {
    HugeVector<uint32_t> start, edge, to;  // start: n + 1, by node
};
template <class Walk>
Successors successorsOf(size_t n, const Walk& walk) {
    const size_t m = walk.size();
    Successors out;
    out.start.assign(n + 1, 0);
    walk.forEach([&](uint32_t, uint32_t from, uint32_t) { ++out.start[from]; });
    for (size_t v = 1; v <= n; ++v)
        out.start[v] += out.start[v - 1];
    out.edge.resize(m);
    out.to.resize(m);
    for (uint32_t i = static_cast<uint32_t>(m); i-- > 0;) {
        const uint32_t at = --out.start[walk.from(i)];
        out.edge[at] = i;
        out.to[at] = walk.to(i);
    }
    return out;
}

// Graphs smaller than this are done on the calling thread: a task costs
// more than their passes (a step's graph, the tests' thousands of graphs).
constexpr size_t kEdgesWorthATask = size_t{1} << 16;

LongestPath longestPathByEdge(const PathGraph& g, const std::vector<TimeNs>* weights,
                              const std::vector<TimeNs>* measured);

template <class Walk>
LongestPath longestPathWith(const PathGraph& g, const Walk& walk,
                            const std::vector<TimeNs>* measured) {
    LongestPath out;
    const size_t n = g.nodeCount(), m = walk.size();
    // The two passes over the edges (each node's successors; each node's
    // count of incoming edges) are independent: a big graph's on two
    // cores. (Each pass reads every edge and writes a table of its own.)
    Executor::Pending<Successors> later;
    if (m >= kEdgesWorthATask)
        later =
            sharedExecutor(Priority::Analyses).submit([n, &walk] { return successorsOf(n, walk); });
    ZeroedHugeArray<NodeState> s(n);
    size_t withIn = 0;  // nodes with an edge in
    walk.forEach([&](uint32_t, uint32_t, uint32_t to) { withIn += s[to].waiting++ == 0; });
    const Successors succ = later.valid() ? later.get() : successorsOf(n, walk);
    const HugeVector<uint32_t>&succStart = succ.start, &succEdge = succ.edge, &succTo = succ.to;
    // A rank's wait for the last entry (with `measured`) is weighed once
    // its hub's distance is final: when its target's last edge is in.
    std::vector<uint32_t> hubOf;
    std::vector<std::pair<uint32_t, uint32_t>> deferred;  // (target, walk's edge), by target
    if (measured && !g.peerWaits.empty()) {
        hubOf.assign(m, kNone);
        for (const auto& [e, hub] : g.peerWaits)
            hubOf[walk.ofEdge(e)] = hub;
    }
    auto relax = [&](uint32_t from, uint32_t to, uint32_t place, uint32_t edge, TimeNs w) {
        NodeState& v = s[to];
        const TimeNs d = saturatingAdd(s[from].dist, w);
        if (!v.reached() || d > v.dist || (d == v.dist && place < v.viaPlace)) {
            v.dist = d;
            v.viaPlus1 = edge + 1;
            v.viaPlace = place;
        }
    };
    // Kahn's walk, relaxing each node's edges once its distance is final.
    // Last in, first out: a node freed is walked next, so a chain (a
    // thread's ops, a stream's kernels) is walked along its nodes in the
    // order they lie, not a node of every chain in turn.
    // The sources: edges out, none in. (Nodes no edge names, a graph
    // bySlice's holes and a fold's inner nodes among them, are not walked.)
    std::vector<uint32_t> ready;
    for (uint32_t v = 0; v < n; ++v)
        if (succStart[v + 1] > succStart[v] && s[v].waiting == 0) ready.push_back(v);
    size_t named = withIn + ready.size(), walked = 0;
    std::reverse(ready.begin(), ready.end());  // (the first source first)
    auto applyDeferred = [&](uint32_t v) {
        auto it = std::lower_bound(deferred.begin(), deferred.end(), std::pair(v, 0u));
        for (; it != deferred.end() && it->first == v; ++it) {
            const uint32_t e = it->second;
            const uint32_t hub = hubOf[e];
            const TimeNs w = shortenedWait(walk.weight(e), (*measured)[hub], s[hub].dist);
            relax(walk.from(e), v, walk.place(e), e, w);
        }
    };
    if (!hubOf.empty()) {
        // (Pairs of a wait are never parallel edges: a wait's source is a
        // run's start and its target the run's own point.)
        for (const auto& [e, hub] : g.peerWaits)
            deferred.emplace_back(g.edges[e].to, walk.ofEdge(e));
        std::sort(deferred.begin(), deferred.end());
    }
    // The first node of the longest distance in generation order: the
    // least generation; the exact order only between equals (which the
    // walk's order does not change: chosen as each node is walked, when
    // its distance and generation are final).
    TimeNs longest = 0;
    uint32_t farthest = kNone;
    bool tie = false;
    while (!ready.empty()) {
        const uint32_t u = ready.back();
        ready.pop_back();
        ++walked;
        if (const NodeState& x = s[u]; farthest == kNone || x.dist >= longest) {
            if (farthest == kNone || x.dist > longest || x.generation < s[farthest].generation) {
                longest = x.dist;
                farthest = u;
                tie = false;
            } else if (x.generation == s[farthest].generation) {
                tie = true;
            }
        }
        const uint32_t lo = succStart[u], hi = succStart[u + 1];
        for (uint32_t a = lo; a < hi; ++a) {
            const uint32_t to = succTo[a];
            // One edge per pair of nodes: the pair's first edge gives the
            // place, its last the weight (rare: few edges leave a node). A
            // fold of several is no other edge's pair: its last edge leaves
            // an inner node.
            bool earlier = false;
            uint32_t last = succEdge[a];
            if (hi - lo > 1 && walk.count(last) == 1) {
                for (uint32_t b = lo; b < a && !earlier; ++b)
                    earlier = succTo[b] == to && walk.count(succEdge[b]) == 1;
                if (!earlier)
                    for (uint32_t b = a + 1; b < hi; ++b)
                        if (succTo[b] == to && walk.count(succEdge[b]) == 1) last = succEdge[b];
            }
            if (!earlier && (hubOf.empty() || hubOf[last] == kNone))
                relax(u, to, walk.place(succEdge[a]), last, walk.weight(last));
            NodeState& v = s[to];
            v.generation = std::max(v.generation, s[u].generation + walk.count(succEdge[a]));
            if (--v.waiting == 0) {
                if (!hubOf.empty()) applyDeferred(to);
                ready.push_back(to);
            }
        }
    }
    // Nodes on a cycle (clocks that disagree can make one) are left out, and
    // counted: the path is then of the rest of the graph.
    // Walked again edge by edge, which real traces rarely need: where two
    // ends tie (the exact order is of every node, a fold's inner ones
    // too), and where a cycle holds nodes back (a fold's inner nodes may
    // then be walked where its end is not, and end the path).
    if (Walk::kFolded && (tie || walked != named)) return longestPathByEdge(g, nullptr, measured);
    out.nodesLeftOut = named - walked;
    if (walked == 0) return out;
    if (tie)
        for (const uint32_t v : generationOrder(g))
            if (s[v].dist == longest) {
                farthest = v;
                break;
            }
    // A step's path ends at a step's end (of the rank whose chain to it is
    // longest, where the graph reaches one).
    bool atEnd = false;
    for (const uint32_t end : g.endNodes)
        if (end < n && s[end].reached() && s[end].waiting == 0 &&
            (!atEnd || s[end].dist > s[farthest].dist)) {
            farthest = end;
            atEnd = true;
        }
    out.lengthNs = s[farthest].dist;
    out.nodes.push_back(farthest);
    for (uint32_t v = farthest; s[v].reached();)
        walk.membersBackward(s[v].via(), [&](uint32_t e) {
            out.edges.push_back(e);
            v = g.edges[e].from;
            out.nodes.push_back(v);
        });
    std::reverse(out.nodes.begin(), out.nodes.end());
    std::reverse(out.edges.begin(), out.edges.end());
    if (!g.peerWaits.empty()) {
        out.distance.resize(n);
        for (size_t v = 0; v < n; ++v)  // (0 on a cycle, as nothing reached it)
            out.distance[v] = s[v].waiting == 0 ? s[v].dist : 0;
    }
    if (Walk::kFolded && !out.distance.empty()) {
        // A fold's inner nodes: their distances from its start's.
        for (const PathFold& f : g.folds) {
            if (f.count < 2 || s[f.from].waiting != 0) continue;
            TimeNs d = s[f.from].dist;
            for (uint32_t k = 0; k + 1 < f.count; ++k) {
                d = saturatingAdd(d, g.edges[f.first + k].weight);
                out.distance[g.edges[f.first + k].to] = d;
            }
        }
    }
    return out;
}

LongestPath longestPathByEdge(const PathGraph& g, const std::vector<TimeNs>* weights,
                              const std::vector<TimeNs>* measured) {
    if (weights) {
        auto weightOf = [weights](uint32_t e) { return (*weights)[e]; };
        return longestPathWith(g, EdgeByEdge<decltype(weightOf)>{g, weightOf}, measured);
    }
    auto weightOf = [&g](uint32_t e) { return g.edges[e].weight; };
    return longestPathWith(g, EdgeByEdge<decltype(weightOf)>{g, weightOf}, measured);
}

}  // namespace

// (A what-if's weights are the edges', each scaled: walked one by one.)
LongestPath longestPath(const PathGraph& g, const std::vector<TimeNs>& weights,
                        const std::vector<TimeNs>* measured) {
    return longestPathByEdge(g, &weights, measured);
}

LongestPath longestPath(const PathGraph& g) {
    if (g.folds.empty()) return longestPathByEdge(g, nullptr, nullptr);
    return longestPathWith(g, ByFold{g}, nullptr);
}

}  // namespace gapscope
