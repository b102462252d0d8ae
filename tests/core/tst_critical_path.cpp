// The critical path (analysis/critical_path.h, `gapscope-cli
// critical-path`) on traces with a planted path: a chain through a device
// synchronize, a kernel held by another stream's event, an input stall
// before the step's work. Each path's length and composition are the
// planted numbers' own arithmetic (µs in the files), written out here; a
// what-if on work off the path leaves it unchanged, one on the path
// shortens it by the planted amount or hands it to the next-longest chain.
// (HTA's own traces are compared with HTA run beside us: critical_path_vs_hta.)

#include <QTest>
#include <set>

#include "analysis/analysis_index.h"
#include "analysis/critical_path_what_if.h"
#include "loader/loader.h"
#include "report/analysis_registry.h"
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

struct Path {
    bool operator==(const Path&) const = default;
    int64_t pathNs = 0;
    std::optional<int64_t> projectedNs;
    std::map<std::string, int64_t> byBound;  // the non-zero ones
    std::map<std::string, int64_t> byKind;   // likewise
    std::set<std::string> slices;
};

Path pathIn(const Trace& t, const AnalysisIndex* index, const std::vector<std::string>& whatIfs) {
    AnalysisOptions options;
    options.set("slices");
    for (const std::string& w : whatIfs)
        options.add("what-if", w);
    Scope scope;
    scope.index = index;
    const AnalysisResult r =
        computeAnalysis(*analysisRegistry().find("critical-path"), t, scope, options);
    Path p;
    p.pathNs = integerOr(r.figure("path_ns"));
    if (const auto* i = std::get_if<int64_t>(&r.figure("projected_ns"))) p.projectedNs = *i;
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
    return p;
}

// The path without the index and with it (its launch queues kept); the
// test checks `sameWithIndex`.
struct Paths : Path {
    bool sameWithIndex = false;
};
Paths pathOf(const char* events, const std::vector<std::string>& whatIfs = {}) {
    const LoadResult loaded = test::loadJsonText(traceOf(events));
    if (!loaded.trace) throw std::runtime_error("the planted trace did not load");
    const AnalysisIndex index(*loaded.trace);
    Paths p;
    static_cast<Path&>(p) = pathIn(*loaded.trace, nullptr, whatIfs);
    p.sameWithIndex = static_cast<const Path&>(p) == pathIn(*loaded.trace, &index, whatIfs);
    return p;
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

    // The batch's 300 µs of CPU ops, mm's 10 µs to its launch, 10 µs to the
    // kernel, 200 µs of it: 520 µs; with the input free, 220 µs.
    void anInputStall() {
        const Paths p = pathOf(kInputStall);
        QVERIFY(p.sameWithIndex);
        QCOMPARE(p.pathNs, int64_t(520000));
        const std::map<std::string, int64_t> want{{"cpu_bound", 310000},
                                                  {"gpu_compute_bound", 200000},
                                                  {"gpu_kernel_launch_overhead", 10000}};
        QCOMPARE(p.byBound, want);
        // The batch's making is the input wait's; mm's 10 µs before its launch an op's.
        const std::map<std::string, int64_t> kinds{{"input_wait", 300000},
                                                   {"op", 10000},
                                                   {"kernel", 200000},
                                                   {"launch_overhead", 10000}};
        QCOMPARE(p.byKind, kinds);
        QCOMPARE(*pathOf(kInputStall, {"input=0"}).projectedNs, int64_t(220000));
        // Two what-ifs at once: the input free and the kernel twice as fast.
        QCOMPARE(*pathOf(kInputStall, {"input=0", "kernel:gemm=0.5"}).projectedNs, int64_t(120000));
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
        QCOMPARE(*pathOf(kCollective, {"kernel:gemm*=0.5"}).projectedNs, int64_t(210000));
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
