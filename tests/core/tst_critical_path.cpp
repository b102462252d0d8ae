// The critical path (analysis/critical_path.h, `gapscope-cli
// critical-path`) on traces with a planted path: a chain through a device
// synchronize, a kernel held by another stream's event, an input stall
// before the step's work. Each path's length and composition are the
// planted numbers' own arithmetic (µs in the files), written out here; a
// what-if on work off the path leaves it unchanged, one on the path
// shortens it by the planted amount or hands it to the next-longest chain.
// (HTA's own traces are compared with HTA run beside us: critical_path_vs_hta.)

#include <QTest>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "analysis/analysis_index.h"
#include "analysis/critical_path_what_if.h"
#include "loader/loader.h"
#include "model/merge_traces.h"
#include "report/analysis_registry.h"
#include "support/planted_job.h"
#include "support/suite_main.h"
#include "support/trace_files.h"

using namespace gapscope;

namespace {

std::string traceOf(const std::string& events) {
    return R"({"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3","totalGlobalMem":85520809984,"numSms":132}],
"traceEvents":[)" +
           events + "]}";
}

// A CPU op launching a 500 µs kernel, a cudaDeviceSynchronize waiting for
// it, then an add; an op on another thread that waits for nothing.
const char* kSyncChain = R"(
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::mul","ts":0,"dur":100},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":10,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"k_long","ts":20,"dur":500,"args":{"device":0,"stream":7,"correlation":1}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaDeviceSynchronize","ts":110,"dur":420,"args":{"correlation":2}},
{"ph":"X","cat":"cuda_sync","pid":0,"tid":-1,"name":"Context Sync","ts":525,"dur":5,"args":{"device":0,"stream":-1,"correlation":2,"cuda_sync_kind":"Context Sync"}},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::add","ts":540,"dur":60},
{"ph":"X","cat":"cpu_op","pid":1,"tid":2,"name":"aten::other","ts":0,"dur":50}
)";

// k_b, launched at 30 µs onto stream 8, waits (cudaStreamWaitEvent) for the
// event recorded on stream 7 after k_a: it starts when k_a ends.
const char* kCrossStream = R"(
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":0,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"k_a","ts":10,"dur":300,"args":{"device":0,"stream":7,"correlation":1}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaEventRecord","ts":10,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaStreamWaitEvent","ts":20,"dur":2,"args":{"correlation":3}},
{"ph":"X","cat":"cuda_sync","pid":0,"tid":8,"name":"Stream Wait Event","ts":22,"dur":1,"args":{"device":0,"stream":8,"correlation":3,"cuda_sync_kind":"Stream Wait Event","wait_on_stream":7,"wait_on_cuda_event_record_corr_id":2}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":30,"dur":5,"args":{"correlation":4}},
{"ph":"X","cat":"kernel","pid":0,"tid":8,"name":"k_b","ts":310,"dur":100,"args":{"device":0,"stream":8,"correlation":4}}
)";

// The training loop waits 400 µs for a batch whose making takes 300 µs of
// CPU ops, then a matrix product's kernel runs 200 µs.
const char* kInputStall = R"(
{"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__","ts":0,"dur":400},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::randn","ts":10,"dur":300},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::mm","ts":410,"dur":40},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":420,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"gemm","ts":430,"dur":200,"args":{"device":0,"stream":7,"correlation":1}}
)";

// A launch and a 200 µs all-reduce.
const char* kCollective = R"(
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":0,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","ts":10,"dur":200,"args":{"device":0,"stream":7,"correlation":1}}
)";

// Two ranks, whose traces are textOf(0) and textOf(1), merged into one.
std::shared_ptr<const Trace> twoRanks(const std::function<std::string(int)>& textOf) {
    std::vector<RankPart> parts;
    for (int r = 0; r < 2; ++r) {
        LoadResult one = test::loadJsonText(textOf(r));
        if (!one.trace) throw std::runtime_error("a rank did not load");
        parts.push_back({r,
                         "host",
                         "rank" + std::to_string(r) + ".json",
                         0,
                         std::const_pointer_cast<Trace>(std::move(one.trace)),
                         {}});
    }
    return mergeRankTraces(std::move(parts), "job");
}

// `edit` changes a rank's trace text before it loads.
std::shared_ptr<const Trace> jobOf(bool lateStart,
                                   const std::function<void(int, std::string&)>& edit = {}) {
    return twoRanks([&](int r) {
        std::string text = test::plantedRankOfJob(r, lateStart);
        if (edit) edit(r, text);
        return text;
    });
}

