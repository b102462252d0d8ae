// One small trace per figure that real traces once got wrong, built in the
// shape of the trace that showed it (a ROCm run's process labels and step
// annotations, TraceLens's first step, a TensorFlow multi-worker run's GPU
// without steps, an MI300X run seen as one device, a gap across two
// steps), each with the figures its construction implies, worked by hand
// in the comments (times in µs as written; the model holds ns).

#include <QTest>
#include <map>
#include <string>
#include <vector>

#include "analysis/gpu_time_account.h"
#include "analysis/kernel_stats.h"
#include "analysis/memory_usage.h"
#include "analysis/steps.h"
#include "analysis/tensor_cores.h"
#include "analysis/trace_health.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"
#include "util/symbol_names.h"

using namespace gapscope;

namespace {

constexpr TimeNs us(int64_t v) {
    return v * 1000;
}

std::string meta(const char* what, const std::string& pid, int tid, const std::string& args) {
    return std::string(R"({"ph":"M","name":")") + what + R"(","pid":)" + pid + R"(,"tid":)" +
           std::to_string(tid) + R"(,"args":)" + args + "}";
}

// A complete event; `args` is the JSON object's inside (may be empty).
std::string ev(const char* cat, const std::string& name, const std::string& pid, int tid,
               int64_t ts, int64_t dur, const std::string& args = {}) {
    return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":)" +
           pid + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" + std::to_string(ts) +
           R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}}";
}

std::string corr(int id) {
    return R"("correlation":)" + std::to_string(id);
}

std::string trace(const std::vector<std::string>& events, const std::string& top = {}) {
    std::string out = "{" + top + (top.empty() ? "" : ",") + R"("traceEvents":[)";
    for (size_t i = 0; i < events.size(); ++i)
        out += (i ? "," : "") + events[i];
    return out + "]}";
}

const Process* processWithPid(const Trace& t, int64_t pid) {
    for (const Process& p : t.processes)
        if (!p.pid.isText && p.pid.number == pid) return &p;
    return nullptr;
}

const GpuTimeAccount* accountOf(const TimeAccount& a, int device) {
    for (const GpuTimeAccount& d : a.devices)
        if (d.device == device) return &d;
    return nullptr;
}

}  // namespace

class TestTraceShapes : public QObject {
    Q_OBJECT
  private slots:
    // A ROCm run: the Python process (pid 1) is labelled "CPU", then "GPU
    // 1"; another (pid 0) "GPU 0"; the work runs on pid 2, "GPU 2". Both
    // hold host work only: they are the host, not GPUs. So the memset that
    // ends the GPU's idle [100, 320) is found launched at 300, after the
    // gap began: the host was late ("host"), not "other".
    void rocmHostProcessLabelledGpu() {
        const LoadResult r = test::loadJsonText(trace({
            meta("process_name", "1", 0, R"({"name":"python3"})"),
            meta("process_labels", "1", 0, R"({"labels":"CPU"})"),
            meta("process_name", "0", 0, R"({"name":"python3"})"),
            meta("process_labels", "0", 0, R"({"labels":"GPU 0"})"),
            meta("process_name", "2", 0, R"({"name":"python3"})"),
            meta("process_labels", "2", 0, R"({"labels":"GPU 2"})"),
            meta("thread_name", "2", 0, R"({"name":"stream 0 "})"),
            ev("python_function", "train.py(12): step", "0", 7, 0, 400),
            ev("cpu_op", "aten::add", "1", 11, 40, 30),
            ev("cuda_runtime", "hipLaunchKernel", "1", 11, 50, 10, corr(2)),
            ev("cpu_op", "aten::zero_", "1", 11, 290, 30),
            ev("cuda_runtime", "hipMemsetAsync", "1", 11, 300, 10, corr(1)),
            ev("kernel", "add_kernel", "2", 0, 60, 40, corr(2) + R"(,"device":2)"),
            ev("gpu_memset", "Memset (Device)", "2", 0, 320, 5, corr(1) + R"(,"device":2)"),
            meta("process_labels", "1", 0, R"({"labels":"GPU 1"})"),
        }));
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(processWithPid(t, 1)->kind, ProcessKind::Cpu);
        QCOMPARE(processWithPid(t, 0)->kind, ProcessKind::Cpu);
        QCOMPARE(processWithPid(t, 2)->kind, ProcessKind::Gpu);
        QCOMPARE(t.gpuDevices.size(), size_t(1));
        QCOMPARE(t.gpuDevices.front().index, 2);
        const TimeAccount account = timeAccountOf(t, {});
        const GpuTimeAccount* gpu = accountOf(account, 2);
        QVERIFY(gpu);
        QCOMPARE(gpu->gaps.size(), size_t(1));
        QCOMPARE(gpu->gaps.front().gap, (Interval{us(100), us(320)}));
        QCOMPARE(gpu->gaps.front().cause, GapCause::Host);
        const TraceHealth health = traceHealth(t);
        QCOMPARE(health.find("gpu_labels_disagree")->count, uint64_t(2));
        QVERIFY(!health.find("gpu_labels_disagree")->detail.empty());
    }

