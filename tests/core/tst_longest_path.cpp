// The critical path's longest path (analysis/critical_path.h) against
// networkx's dag_longest_path, which HTA calls, ported line by line below
// (a DiGraph's nodes, successors and predecessors kept in the order their
// first edge came; a later edge between the same two nodes replacing the
// first's weight; the topological order Kahn's generations; the first of
// equals wins). Random graphs with many equal weights and parallel edges
// make the ties that decide which of two chains is the path.

#include <QTest>
#include <algorithm>
#include <map>
#include <random>

#include "analysis/critical_path.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

// An ordered dict keyed by node: what networkx's adjacency is.
struct OrderedAdjacency {
    std::vector<uint32_t> keys;
    std::map<uint32_t, uint32_t> edgeOf;  // neighbour -> the pair's last edge
    void add(uint32_t neighbour, uint32_t edge) {
        if (!edgeOf.count(neighbour)) keys.push_back(neighbour);
        edgeOf[neighbour] = edge;
    }
};

struct Reference {
    TimeNs length = 0;
    std::vector<uint32_t> nodes, edges;
};

// networkx 3: DiGraph.add_edge for each edge in order; topological_sort
// through topological_generations; dag_longest_path.
Reference networkxLongestPath(const PathGraph& g, const std::vector<TimeNs>& weights) {
    std::vector<uint32_t> nodeOrder;
    std::map<uint32_t, OrderedAdjacency> succ, pred;
    auto addNode = [&](uint32_t v) {
        if (!succ.count(v)) {
            nodeOrder.push_back(v);
            succ[v];
            pred[v];
        }
    };
    for (uint32_t i = 0; i < g.edges.size(); ++i) {
        addNode(g.edges[i].from);
        addNode(g.edges[i].to);
        succ[g.edges[i].from].add(g.edges[i].to, i);
        pred[g.edges[i].to].add(g.edges[i].from, i);
    }
    std::map<uint32_t, size_t> indegree;
    std::vector<uint32_t> zero, topo;
    for (const uint32_t v : nodeOrder) {
        if (pred[v].keys.empty())
            zero.push_back(v);
        else
            indegree[v] = pred[v].keys.size();
    }
    while (!zero.empty()) {
        std::vector<uint32_t> generation;
        std::swap(generation, zero);
        for (const uint32_t v : generation) {
            topo.push_back(v);
            for (const uint32_t child : succ[v].keys)
                if (--indegree[child] == 0) zero.push_back(child);
        }
    }
    // dist[v] = (length, predecessor, edge), in topological order.
    std::vector<uint32_t> distOrder;
    std::map<uint32_t, std::tuple<TimeNs, uint32_t, uint32_t>> dist;
    for (const uint32_t v : topo) {
        std::tuple<TimeNs, uint32_t, uint32_t> best{0, v, kNone};
        bool any = false;
        for (const uint32_t u : pred[v].keys) {
            const uint32_t e = pred[v].edgeOf[u];
            const TimeNs d = std::get<0>(dist[u]) + weights[e];
            if (!any || d > std::get<0>(best)) best = {d, u, e};
            any = true;
        }
        dist[v] = best;
        distOrder.push_back(v);
    }
    Reference out;
    if (distOrder.empty()) return out;
    uint32_t v = distOrder.front();
    for (const uint32_t w : distOrder)
        if (std::get<0>(dist[w]) > std::get<0>(dist[v])) v = w;
    out.length = std::get<0>(dist[v]);
    for (uint32_t u = kNone; u != v;) {
        out.nodes.push_back(v);
        if (std::get<2>(dist[v]) != kNone) out.edges.push_back(std::get<2>(dist[v]));
        u = v;
        v = std::get<1>(dist[v]);
    }
    std::reverse(out.nodes.begin(), out.nodes.end());
    std::reverse(out.edges.begin(), out.edges.end());
    return out;
}

