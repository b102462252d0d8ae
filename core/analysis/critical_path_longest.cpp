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

#include <algorithm>

#include "analysis/critical_path.h"
#include "util/huge_vector.h"
#include "util/saturating.h"

namespace gapscope {

namespace {

// Kahn's generation order exactly as networkx walks it (one edge per pair
// of nodes, successors in the order their first edge came).
std::vector<uint32_t> generationOrder(const PathGraph& g) {
    const size_t n = g.nodes.size(), m = g.edges.size();
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
// touches one cache line, not five tables.
struct NodeState {
    TimeNs dist = 0;
    uint32_t via = kNone;       // the edge whose weight the chain arrives by
    uint32_t viaPlace = kNone;  // where that pair's first edge came (pred order)
    uint32_t generation = 0;
    uint32_t waiting = 0;  // incoming edges not yet relaxed
};

// `weightOf(edge)`: an edge's weight.
template <class WeightOf>
LongestPath longestPathWith(const PathGraph& g, const WeightOf& weightOf,
                            const std::vector<TimeNs>* measured) {
    LongestPath out;
    const size_t n = g.nodes.size(), m = g.edges.size();
    HugeVector<NodeState> s(n);
    // Each node's outgoing edges, and each edge's target beside it, in the
    // order they came: counted into their node's end, then placed from
    // the last edge back, each node's end moving down to its start.
    HugeVector<uint32_t> succStart(n + 1, 0);
    for (const PathEdge& e : g.edges) {
        ++succStart[e.from];
        ++s[e.to].waiting;
    }
    for (size_t v = 1; v <= n; ++v)
        succStart[v] += succStart[v - 1];
    HugeVector<uint32_t> succEdge(m), succTo(m);
    for (uint32_t i = static_cast<uint32_t>(m); i-- > 0;) {
        const uint32_t at = --succStart[g.edges[i].from];
        succEdge[at] = i;
        succTo[at] = g.edges[i].to;
    }
    // A rank's wait for the last entry (with `measured`) is weighed once
    // its hub's distance is final: when its target's last edge is in.
    std::vector<uint32_t> hubOf;
    std::vector<std::pair<uint32_t, uint32_t>> deferred;  // (target, edge place), by target
    if (measured && !g.peerWaits.empty()) {
        hubOf.assign(m, kNone);
        for (const auto& [e, hub] : g.peerWaits)
            hubOf[e] = hub;
    }
    auto relax = [&](uint32_t from, uint32_t to, uint32_t place, uint32_t edge, TimeNs w) {
        NodeState& v = s[to];
        const TimeNs d = saturatingAdd(s[from].dist, w);
        if (v.via == kNone || d > v.dist || (d == v.dist && place < v.viaPlace)) {
            v.dist = d;
            v.via = edge;
            v.viaPlace = place;
        }
    };
    // Kahn's walk, relaxing each node's edges once its distance is final.
    // Last in, first out: a node freed is walked next, so a chain (a
    // thread's ops, a stream's kernels) is walked along its nodes in the
    // order they lie, not a node of every chain in turn.
    std::vector<uint32_t> ready;
    size_t named = 0, walked = 0;
    for (uint32_t v = 0; v < n; ++v) {
        const bool hasEdges = s[v].waiting > 0 || succStart[v + 1] > succStart[v];
        named += hasEdges;
        if (hasEdges && s[v].waiting == 0) ready.push_back(v);
    }
    std::reverse(ready.begin(), ready.end());  // (the first source first)
    auto applyDeferred = [&](uint32_t v) {
        auto it = std::lower_bound(deferred.begin(), deferred.end(), std::pair(v, 0u));
        for (; it != deferred.end() && it->first == v; ++it) {
            const uint32_t e = it->second;
            const uint32_t hub = hubOf[e];
            const TimeNs w = shortenedWait(weightOf(e), (*measured)[hub], s[hub].dist);
            relax(g.edges[e].from, v, e, e, w);
        }
    };
    if (!hubOf.empty()) {
        // (Pairs of a wait are never parallel edges: a wait's source is a
        // run's start and its target the run's own point.)
        for (const auto& [e, hub] : g.peerWaits)
            deferred.emplace_back(g.edges[e].to, e);
        std::sort(deferred.begin(), deferred.end());
    }
    while (!ready.empty()) {
        const uint32_t u = ready.back();
        ready.pop_back();
        ++walked;
        const uint32_t lo = succStart[u], hi = succStart[u + 1];
        for (uint32_t a = lo; a < hi; ++a) {
            const uint32_t to = succTo[a];
            // One edge per pair of nodes: the pair's first edge gives the
            // place, its last the weight (rare: few edges leave a node).
            bool earlier = false;
            uint32_t last = succEdge[a];
            if (hi - lo > 1) {
                for (uint32_t b = lo; b < a && !earlier; ++b)
                    earlier = succTo[b] == to;
                if (!earlier)
                    for (uint32_t b = a + 1; b < hi; ++b)
                        if (succTo[b] == to) last = succEdge[b];
            }
            if (!earlier && (hubOf.empty() || hubOf[last] == kNone))
                relax(u, to, succEdge[a], last, weightOf(last));
            NodeState& v = s[to];
            v.generation = std::max(v.generation, s[u].generation + 1);
            if (--v.waiting == 0) {
                if (!hubOf.empty()) applyDeferred(to);
                ready.push_back(to);
            }
        }
    }
    // Nodes on a cycle (clocks that disagree can make one) are left out, and
    // counted: the path is then of the rest of the graph.
    out.nodesLeftOut = named - walked;
    if (walked == 0) return out;
    // Walked: every in-edge relaxed, and named by an edge.
    auto walkedNode = [&](uint32_t v) {
        return s[v].waiting == 0 && (s[v].via != kNone || succStart[v + 1] > succStart[v]);
    };
    // The first node of the longest distance in generation order: the
    // least generation; the exact order only between equals. (One pass
    // over the nodes in their order, which touches each once in turn.)
    TimeNs longest = 0;
    uint32_t last = kNone;
    bool tie = false;
    for (uint32_t v = 0; v < n; ++v) {
        if (!walkedNode(v) || (last != kNone && s[v].dist < longest)) continue;
        if (last == kNone || s[v].dist > longest || s[v].generation < s[last].generation) {
            longest = s[v].dist;
            last = v;
            tie = false;
        } else if (s[v].generation == s[last].generation) {
            tie = true;
        }
    }
    if (tie)
        for (const uint32_t v : generationOrder(g))
            if (s[v].dist == longest) {
                last = v;
                break;
            }
    // A step's path ends at a step's end (of the rank whose chain to it is
    // longest, where the graph reaches one).
    bool atEnd = false;
    for (const uint32_t end : g.endNodes)
        if (end < n && s[end].via != kNone && s[end].waiting == 0 &&
            (!atEnd || s[end].dist > s[last].dist)) {
            last = end;
            atEnd = true;
        }
    out.lengthNs = s[last].dist;
    out.nodes.push_back(last);
    for (uint32_t v = last; s[v].via != kNone;) {
        out.edges.push_back(s[v].via);
        v = g.edges[s[v].via].from;
        out.nodes.push_back(v);
    }
    std::reverse(out.nodes.begin(), out.nodes.end());
    std::reverse(out.edges.begin(), out.edges.end());
    if (!g.peerWaits.empty()) {
        out.distance.resize(n);
        for (size_t v = 0; v < n; ++v)  // (0 on a cycle, as nothing reached it)
            out.distance[v] = s[v].waiting == 0 ? s[v].dist : 0;
    }
    return out;
}

}  // namespace

LongestPath longestPath(const PathGraph& g, const std::vector<TimeNs>& weights,
                        const std::vector<TimeNs>* measured) {
    return longestPathWith(
        g, [&](uint32_t e) { return weights[e]; }, measured);
}

LongestPath longestPath(const PathGraph& g) {
    return longestPathWith(
        g, [&](uint32_t e) { return g.edges[e].weight; }, nullptr);
}

}  // namespace gapscope