    // A ROCm run's ProfilerStep copy on the GPU lasts 17 µs at the step's
    // start and holds none of its kernels, which run [200, 300) and
    // [600, 800). The window is the launched work [200, 800), after a
    // lead-in [0, 200) from the step's start; Trace Health names the
    // annotation.
    void brokenStepAnnotationOnTheGpu() {
        const LoadResult r = test::loadJsonText(trace({
            ev("user_annotation", "ProfilerStep#3", "10", 10, 0, 1000),
            ev("cuda_runtime", "hipLaunchKernel", "10", 10, 100, 10, corr(1)),
            ev("cuda_runtime", "hipLaunchKernel", "10", 10, 500, 10, corr(2)),
            ev("gpu_user_annotation", "ProfilerStep#3", "0", 1, 10, 17, R"("device":0)"),
            ev("kernel", "k1", "0", 1, 200, 100, corr(1) + R"(,"device":0)"),
            ev("kernel", "k2", "0", 1, 600, 200, corr(2) + R"(,"device":0)"),
        }));
        QVERIFY(r.trace);
        const StepsResult steps = stepAnalysis(*r.trace);
        QCOMPARE(steps.steps.size(), size_t(1));
        const StepBreakdown& b = steps.steps.front().devices.at(0);
        QCOMPARE(b.source, WindowSource::Launched);
        QCOMPARE(b.gpuWindow, (Interval{us(200), us(800)}));
        QCOMPARE(b.leadIn, (Interval{0, us(200)}));
        QCOMPARE(b.compute, us(300));
        QCOMPARE(b.idle, us(300));
        QCOMPARE(b.leadInParts.idle, us(200));
        QCOMPARE(steps.brokenAnnotations.size(), size_t(1));
        QCOMPARE(steps.brokenAnnotations.front().annotation, (Interval{us(10), us(27)}));
        QCOMPARE(steps.brokenAnnotations.front().launched, (Interval{us(200), us(800)}));
        const TraceHealth health = traceHealth(*r.trace);
        const HealthCheck* broken = health.find("broken_step_annotations");
        QCOMPARE(broken->count, uint64_t(1));
        QCOMPARE(broken->severity, HealthSeverity::Warning);
    }

    // TraceLens's step figures are over the step's own GPU work (its
    // gpu_user_annotation span). GPU work launched before the first step
    // ([-400, -100), launched at -500) is not the step's. Step 6 runs
    // [0, 1000) on the host; its kernels [300, 500) and [600, 900), its
    // annotation [300, 900): window [300, 900) (600 µs, 500 busy), lead-in
    // [0, 300) (idle); together the step's 900 µs of step time.
    void firstStepWindowIsItsOwnWork() {
        const LoadResult r = test::loadJsonText(trace({
            ev("cuda_runtime", "cudaLaunchKernel", "10", 10, -500, 10, corr(9)),
            ev("kernel", "warmup", "0", 7, -400, 300, corr(9) + R"(,"device":0)"),
            ev("user_annotation", "ProfilerStep#6", "10", 10, 0, 1000),
            ev("cuda_runtime", "cudaLaunchKernel", "10", 10, 100, 10, corr(1)),
            ev("cuda_runtime", "cudaLaunchKernel", "10", 10, 200, 10, corr(2)),
            ev("gpu_user_annotation", "ProfilerStep#6", "0", 7, 300, 600, R"("device":0)"),
            ev("kernel", "k1", "0", 7, 300, 200, corr(1) + R"(,"device":0)"),
            ev("kernel", "k2", "0", 7, 600, 300, corr(2) + R"(,"device":0)"),
        }));
        QVERIFY(r.trace);
        const StepsResult steps = stepAnalysis(*r.trace);
        QCOMPARE(steps.steps.size(), size_t(1));
        const StepBreakdown& b = steps.steps.front().devices.at(0);
        QCOMPARE(b.source, WindowSource::Annotation);
        QCOMPARE(b.gpuWindow, (Interval{us(300), us(900)}));
        QCOMPARE(b.busy(), us(500));
        QCOMPARE(b.leadIn, (Interval{0, us(300)}));
        QCOMPARE(b.leadInParts.idle, us(300));
        const TimeAccount account = timeAccountOf(*r.trace, {});
        QCOMPARE(account.devices.at(0).time, us(900));
        QCOMPARE(account.devices.at(0).busy(), us(500));
        QCOMPARE(account.devices.at(0).denominator, Denominator::StepTime);
    }