// A random graph: edges only from earlier to later in a shuffled rank (no
// cycle), in a random order, some doubled; weights 0 to 3 (many ties).
PathGraph randomDag(std::mt19937& rng, std::vector<TimeNs>& weights, uint32_t fewest = 2,
                    uint32_t most = 24, uint32_t fewestEdges = 1) {
    PathGraph g;
    const uint32_t n = std::uniform_int_distribution<uint32_t>(fewest, most)(rng);
    g.stored.resize(n + 2);  // two never named
    std::vector<uint32_t> rank(n);
    for (uint32_t i = 0; i < n; ++i)
        rank[i] = i;
    std::shuffle(rank.begin(), rank.end(), rng);
    const uint32_t m = std::uniform_int_distribution<uint32_t>(fewestEdges, 3 * n)(rng);
    std::uniform_int_distribution<uint32_t> node(0, n - 1);
    std::uniform_int_distribution<int> weight(0, 3), coin(0, 9);
    weights.clear();
    for (uint32_t i = 0; i < m; ++i) {
        uint32_t a = node(rng), b = node(rng);
        if (a == b) continue;
        if (rank[a] > rank[b]) std::swap(a, b);
        g.edges.push_back({a, b, weight(rng), PathEdgeKind::Operator, kNone});
        weights.push_back(g.edges.back().weight);
        if (coin(rng) == 0) {  // the same pair again, later
            g.edges.push_back({a, b, weight(rng), PathEdgeKind::Operator, kNone});
            weights.push_back(g.edges.back().weight);
        }
    }
    return g;
}

}  // namespace

class TestLongestPath : public QObject {
    Q_OBJECT

  private slots:
    void equalsNetworkxOnRandomGraphs_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("rounds");
        QTest::addColumn<uint>("fewestNodes");
        QTest::addColumn<uint>("mostNodes");
        QTest::addColumn<uint>("fewestEdges");
        QTest::addColumn<bool>("onTwoThreads");  // more than 2^16 edges
        QTest::newRow("small graphs") << 20261207 << 3000 << 2u << 24u << 1u << false;
        QTest::newRow("big graphs") << 20261208 << 4 << 30000u << 40000u << 70000u << true;
    }
    void equalsNetworkxOnRandomGraphs() {
        QFETCH(int, seed);
        QFETCH(int, rounds);
        QFETCH(uint, fewestNodes);
        QFETCH(uint, mostNodes);
        QFETCH(uint, fewestEdges);
        QFETCH(bool, onTwoThreads);
        std::mt19937 rng(static_cast<uint32_t>(seed));
        for (int round = 0; round < rounds; ++round) {
            std::vector<TimeNs> weights;
            const PathGraph g = randomDag(rng, weights, fewestNodes, mostNodes, fewestEdges);
            QCOMPARE(g.edges.size() > (size_t{1} << 16), onTwoThreads);
            const Reference want = networkxLongestPath(g, weights);
            const LongestPath got = longestPath(g, weights);
            QCOMPARE(got.lengthNs, want.length);
            QCOMPARE(got.nodes, want.nodes);
            QCOMPARE(got.edges, want.edges);
            QCOMPARE(got.nodesLeftOut, size_t{0});
            // The edges' own weights give the same.
            QCOMPARE(longestPath(g).nodes, want.nodes);
        }
    }

    // Every weight zero: every node is as long as any; networkx's path is
    // the first node in its order alone.
    void allEqualIsTheFirstNode() {
        PathGraph g;
        g.stored.resize(4);
        g.edges = {{2, 3, 0, PathEdgeKind::Dependency, kNone},
                   {0, 1, 0, PathEdgeKind::Dependency, kNone},
                   {3, 1, 0, PathEdgeKind::Dependency, kNone}};
        const LongestPath p = longestPath(g);
        QCOMPARE(p.nodes, std::vector<uint32_t>{2});
        QCOMPARE(p.lengthNs, TimeNs{0});
    }

    // A cycle (clocks that disagree) is left out and counted; the path is
    // the rest's.
    void aCycleIsLeftOut() {
        PathGraph g;
        g.stored.resize(5);
        g.edges = {{0, 1, 5, PathEdgeKind::Operator, kNone},
                   {2, 3, 1, PathEdgeKind::Operator, kNone},
                   {3, 2, 1, PathEdgeKind::Operator, kNone},
                   {1, 4, 2, PathEdgeKind::Operator, kNone}};
        const LongestPath p = longestPath(g);
        QCOMPARE(p.nodesLeftOut, size_t{2});
        QCOMPARE(p.lengthNs, TimeNs{7});
        QCOMPARE(p.nodes, (std::vector<uint32_t>{0, 1, 4}));
    }
};

GAPSCOPE_TEST_MAIN(TestLongestPath)
#include "tst_longest_path.moc"
