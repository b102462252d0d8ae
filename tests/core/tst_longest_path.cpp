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

// A graph shaped as the critical path's: chains first (a thread's ops,
// each chain's edges in order), then edges across them and to other nodes
// (launches, waits), some doubled; weights 0 to `most`, about a quarter of
// them 0 (few ties where most is large, many where it is small).
// `backward` edges against the nodes' order make cycles. Its chains are
// folded as the graph's builder folds them: between the nodes another
// edge names, each fold ending on its last edge of time.
PathGraph chainedGraph(std::mt19937& rng, int backward, int most) {
    PathGraph g;
    std::uniform_int_distribution<int> weight(-most / 3 - 1, most), coin(0, 9);
    auto weightOf = [&] { return std::max(0, weight(rng)); };
    std::vector<std::pair<uint32_t, uint32_t>> chains;  // (first edge, edges)
    uint32_t nodes = 0;
    const int chainCount = std::uniform_int_distribution<int>(1, 4)(rng);
    for (int c = 0; c < chainCount; ++c) {
        const uint32_t length = std::uniform_int_distribution<uint32_t>(1, 14)(rng);
        chains.emplace_back(static_cast<uint32_t>(g.edges.size()), length);
        for (uint32_t i = 0; i < length; ++i)
            g.edges.push_back(
                {nodes + i, nodes + i + 1, weightOf(), PathEdgeKind::Operator, kNone});
        nodes += length + 1;
    }
    nodes += std::uniform_int_distribution<uint32_t>(0, 6)(rng);  // nodes of no chain
    g.stored.resize(nodes + 1);                                   // one never named
    const uint32_t across = std::uniform_int_distribution<uint32_t>(0, nodes)(rng);
    std::uniform_int_distribution<uint32_t> node(0, nodes - 1);
    auto addAcross = [&](uint32_t a, uint32_t b) {
        g.edges.push_back({a, b, weightOf(), PathEdgeKind::Sync, kNone});
        if (coin(rng) == 0) g.edges.push_back({a, b, weightOf(), PathEdgeKind::Sync, kNone});
    };
    for (uint32_t i = 0; i < across; ++i) {
        uint32_t a = node(rng), b = node(rng);
        if (a == b) continue;
        addAcross(std::min(a, b), std::max(a, b));
    }
    for (int i = 0; i < backward; ++i) {
        const uint32_t a = node(rng), b = node(rng);
        if (a > b) addAcross(a, b);
    }
    // Which chain nodes other edges name.
    std::vector<uint8_t> named(nodes, 0);
    const size_t chainEdges = chains.empty() ? 0 : chains.back().first + chains.back().second;
    for (size_t e = chainEdges; e < g.edges.size(); ++e)
        named[g.edges[e].from] = named[g.edges[e].to] = 1;
    for (const auto& [first, length] : chains) {
        uint32_t e = first;
        const uint32_t end = first + length;
        while (e < end) {
            // The run: up to the next node another edge names.
            uint32_t stop = e + 1;
            while (stop < end && !named[g.edges[stop].from])
                ++stop;
            uint32_t timed = e;  // one past its last edge of time
            for (uint32_t k = e; k < stop; ++k)
                if (g.edges[k].weight > 0) timed = k + 1;
            if (timed - e >= 2) {
                TimeNs w = 0;
                for (uint32_t k = e; k < timed; ++k)
                    w += g.edges[k].weight;
                g.folds.push_back({g.edges[e].from, g.edges[timed - 1].to, w, e, timed - e});
                e = timed;
            }
            for (; e < stop; ++e)
                g.folds.push_back({g.edges[e].from, g.edges[e].to, g.edges[e].weight, e, 1});
        }
    }
    g.foldedEdges = static_cast<uint32_t>(chainEdges);
    return g;
}

std::vector<TimeNs> ownWeights(const PathGraph& g) {
    std::vector<TimeNs> out;
    for (const PathEdge& e : g.edges)
        out.push_back(e.weight);
    return out;
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

    // A graph's chains walked as folds give networkx's path through every
    // edge (listed edge by edge); with cycles, the same path and count of
    // nodes left out as the graph walked edge by edge.
    void foldedChainsAreWalkedAsTheirEdges_data() {
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("backward");
        QTest::addColumn<int>("most");  // weights 0 to most
        QTest::newRow("no cycle, many ties") << 20261209 << 0 << 3;
        QTest::newRow("no cycle, few ties") << 20261211 << 0 << 1000;
        QTest::newRow("cycles") << 20261210 << 2 << 3;
        QTest::newRow("cycles, few ties") << 20261212 << 2 << 1000;
    }
    void foldedChainsAreWalkedAsTheirEdges() {
        QFETCH(int, seed);
        QFETCH(int, backward);
        QFETCH(int, most);
        std::mt19937 rng(static_cast<uint32_t>(seed));
        size_t folded = 0, leftOut = 0;
        for (int round = 0; round < 3000; ++round) {
            const PathGraph g = chainedGraph(rng, backward, most);
            PathGraph unfolded = g;
            unfolded.folds = {};
            unfolded.foldedEdges = 0;
            const LongestPath got = longestPath(g), want = longestPath(unfolded);
            if (backward == 0) {
                const Reference networkx = networkxLongestPath(g, ownWeights(g));
                QCOMPARE(got.lengthNs, networkx.length);
                QCOMPARE(got.nodes, networkx.nodes);
                QCOMPARE(got.edges, networkx.edges);
            }
            QCOMPARE(got.lengthNs, want.lengthNs);
            QCOMPARE(got.nodes, want.nodes);
            QCOMPARE(got.edges, want.edges);
            QCOMPARE(got.nodesLeftOut, want.nodesLeftOut);
            for (const PathFold& f : g.folds)
                folded += f.count > 1;
            leftOut += got.nodesLeftOut;
        }
        QVERIFY(folded > 1000);  // (folds of several edges were walked)
        QCOMPARE(leftOut > 0, backward > 0);
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