    // A TensorFlow multi-worker run: GPU 4's Steps line has step 0 over
    // [0, 20000); GPU 6 copies and computes around 2.4 s, and its own Steps
    // line has step 0 over [2400000, 2430000); GPU 7 has no Steps line. GPU
    // 6 is counted over its own step (20 ms busy of 30), not as idle in GPU
    // 4's; GPU 7 over its active span [2500000, 2505000) (all busy).
    void eachGpuOverItsOwnStepsLine() {
        const LoadResult r = test::loadJsonText(trace({
            meta("process_name", "4", 0, R"({"name":"/device:GPU:4"})"),
            meta("thread_name", "4", 1, R"({"name":"Steps"})"),
            meta("thread_name", "4", 2, "{\"name\":\"Stream #13(Compute)\"}"),
            meta("process_name", "6", 0, R"({"name":"/device:GPU:6"})"),
            meta("thread_name", "6", 1, R"({"name":"Steps"})"),
            meta("thread_name", "6", 2, "{\"name\":\"Stream #13(Compute)\"}"),
            meta("thread_name", "6", 3, "{\"name\":\"Stream #14(MemcpyHtoD)\"}"),
            meta("process_name", "7", 0, R"({"name":"/device:GPU:7"})"),
            meta("thread_name", "7", 2, "{\"name\":\"Stream #13(Compute)\"}"),
            ev("", "0", "4", 1, 0, 20000),
            ev("", "matmul", "4", 2, 1000, 15000),
            ev("", "0", "6", 1, 2400000, 30000),
            ev("", "memcpy", "6", 3, 2400000, 10000),
            ev("", "matmul", "6", 2, 2420000, 10000),
            ev("", "matmul", "7", 2, 2500000, 5000),
        }));
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(findSteps(t).source, StepSource::StepsLine);
        const TimeAccount account = timeAccountOf(t, {});
        QCOMPARE(account.denominator, Denominator::StepTime);
        QVERIFY(account.mixed());
        const GpuTimeAccount* four = accountOf(account, 4);
        const GpuTimeAccount* six = accountOf(account, 6);
        const GpuTimeAccount* seven = accountOf(account, 7);
        QVERIFY(four && six && seven);
        QCOMPARE(four->denominator, Denominator::StepTime);
        QCOMPARE(four->time, us(20000));
        QCOMPARE(four->busy(), us(15000));
        QCOMPARE(six->denominator, Denominator::StepTime);
        QCOMPARE(six->windows, (std::vector<Interval>{{us(2400000), us(2430000)}}));
        QCOMPARE(six->busy(), us(20000));
        QCOMPARE(seven->denominator, Denominator::ActiveSpan);
        QCOMPARE(seven->time, us(5000));
        QCOMPARE(seven->busy(), us(5000));
    }