// Step 1 (1000 µs) whose thread waits in backward() while the autograd
// engine's thread of the same process runs the backward ops (200-400 and
// 450-800 µs); forward before (50-150), the optimizer after (850-900); an
// op of the other thread running on past the wait (820-870).
const char* kBackwardThread = R"(
{"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#1","ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::linear","ts":50,"dur":100},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"Optimizer.step#SGD.step","ts":850,"dur":50},
{"ph":"X","cat":"cpu_op","pid":1,"tid":2,"name":"autograd::engine::evaluate_function: MmBackward0","ts":200,"dur":200},
{"ph":"X","cat":"cpu_op","pid":1,"tid":2,"name":"autograd::engine::evaluate_function: AddBackward0","ts":450,"dur":350},
{"ph":"X","cat":"cpu_op","pid":1,"tid":2,"name":"aten::straddles","ts":820,"dur":50}
)";

// eachRankKeepsToItsOwnStep's ranks: rank 1's step 1 lasts 1200 µs;
// rank 0 runs ahead into step 2 (an all-reduce at 1020); each sends to or
// receives from the other once (a SendRecv kernel).
void rankAhead(int rank, std::string& text) {
    const std::string end = "]}";
    if (rank == 1) {
        text.replace(text.find(R"("ts":0,"dur":1000)"), 17, R"("ts":0,"dur":1200)");
        text.insert(text.rfind(end), R"(,
{"ph":"X","cat":"kernel","pid":0,"tid":21,"name":"ncclDevKernel_SendRecv","ts":650,"dur":30,"args":{"device":0,"stream":21,"correlation":9}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":640,"dur":5,"args":{"correlation":9}})");
        return;
    }
    text.insert(text.rfind(end), R"(,
{"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#2","ts":1000,"dur":300},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":1005,"dur":5,"args":{"correlation":7}},
{"ph":"X","cat":"kernel","pid":0,"tid":20,"name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","ts":1020,"dur":80,"args":{"device":0,"stream":20,"correlation":7}},
{"ph":"X","cat":"kernel","pid":0,"tid":21,"name":"ncclDevKernel_SendRecv","ts":20,"dur":700,"args":{"device":0,"stream":21,"correlation":9}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":10,"dur":5,"args":{"correlation":9}})");
}

struct Path {
    bool operator==(const Path&) const = default;
    int64_t pathNs = 0;
    std::optional<int64_t> projectedNs;
    std::map<std::string, int64_t> byBound;  // the non-zero ones
    std::map<std::string, int64_t> byKind;   // likewise
    std::set<std::string> slices;
    std::vector<std::string> nodes;  // "name start|end @µs", first to last
    std::string unmatched;           // the what-ifs that named nothing
};

Path pathIn(const Trace& t, const AnalysisIndex* index, const std::vector<std::string>& whatIfs,
            std::optional<int64_t> step) {
    AnalysisOptions options;
    options.set("slices");
    for (const std::string& w : whatIfs)
        options.add("what-if", w);
    Scope scope;
    scope.index = index;
    scope.step = step;
    const AnalysisResult r =
        computeAnalysis(*analysisRegistry().find("critical-path"), t, scope, options);
    Path p;
    p.pathNs = integerOr(r.figure("path_ns"));
    if (const auto* i = std::get_if<int64_t>(&r.figure("projected_ns"))) p.projectedNs = *i;
    if (const auto* u = std::get_if<std::string>(&r.figure("what_ifs_unmatched"))) p.unmatched = *u;
    const ResultTable* c = r.table("composition");
    for (size_t i = 0; i < c->rows.size(); ++i)
        if (const int64_t ns = integerOr(c->at(i, "ns")); ns != 0)
            p.byBound[textOr(c->at(i, "bound_by"))] = ns;
    const ResultTable* k = r.table("kinds");
    for (size_t i = 0; i < k->rows.size(); ++i)
        if (const int64_t ns = integerOr(k->at(i, "ns")); ns != 0)
            p.byKind[textOr(k->at(i, "kind"))] = ns;
    const ResultTable* s = r.table("path_slices");
    for (size_t i = 0; i < s->rows.size(); ++i)
        p.slices.insert(textOr(s->at(i, "name")));
    const ResultTable* nodes = r.table("path");
    for (size_t i = 0; i < nodes->rows.size(); ++i)
        p.nodes.push_back(textOr(nodes->at(i, "name")) + " " + textOr(nodes->at(i, "point")) +
                          " @" + std::to_string(integerOr(nodes->at(i, "at_ns")) / 1000));
    return p;
}

// The path without the index and with it (its launch queues kept); the
// test checks `sameWithIndex`.
struct Paths : Path {
    bool sameWithIndex = false;
};
Paths pathOf(const char* events, const std::vector<std::string>& whatIfs = {},
             std::optional<int64_t> step = std::nullopt) {
    const LoadResult loaded = test::loadJsonText(traceOf(events));
    if (!loaded.trace) throw std::runtime_error("the planted trace did not load");
    const AnalysisIndex index(*loaded.trace);
    Paths p;
    static_cast<Path&>(p) = pathIn(*loaded.trace, nullptr, whatIfs, step);
    p.sameWithIndex = static_cast<const Path&>(p) == pathIn(*loaded.trace, &index, whatIfs, step);
    return p;
}

// A trace of Kineto's big enough for the graph's two parts to be built on
// two cores: two threads launching kernels onto three streams (queues
// that wait and streams that idle), a device synchronize every fifth
// launch, a stream's wait for another's event every seventh, a stream
// synchronize every eleventh; and ops without a launch between them.
std::string manyLaunches(int launches) {
    std::string out;
    auto add = [&](const std::string& event) {
        if (!out.empty()) out += ",\n";
        out += event;
    };
    auto x = [](const char* cat, int pid, int tid, const std::string& name, int64_t ts, int64_t dur,
                const std::string& args = "") {
        return "{\"ph\":\"X\",\"cat\":\"" + std::string(cat) + "\",\"pid\":" + std::to_string(pid) +
               ",\"tid\":" + std::to_string(tid) + ",\"name\":\"" + name +
               "\",\"ts\":" + std::to_string(ts) + ",\"dur\":" + std::to_string(dur) +
               (args.empty() ? "" : ",\"args\":{" + args + "}") + "}";
    };
    auto corr = [](int c) { return "\"correlation\":" + std::to_string(c); };
    auto gpu = [&](int stream, int c) {
        return "\"device\":0,\"stream\":" + std::to_string(stream) + "," + corr(c);
    };
    int c = 0;
    int64_t busyUntil[3] = {0, 0, 0};
    for (int i = 0; i < launches; ++i) {
        const int tid = 1 + i % 2, stream = i % 3;
        const int64_t t = int64_t(i) * 20;
        add(x("cpu_op", 1, tid, "aten::mm", t, 16));
        add(x("cuda_runtime", 1, tid, "cudaLaunchKernel", t + 2, 4, corr(++c)));
        const int64_t start = std::max(t + 8, busyUntil[stream] + 1);
        const int64_t dur = 10 + (i * 37) % 90;
        busyUntil[stream] = start + dur;
        add(x("kernel", 0, 7 + stream, "gemm_" + std::to_string(i % 4), start, dur,
              gpu(7 + stream, c)));
        add(x("cpu_op", 1, tid, "aten::view", t + 7, 1));
        if (i % 5 == 4) {
            add(x("cuda_runtime", 1, tid, "cudaDeviceSynchronize", t + 9, 5, corr(++c)));
            add(x(
                "cuda_sync", 0, -1, "Context Sync", t + 12, 2,
                "\"device\":0,\"stream\":-1," + corr(c) + ",\"cuda_sync_kind\":\"Context Sync\""));
        } else if (i % 7 == 6) {
            add(x("cuda_runtime", 1, tid, "cudaEventRecord", t + 9, 1, corr(++c)));
            const int recorded = c;
            add(x("cuda_runtime", 1, tid, "cudaStreamWaitEvent", t + 11, 1, corr(++c)));
            add(x("cuda_sync", 0, 8, "Stream Wait Event", t + 12, 1,
                  gpu(8, c) +
                      ",\"cuda_sync_kind\":\"Stream Wait Event\",\"wait_on_stream\":7,"
                      "\"wait_on_cuda_event_record_corr_id\":" +
                      std::to_string(recorded)));
        } else if (i % 11 == 10) {
            add(x("cuda_runtime", 1, tid, "cudaStreamSynchronize", t + 9, 5, corr(++c)));
            add(x("cuda_sync", 0, 9, "Stream Sync", t + 12, 2,
                  gpu(9, c) + ",\"cuda_sync_kind\":\"Stream Sync\""));
        }
    }
    return out;
}

// Two ranks of manyLaunches, each ending with the same all-reduce, rank 1
// entering it later: merged into one trace.
std::shared_ptr<const Trace> manyLaunchesJob(int launches) {
    return twoRanks([&](int r) {
        const int64_t at = int64_t(launches) * 20 + 100 + r * 300;
        const std::string allReduce =
            ",\n{\"ph\":\"X\",\"cat\":\"cuda_runtime\",\"pid\":1,\"tid\":1,\"name\":"
            "\"cudaLaunchKernel\",\"ts\":" +
            std::to_string(at) +
            ",\"dur\":5,\"args\":{\"correlation\":999999}},\n{\"ph\":\"X\",\"cat\":"
            "\"kernel\",\"pid\":0,\"tid\":7,\"name\":\"ncclDevKernel_AllReduce_Sum_f32_RING_LL\","
            "\"ts\":" +
            std::to_string(at + 10) +
            ",\"dur\":900,\"args\":{\"device\":0,\"stream\":7,\"correlation\":999999}}";
        return traceOf(manyLaunches(launches) + allReduce);
    });
}

// An edge as its ends' slices and times (the node numbers differ between
// the ways a graph is built).
using EdgeSeen =
    std::tuple<uint32_t, bool, bool, TimeNs, uint32_t, bool, bool, TimeNs, TimeNs, int, uint32_t>;
std::vector<EdgeSeen> edgesSeen(const PathGraph& g) {
    std::vector<EdgeSeen> out;
    for (const PathEdge& e : g.edges) {
        const PathNode a = g.node(e.from), b = g.node(e.to);
        out.emplace_back(a.slice, a.end, a.lastRankIn, a.at, b.slice, b.end, b.lastRankIn, b.at,
                         e.weight, static_cast<int>(e.kind), e.attributed);
    }
    return out;
}

// A path as its nodes and its edges are (their numbers differ between the
// ways a graph is built).
using NodeSeen = std::tuple<uint32_t, bool, bool, TimeNs>;
NodeSeen nodeSeen(const PathGraph& g, uint32_t v) {
    const PathNode n = g.node(v);
    return {n.slice, n.end, n.lastRankIn, n.at};
}
std::pair<std::vector<NodeSeen>, std::vector<EdgeSeen>> pathSeen(const CriticalPath& p) {
    std::pair<std::vector<NodeSeen>, std::vector<EdgeSeen>> out;
    for (const uint32_t v : p.nodes)
        out.first.push_back(nodeSeen(p.graph, v));
    const std::vector<EdgeSeen> all = edgesSeen(p.graph);
    for (const uint32_t e : p.edges)
        out.second.push_back(all[e]);
    return out;
}
// Each node's longest chain, where it is kept (ranks waiting for each other).
std::map<NodeSeen, TimeNs> distancesSeen(const CriticalPath& p) {
    std::map<NodeSeen, TimeNs> out;
    for (uint32_t v = 0; v < p.distance.size(); ++v)
        if (!p.graph.hole(v)) out[nodeSeen(p.graph, v)] = p.distance[v];
    return out;
}

}  // namespace

class TestCriticalPath : public QObject {
    Q_OBJECT
  private slots:
    // mul's 10 µs to its launch, 10 µs until the kernel starts, the
    // kernel's 500 µs, the synchronize returns as it ends, the add's 60 µs:
    // 580 µs. The CPU's own chain (mul 100, the sync's tail free, add 60)
    // is 160 µs; the other thread's op 50 µs.
    void aChainThroughASynchronize() {
        const Paths p = pathOf(kSyncChain);
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(580000));
        const std::map<std::string, int64_t> want{{"cpu_bound", 70000},
                                                  {"gpu_compute_bound", 500000},
                                                  {"gpu_kernel_launch_overhead", 10000}};
        QCOMPARE(p.byBound, want);
        // mul's 10 µs before its launch call: an op's; the add's 60.
        const std::map<std::string, int64_t> kinds{
            {"op", 70000}, {"kernel", 500000}, {"launch_overhead", 10000}};
        QCOMPARE(p.byKind, kinds);
        QVERIFY(p.slices.count("k_long") && p.slices.count("cudaDeviceSynchronize") &&
                p.slices.count("aten::add"));
        QVERIFY(!p.slices.count("aten::other"));
        QVERIFY(!p.projectedNs);
    }

    void whatIfOnTheSyncChain_data() {
        QTest::addColumn<QString>("whatIf");
        QTest::addColumn<qint64>("projectedNs");
        QTest::newRow("a kernel on the path, twice as fast")
            << "kernel:k_long=0.5" << qint64(330000);
        QTest::newRow("a pattern") << "kernel:k_*=0.5" << qint64(330000);
        QTest::newRow("an op off the path") << "op:aten::other=0.1" << qint64(580000);
        QTest::newRow("an op on the path") << "op:aten::add=0.5" << qint64(550000);
        QTest::newRow("no launch overhead") << "launch=0" << qint64(570000);
        // Without the kernel the CPU's own chain bounds the step: mul's 100,
        // the add's 60.
        QTest::newRow("the kernel gone") << "kernel:k_long=0" << qint64(160000);
    }
    void whatIfOnTheSyncChain() {
        QFETCH(QString, whatIf);
        QFETCH(qint64, projectedNs);
        const Paths p = pathOf(kSyncChain, {whatIf.toStdString()});
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(580000));
        QVERIFY(p.projectedNs);
        QCOMPARE(*p.projectedNs, int64_t(projectedNs));
    }

    // A big trace's graph built on two cores (each slice's nodes at twice
    // its index, the GPU's part beside the threads') is the graph built on
    // one, edge for edge in the same order; so is its path.
    void twoCoresBuildTheSameGraph() {
        const LoadResult loaded = test::loadJsonText(traceOf(manyLaunches(16000)));
        QVERIFY(loaded.trace);
        const Trace& t = *loaded.trace;
        QVERIFY(t.slices.size() > (size_t{1} << 16));
        const LaunchCalls calls(t);
        const LaunchQueues queues(t, calls);
        PathGraphOptions two, one;
        two.queues = &queues;  // (as the index gives them: the chains folded)
        one.twoCores = false;
        const CriticalPath a = criticalPath(t, calls, two), b = criticalPath(t, calls, one);
        QVERIFY(a.graph.bySlice);
        QVERIFY(!b.graph.bySlice);
        QVERIFY(edgesSeen(a.graph) == edgesSeen(b.graph));
        QVERIFY(b.graph.edges.size() > 100000);
        QCOMPARE(a.lengthNs, b.lengthNs);
        QCOMPARE(a.slices, b.slices);
        QCOMPARE(a.byKind, b.byKind);
        QCOMPARE(a.nodesLeftOut, size_t{0});
        // With the trace's queues, its threads' chains walked as folds (most
        // of their edges inside one), the path listed edge by edge: the
        // same path. (Without them, as the path alone is asked for, none.)
        QVERIFY(!a.graph.folds.empty());
        QVERIFY(a.graph.folds.size() * 2 < a.graph.foldedEdges);
        QVERIFY(b.graph.folds.empty());
        QVERIFY(pathSeen(a) == pathSeen(b));
        const CriticalPath alone = criticalPath(t, calls, PathGraphOptions{});
        QVERIFY(alone.graph.bySlice && alone.graph.folds.empty());
        QVERIFY(pathSeen(alone) == pathSeen(b));
        // Every kind of wait is in it.
        std::set<int> kinds;
        for (const PathEdge& e : a.graph.edges)
            kinds.insert(static_cast<int>(e.kind));
        QVERIFY(kinds.count(static_cast<int>(PathEdgeKind::Sync)));
        QVERIFY(kinds.count(static_cast<int>(PathEdgeKind::KernelKernel)));
        QVERIFY(kinds.count(static_cast<int>(PathEdgeKind::KernelLaunch)));
        // Each slice's start node, either way.
        for (const uint32_t slice : a.slices)
            QCOMPARE(a.graph.node(a.graph.startNode(slice)).slice, slice);
    }

    // Ranks merged into one trace, built on two cores: the same graph, each
    // rank's wait for the last to enter the all-reduce included, and the
    // same projection where a rank is made as fast as the median.
    void twoCoresBuildTheSameJobGraph() {
        const std::shared_ptr<const Trace> job = manyLaunchesJob(9000);
        QVERIFY(job->slices.size() > (size_t{1} << 16));
        const LaunchCalls calls(*job);
        const LaunchQueues queues(*job, calls);
        PathGraphOptions two, one;
        two.queues = &queues;
        one.twoCores = false;
        const CriticalPath a = criticalPath(*job, calls, two), b = criticalPath(*job, calls, one);
        QVERIFY(a.graph.bySlice);
        QVERIFY(!b.graph.bySlice);
        QCOMPARE(a.graph.peerWaits.size(), size_t(2));
        QVERIFY(edgesSeen(a.graph) == edgesSeen(b.graph));
        QCOMPARE(a.lengthNs, b.lengthNs);
        QCOMPARE(a.slices, b.slices);
        QVERIFY(!a.graph.folds.empty());
        QVERIFY(pathSeen(a) == pathSeen(b));
        // Every node's longest chain (a fold's inner nodes too), against
        // which a what-if measures the ranks' waits.
        QVERIFY(!a.distance.empty());
        QVERIFY(distancesSeen(a) == distancesSeen(b));
        std::string error;
        const std::vector<WhatIf> fast{*parseWhatIf("rank:1=0.5", error),
                                       *parseWhatIf("kernel:gemm_1=0.5", error)};
        const Projection pa = projectPath(*job, a, fast), pb = projectPath(*job, b, fast);
        QCOMPARE(pa.lengthNs, pb.lengthNs);
        QVERIFY(pa.lengthNs < a.lengthNs);
        QCOMPARE(pa.byBound, pb.byBound);
    }

    // Cancelled, a graph built on two cores says so (and the report
    // projects nothing from it).
    void twoCoresCancelled() {
        const LoadResult loaded = test::loadJsonText(traceOf(manyLaunches(16000)));
        QVERIFY(loaded.trace);
        CancelToken cancel;
        cancel.cancel();
        PathGraphOptions o;
        o.cancel = &cancel;
        const CriticalPath p = criticalPath(*loaded.trace, LaunchCalls(*loaded.trace), o);
        QVERIFY(p.cancelled);
        QVERIFY(p.graph.cancelled);
    }

    // The wait: k_a's launch 10 µs, k_a 300 µs, k_b 100 µs from k_a's end:
    // 410 µs (without the wait k_b's chain would be 130 µs, k_a's 310 µs).
    void aKernelHeldByAnotherStreamsEvent() {
        const Paths p = pathOf(kCrossStream);
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(410000));
        const std::map<std::string, int64_t> want{{"gpu_compute_bound", 400000},
                                                  {"gpu_kernel_launch_overhead", 10000}};
        QCOMPARE(p.byBound, want);
        QVERIFY(p.slices.count("k_a") && p.slices.count("k_b"));
        QCOMPARE(*pathOf(kCrossStream, {"kernel:k_b=0.5"}).projectedNs, int64_t(360000));
        QCOMPARE(*pathOf(kCrossStream, {"kernel:k_a=0.5"}).projectedNs, int64_t(260000));
    }

    // The wait for the batch, 400 µs (its 300 µs of CPU ops and the 100 µs
    // around them), mm's 10 µs to its launch, 10 µs to the kernel, 200 µs
    // of it: 620 µs; with the input free, 220 µs.
    void anInputStall() {
        const Paths p = pathOf(kInputStall);
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(620000));
        const std::map<std::string, int64_t> want{{"cpu_bound", 410000},
                                                  {"gpu_compute_bound", 200000},
                                                  {"gpu_kernel_launch_overhead", 10000}};
        QCOMPARE(p.byBound, want);
        QVERIFY(p.slices.count("enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"));
        // The wait is the input's; mm's 10 µs before its launch an op's.
        const std::map<std::string, int64_t> kinds{
            {"input_wait", 400000}, {"op", 10000}, {"kernel", 200000}, {"launch_overhead", 10000}};
        QCOMPARE(p.byKind, kinds);
        QCOMPARE(*pathOf(kInputStall, {"input=0"}).projectedNs, int64_t(220000));
        // Two what-ifs at once: the input free and the kernel twice as fast.
        QCOMPARE(*pathOf(kInputStall, {"input=0", "kernel:gemm=0.5"}).projectedNs, int64_t(120000));
    }

    // A step's path ends at the step's end: its own 100 µs to mm, mm's 10
    // to its launch, 20 to gemm's start, gemm's 600, the synchronize
    // returning with it, the step's 160 to the next launch, its 10, the
    // step's last 90: 990 µs (the sync's 10 µs of return no one's, as
    // HTA's). Without the step (HTA's graph: program order free) the
    // longest chain starts at mm and runs on to k_tail's end: 10 + 20 +
    // 600, the synchronize, the next launch free, 15 + 500 = 1145 µs.
    void aStepsPathEndsAtItsEnd() {
        const Paths p = pathOf(test::kPlantedStepEvents, {}, 1);
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(990000));
        const std::map<std::string, int64_t> kinds{{"host", 350000},
                                                   {"op", 10000},
                                                   {"runtime_call", 10000},
                                                   {"launch_overhead", 20000},
                                                   {"kernel", 600000}};
        QCOMPARE(p.byKind, kinds);
        const std::vector<std::string> nodes{"ProfilerStep#1 start @0",
                                             "aten::mm start @100",
                                             "cudaLaunchKernel start @110",
                                             "gemm start @130",
                                             "gemm end @730",
                                             "cudaDeviceSynchronize end @740",
                                             "cudaLaunchKernel start @900",
                                             "cudaLaunchKernel end @910",
                                             "ProfilerStep#1 end @1000"};
        QCOMPARE(p.nodes, nodes);
        QCOMPARE(pathOf(test::kPlantedStepEvents).pathNs, int64_t(1145000));
        // gemm twice as fast: 300 µs less; k_tail is no part of this step's path.
        QCOMPARE(*pathOf(test::kPlantedStepEvents, {"kernel:gemm=0.5"}, 1).projectedNs,
                 int64_t(690000));
        QCOMPARE(*pathOf(test::kPlantedStepEvents, {"kernel:k_tail=0.1"}, 1).projectedNs,
                 int64_t(990000));
    }

    // A late rank: rank 0 waits in the all-reduce from 120 to 600 µs for
    // rank 1, whose 500 µs op made it late. The path runs through rank 1's
    // work (its step's 50, the op's 500, 10 to its launch, 40 to the
    // kernel), the all-reduce's 120 once both are in, the synchronize, the
    // step's last 270: 990 µs, no wait on it (the late rank explains it).
    // rank:1=median: each rank alone (without waiting) takes 510 µs (rank
    // 0: 100 + 5 + 15 + 120 + 270) and 990 µs (rank 1): median 750, so
    // rank 1's work takes 750/990 of its time, and reaches the all-reduce
    // at 454.546 µs (each edge rounded: 37879 + 378788 + 7576 + 30303 ns);
    // rank 0 enters at 120 and waits for it: 454.546 + 120 + 270.
    void aLateRankBoundsTheJob() {
        const std::shared_ptr<const Trace> job = jobOf(false);
        const AnalysisIndex index(*job);
        for (const AnalysisIndex* withIndex :
             {static_cast<const AnalysisIndex*>(nullptr), &index}) {
            const Path p = pathIn(*job, withIndex, {"rank:1=median"}, 1);
            QCOMPARE(p.pathNs, int64_t(990000));
            const std::map<std::string, int64_t> kinds{{"host", 330000},
                                                       {"op", 500000},
                                                       {"launch_overhead", 40000},
                                                       {"communication", 120000}};
            QCOMPARE(p.byKind, kinds);
            QVERIFY(p.slices.count("aten::slow"));
            QVERIFY(!p.slices.count("c10d::allreduce_"));
            QCOMPARE(*p.projectedNs, int64_t(454546 + 120000 + 270000));
            // Rank 0 as fast as the median: it is faster already, no change.
            QCOMPARE(*pathIn(*job, withIndex, {"rank:0=median"}, 1).projectedNs, int64_t(990000));
            // Rank 1's op twice as fast: the wait shrinks by 250 µs.
            QCOMPARE(*pathIn(*job, withIndex, {"op:aten::slow=0.5"}, 1).projectedNs,
                     int64_t(740000));
        }
    }

    // Rank 1's step starts late (300 µs), and it does nothing before its
    // launch: rank 0's wait in the all-reduce (480 µs) is on the path,
    // waiting for a peer rank: its step's 100, the op's 5, 15 to the
    // kernel, the wait, the 120 of the all-reduce, the step's last 270.
    void aWaitForAPeerRank() {
        const std::shared_ptr<const Trace> job = jobOf(true);
        const Path p = pathIn(*job, nullptr, {}, 1);
        QCOMPARE(p.pathNs, int64_t(990000));
        const std::map<std::string, int64_t> kinds{{"host", 370000},
                                                   {"op", 5000},
                                                   {"launch_overhead", 15000},
                                                   {"peer_wait", 480000},
                                                   {"communication", 120000}};
        QCOMPARE(p.byKind, kinds);
        QVERIFY(std::find(p.nodes.begin(), p.nodes.end(),
                          "ncclDevKernel_AllReduce_Sum_f32_RING_LL last_rank_in @600") !=
                p.nodes.end());
        // A what-if that changes nothing projects the path as it ran.
        QCOMPARE(*pathIn(*job, nullptr, {"comm=1"}, 1).projectedNs, int64_t(990000));
        // Alone, rank 0 takes 510 µs, rank 1 690 (260 + 40 + 120 + 270):
        // median 600. Rank 0 is faster already; rank 1 at 600/690 of its
        // time reaches the all-reduce 39.130 µs sooner (226087 + 34783 ns
        // from its step's start), and rank 0's wait ends as much sooner:
        // 120 + (480 - 39.130) + 120 + 270.
        QCOMPARE(*pathIn(*job, nullptr, {"rank:0=median"}, 1).projectedNs, int64_t(990000));
        QCOMPARE(*pathIn(*job, nullptr, {"rank:1=median"}, 1).projectedNs,
                 int64_t(120000 + 480000 - (300000 - 260870) + 120000 + 270000));
        // Without the step (HTA's graph, one path over both ranks) the
        // wait is there too.
        QVERIFY(pathIn(*job, nullptr, {}, std::nullopt).byKind.count("peer_wait"));
    }

    // Rank 1's step 1 lasts 1200 µs, and rank 0 ran ahead into step 2 (an
    // all-reduce at 1020) inside that hull: each rank keeps to its own
    // step, so step 1's all-reduces still pair (none unmatched), and the
    // path ends at rank 1's end: its 600 to the all-reduce, 120, its last
    // 470 (the synchronize returns at 730). A send and a receive are
    // never paired as a collective of the group.
    void eachRankKeepsToItsOwnStep() {
        const std::shared_ptr<const Trace> job = jobOf(false, &rankAhead);
        Scope scope;
        scope.step = 1;
        AnalysisOptions options;
        options.set("slices");
        const AnalysisResult r =
            computeAnalysis(*analysisRegistry().find("critical-path"), *job, scope, options);
        QCOMPARE(integerOr(r.figure("path_ns")), int64_t(1190000));
        QVERIFY(std::holds_alternative<std::monostate>(r.figure("collectives_unmatched")));
        // The graph: one collective paired (its hub and each rank's point
        // where the last rank entered), not rank 0's next all-reduce, not
        // the send and receive.
        PathGraphOptions o;
        for (uint32_t i = 0; i < job->slices.size(); ++i)
            if (job->str(job->slices[i].name) == "ProfilerStep#1") o.steps.push_back(i);
        QCOMPARE(o.steps.size(), size_t(2));
        o.window = {job->slices[o.steps[0]].start, job->slices[o.steps[1]].end()};
        const CriticalPath p = criticalPath(*job, LaunchCalls(*job), o);
        int lastRankIn = 0;
        for (uint32_t v = 0; v < p.graph.nodeCount(); ++v)
            lastRankIn += p.graph.node(v).lastRankIn;
        QCOMPARE(lastRankIn, 3);
        QCOMPARE(p.graph.unmatchedCollectives, size_t(0));
        QCOMPARE(p.lengthNs, int64_t(1190000));
    }

    // The step's thread waits in backward() while the autograd thread
    // works: the path goes through that thread's ops (200 + 350 µs) and
    // the time around them (50 before, 50 between, 50 after), not the
    // step's own time alone: the step's 50, forward's 100, then those
    // 700, the optimizer's 50, the step's last 100: 1000 µs, 700 of ops.
    // A what-if on a backward op shortens the step by its share.
    void theStepWaitsForItsBackwardThread() {
        const Paths p = pathOf(kBackwardThread, {}, 1);
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(1000000));
        const std::map<std::string, int64_t> kinds{{"host", 300000}, {"op", 700000}};
        QCOMPARE(p.byKind, kinds);
        QVERIFY(p.slices.count("autograd::engine::evaluate_function: AddBackward0"));
        QCOMPARE(*pathOf(kBackwardThread, {"op:*AddBackward0=0.5"}, 1).projectedNs,
                 int64_t(1000000 - 175000));
        // The other thread's op that runs on past the wait is no part of it.
        QVERIFY(!p.slices.count("aten::straddles"));
    }

    // A collective on the path: its time is communication; comm=0.5 halves it.
    void aCollective() {
        const Paths p = pathOf(kCollective);
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(210000));
        const std::map<std::string, int64_t> want{{"gpu_communication_bound", 200000},
                                                  {"gpu_kernel_launch_overhead", 10000}};
        QCOMPARE(p.byBound, want);
        QCOMPARE(*pathOf(kCollective, {"comm=0.5"}).projectedNs, int64_t(110000));
        // (A kernel pattern that names no kernel changes nothing.)
        const Paths none = pathOf(kCollective, {"kernel:gemm*=0.5", "comm=0.5", "rank:3=median"});
        QCOMPARE(*pathOf(kCollective, {"kernel:gemm*=0.5"}).projectedNs, int64_t(210000));
        // … and is said, as is a rank in a trace of one.
        QCOMPARE(none.unmatched, std::string("kernel:gemm*=0.5, rank:3=median"));
        QCOMPARE(*none.projectedNs, int64_t(110000));
    }

    void whatIfsThatDoNotParse_data() {
        QTest::addColumn<QString>("text");
        QTest::newRow("no factor") << "kernel:gemm";
        QTest::newRow("no name") << "kernel=0.5";
        QTest::newRow("a name where none is taken") << "launch:x=0";
        QTest::newRow("an unknown part") << "disk=0.5";
        QTest::newRow("a negative factor") << "input=-1";
        QTest::newRow("not a number") << "comm=fast";
        QTest::newRow("an empty name") << "op:=0.5";
        QTest::newRow("beyond a thousand") << "input=1e18";
    }
    void whatIfsThatDoNotParse() {
        QFETCH(QString, text);
        std::string error;
        QVERIFY(!parseWhatIf(text.toStdString(), error));
        QVERIFY(!error.empty());
    }

    void wildcards() {
        QVERIFY(matchesWildcard("*gemm*", "sm90_xmma_gemm_bf16"));
        QVERIFY(matchesWildcard("aten::*", "aten::mm"));
        QVERIFY(matchesWildcard("*", ""));
        QVERIFY(matchesWildcard("a*b*c", "aXXbYYc"));
        QVERIFY(!matchesWildcard("a*b*c", "aXXbYY"));
        QVERIFY(!matchesWildcard("gemm", "sgemm"));
    }
};

GAPSCOPE_TEST_MAIN(TestCriticalPath)
#include "tst_critical_path.moc"