    // The real multi-worker run (host .179): every GPU with a Steps line is
    // counted over the spans of its own line's steps, read here from the
    // model's tracks; the others over their active span.
    void multiWorkerRunEachGpuOwnSteps() {
        GAPSCOPE_REQUIRE_SHARED();
        const LoadResult r =
            loadTrace((test::sharedTraces() +
                       "/xprof/demo/plugins/profile/GPU-multi-worker/34.83.195.179_6003.xplane.pb")
                          .toStdString());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        std::map<int, std::vector<Interval>> lines;
        for (const Track& track : t.tracks)
            if (track.kind == TrackKind::GpuOther && t.str(track.threadName) == "Steps")
                for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i)
                    lines[t.processes[track.process].gpuDevice].push_back(
                        {t.slices[i].start, t.slices[i].end()});
        QVERIFY(lines.size() >= 2);
        const TimeAccount account = timeAccountOf(t, {});
        for (const GpuDevice& d : t.gpuDevices) {
            const GpuTimeAccount* a = accountOf(account, d.index);
            QVERIFY(a);
            if (lines.count(d.index)) {
                QCOMPARE(a->denominator, Denominator::StepTime);
                QCOMPARE(a->windows, lines[d.index]);
                TimeNs busy = 0;
                for (const Interval& w : lines[d.index])
                    busy += lengthWithin(d.busy, w);
                QCOMPARE(a->busy(), busy);
                QVERIFY2(a->busy() > 0, "a GPU that worked in its own step is not idle");
            } else {
                QCOMPARE(a->denominator, Denominator::ActiveSpan);
                QCOMPARE(a->time, d.busy.back().end - d.busy.front().start);
            }
        }
    }

    // Steps that overlap on the host (nested --step-regex matches) and no
    // launch links: steps [0, 1000) and [500, 1500), kernels [100, 200)
    // and [1400, 1450). The second step's window starts where the first's
    // ends, [1000, 1500): 1500 µs of step time, 150 busy, no time twice.
    void overlappingHostStepsDoNotOverlapOnTheGpu() {
        const LoadResult r = test::loadJsonText(trace({
            ev("user_annotation", "ProfilerStep#1", "10", 10, 0, 1000),
            ev("user_annotation", "ProfilerStep#2", "10", 11, 500, 1000),
            ev("kernel", "k1", "0", 7, 100, 100, R"("device":0)"),
            ev("kernel", "k2", "0", 7, 1400, 50, R"("device":0)"),
        }));
        QVERIFY(r.trace);
        const TimeAccount account = timeAccountOf(*r.trace, {});
        QCOMPARE(account.devices.at(0).time, us(1500));
        QCOMPARE(account.devices.at(0).busy(), us(150));
        QCOMPARE(account.devices.at(0).windows,
                 (std::vector<Interval>{{0, us(1000)}, {us(1000), us(1500)}}));
        TimeNs listed = 0;
        for (const CausedGap& g : account.devices.at(0).gaps)
            listed += g.gap.length();
        QCOMPARE(listed + account.devices.at(0).idleShort, us(1350));
    }

    // No launch links (the host's step spans are the windows): steps
    // [0, 1000) and [1000, 2000), kernels [100, 200) and [1950, 2000). The
    // gap [200, 1950) crosses the step boundary; the host waits for the
    // next batch over [900, 1940), 1040 of its 1750 µs: input, decided once
    // for the whole gap, so step 1's piece [200, 1000) is input too
    // (its own 100 µs of the wait would not make it so).
    void gapAcrossStepsHasOneCause() {
        const LoadResult r = test::loadJsonText(trace({
            ev("user_annotation", "ProfilerStep#1", "10", 10, 0, 1000),
            ev("user_annotation", "ProfilerStep#2", "10", 10, 1000, 1000),
            ev("user_annotation", "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
               "10", 11, 900, 1040),
            ev("kernel", "k1", "0", 7, 100, 100, R"("device":0)"),
            ev("kernel", "k2", "0", 7, 1950, 50, R"("device":0)"),
        }));
        QVERIFY(r.trace);
        const StepsResult steps = stepAnalysis(*r.trace);
        QCOMPARE(steps.steps.size(), size_t(2));
        const StepBreakdown& one = steps.steps[0].devices.at(0);
        const StepBreakdown& two = steps.steps[1].devices.at(0);
        QCOMPARE(one.source, WindowSource::HostSpan);
        QCOMPARE(one.idleByCause[size_t(GapCause::Input)], us(800));
        QCOMPARE(two.idleByCause[size_t(GapCause::Input)], us(950));
        // One gap in the list, its whole length input, as the account says.
        const TimeAccount account = timeAccountOf(*r.trace, {});
        // (And [0, 100) before the first kernel, in step 1's span.)
        QCOMPARE(account.devices.at(0).gaps.size(), size_t(2));
        QCOMPARE(account.devices.at(0).gaps.back().gap, (Interval{us(200), us(1950)}));
        QCOMPARE(account.devices.at(0).gaps.back().cause, GapCause::Input);
        QCOMPARE(account.devices.at(0).idleByCause[size_t(GapCause::Input)], us(1750));
    }

    // An MI300X run that sees one GPU: deviceProperties describe device 0,
    // [memory] records say Device Id 0, the work runs on GPU 2. The GPU is
    // named from the one description, its memory is GPU 2's (of 192 GiB),
    // and its hipBLASLt GEMM runs on the matrix cores.
    void mi300xSeenAsOneDevice() {
        const std::string props = R"("deviceProperties":[{"id":0,"name":"AMD Instinct MI300X",)"
                                  R"("totalGlobalMem":206158430208}])";
        const std::string gemm =
            "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x128x64_MI16x16x1_SN_LDSB1";
        auto memoryEvent = [](int64_t ts, int64_t allocated) {
            return R"({"ph":"i","s":"t","name":"[memory]","pid":10,"tid":10,"ts":)" +
                   std::to_string(ts) +
                   R"(,"args":{"Device Type":1,"Device Id":0,"Bytes":1024,"Total Allocated":)" +
                   std::to_string(allocated) + R"(,"Total Reserved":4194304}})";
        };
        const LoadResult r = test::loadJsonText(trace(
            {
                meta("process_labels", "2", 0, R"({"labels":"GPU 2"})"),
                ev("cuda_runtime", "hipLaunchKernel", "10", 10, 0, 10, corr(1)),
                ev("kernel", gemm, "2", 1, 20, 100, corr(1) + R"(,"device":2)"),
                memoryEvent(5, 1048576),
                memoryEvent(50, 3145728),
            },
            props));
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(t.gpuDevices.size(), size_t(1));
        QCOMPARE(t.gpuDevices.front().index, 2);
        QCOMPARE(t.gpuDevices.front().name, std::string("AMD Instinct MI300X"));
        const MemoryReport memory = memoryUsage(t, {});
        QCOMPARE(memory.devices.size(), size_t(1));
        QCOMPARE(memory.devices.front().device, 2);
        QCOMPARE(memory.devices.front().peakAllocated, 3145728.0);
        QCOMPARE(memory.devices.front().deviceMemory, std::optional<int64_t>(206158430208));
        const std::vector<KernelStats> kernels = kernelStats(t);
        QCOMPARE(kernels.size(), size_t(1));
        QCOMPARE(kernels.front().tensorCores, TensorCoreUse::Yes);
    }

    // Two kernels of one short name stay apart: the shortest form that
    // tells them apart (template arguments, then parameters), the others
    // short.
    void distinctShortNames() {
        const std::vector<std::string_view> names = {
            "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float)",
            "void cudnn::bn_bw_1C11_kernel_new<__half, float, float2, 512, true, 1>(float, float)",
            "void at::native::elementwise_kernel_manual_unroll<128, 8>(int, Copy)",
            "void at::native::elementwise_kernel_manual_unroll<128, 8>(int, Add)",
            "void at::native::vectorized_elementwise_kernel<4>(int, Mul)",
            "void at::native::vectorized_elementwise_kernel<4>(int, Mul)",
        };
        const std::vector<std::string> shown = gapscope::distinctShortNames(names);
        QCOMPARE(shown[0], std::string("cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, "
                                       "true, 1>"));
        QCOMPARE(shown[1], std::string("cudnn::bn_bw_1C11_kernel_new<__half, float, float2, "
                                       "512, true, 1>"));
        QCOMPARE(shown[2],
                 std::string("at::native::elementwise_kernel_manual_unroll<128, 8>(int, Copy)"));
        QCOMPARE(shown[3],
                 std::string("at::native::elementwise_kernel_manual_unroll<128, 8>(int, Add)"));
        // The same name twice is one kernel: its short name.
        QCOMPARE(shown[4], std::string("at::native::vectorized_elementwise_kernel"));
        QCOMPARE(shown[5], shown[4]);
        // An anonymous namespace is no parameter list.
        const std::vector<std::string> adam = gapscope::distinctShortNames(
            {"void at::native::(anonymous namespace)::multi_tensor_apply_kernel<M<4>, "
             "F<float, 4>>(M<4>, F<float, 4>)",
             "void at::native::(anonymous namespace)::multi_tensor_apply_kernel<M<4>, "
             "F<double, 4>>(M<4>, F<double, 4>)"});
        QCOMPARE(adam[0], std::string("at::native::(anonymous namespace)::multi_tensor_apply_"
                                      "kernel<M<4>, F<float, 4>>"));
        QCOMPARE(adam[1], std::string("at::native::(anonymous namespace)::multi_tensor_apply_"
                                      "kernel<M<4>, F<double, 4>>"));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestTraceShapes)
#include "tst_trace_shapes.moc"
