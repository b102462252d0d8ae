// Steps with their breakdown, memory, the input pipeline, op statistics,
// the launching op of each kernel, launch overhead and the copy table
// against an independent reference (tests/tools/reference_host_analyses.py:
// Python's json module, exact decimals, its own nesting and interval
// sweeps) on generated traces of both profiles and on real traces (Kineto
// ResNet50, the 8-rank DLRM set, HTA's trace with [memory] events, a
// TensorFlow run with tf.data Iterator:: events, AMD ROCm, the bundled H200
// sample); and against the generator's ground truth for step spans, memory
// peaks and the planted input stalls.

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "analysis/analysis_index.h"
#include "analysis/gap_causes.h"
#include "analysis/gpu_time_account.h"
#include "analysis/input_pipeline.h"
#include "analysis/kernel_scopes.h"
#include "analysis/kernel_stats.h"
#include "analysis/launch_calls.h"
#include "analysis/launch_overhead.h"
#include "analysis/memcpy_stats.h"
#include "analysis/memory_usage.h"
#include "analysis/op_stats.h"
#include "analysis/steps.h"
#include "analysis/time_breakdown.h"
#include "support/generator.h"
#include "support/reference_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using json = nlohmann::json;

namespace {

json reference(const QString& trace) {
    return test::runReference("reference_host_analyses.py", {trace});
}

bool near(double a, double b) {
    return test::nearlyEqual(a, b);
}

#define COMPARE_OPT_DOUBLE(ours, want)                                  \
    do {                                                                \
        QCOMPARE(bool(ours), !(want).is_null());                        \
        if (ours) QVERIFY2(near(*(ours), (want).get<double>()), #ours); \
    } while (0)

std::string name(const Trace& t, StringId id) {
    return std::string(t.str(id));
}

// A Kineto complete event (µs), with a correlation id unless it is < 0.
QString ev(const char* cat, const char* sliceName, int pid, int tid, int ts, int dur, int corr) {
    QString e = QStringLiteral(R"({"ph":"X","cat":"%1","name":"%2","pid":%3,"tid":%4,)"
                               R"("ts":%5,"dur":%6)")
                    .arg(cat, sliceName)
                    .arg(pid)
                    .arg(tid)
                    .arg(ts)
                    .arg(dur);
    if (corr >= 0) e += QStringLiteral(R"(,"args":{"correlation":%1})").arg(corr);
    return e + "}";
}

}  // namespace

class TestHostAnalyses : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    void compareSteps(const Trace& t, const json& ref, const StepsResult& ours) {
        const json& want = ref["steps"];
        if (want["source"].is_null()) {
            QCOMPARE(ours.source, StepSource::None);
            QVERIFY(ours.steps.empty());
            return;
        }
        QCOMPARE(std::string(stepSourceName(ours.source)), want["source"].get<std::string>());
        QCOMPARE(*ours.medianDuration, want["median_duration_ns"].get<TimeNs>());
        QCOMPARE(ours.steps.size(), want["steps"].size());
        for (size_t i = 0; i < ours.steps.size(); ++i) {
            const StepReport& s = ours.steps[i];
            const json& w = want["steps"][i];
            QCOMPARE(name(t, t.slices[s.step.slice].name), w["name"].get<std::string>());
            QCOMPARE(s.step.number, w["number"].get<int64_t>());
            QCOMPARE(s.step.span.start, w["start_ns"].get<TimeNs>());
            QCOMPARE(s.step.span.end, w["end_ns"].get<TimeNs>());
            QCOMPARE(s.duration, w["duration_ns"].get<TimeNs>());
            QCOMPARE(s.slow, w["slow"].get<bool>());
            QCOMPARE(bool(s.slowerBecause), !w["slower_because"].is_null());
            if (s.slowerBecause) {
                QCOMPARE(std::string(stepPartName(*s.slowerBecause)),
                         w["slower_because"].get<std::string>());
                QCOMPARE(s.grewBy, w["grew_by_ns"].get<TimeNs>());
            }
            QCOMPARE(s.devices.size(), w["devices"].size());
            for (size_t d = 0; d < s.devices.size(); ++d) {
                const StepBreakdown& b = s.devices[d];
                const json& wd = w["devices"][d];
                QCOMPARE(b.device, wd["device"].get<int>());
                QCOMPARE(b.gpuWindow.start, wd["gpu_window"]["start_ns"].get<TimeNs>());
                QCOMPARE(b.gpuWindow.end, wd["gpu_window"]["end_ns"].get<TimeNs>());
                QCOMPARE(b.leadIn.start, wd["lead_in"]["start_ns"].get<TimeNs>());
                QCOMPARE(b.leadIn.end, wd["lead_in"]["end_ns"].get<TimeNs>());
                QCOMPARE(std::string(referenceSourceName(b.source)),
                         wd["window_from"].get<std::string>());
                compareParts(b, wd["breakdown"]);
                compareParts(b.leadInParts, wd["lead_in_breakdown"]);
                // The parts add up to the step's GPU window and lead-in exactly.
                QCOMPARE(b.length(), b.gpuWindow.length());
                QCOMPARE(b.leadInParts.length(), b.leadIn.length());
                QCOMPARE(b.leadIn.end, b.gpuWindow.start);
            }
        }
        // The broken GPU annotations of the steps.
        const json& broken = ref["broken_step_annotations"];
        QCOMPARE(ours.brokenAnnotations.size(), broken.size());
        for (size_t i = 0; i < broken.size(); ++i) {
            const BrokenStepAnnotation& b = ours.brokenAnnotations[i];
            QCOMPARE(b.device, broken[i]["device"].get<int>());
            QCOMPARE(b.annotation.start, broken[i]["annotation"]["start_ns"].get<TimeNs>());
            QCOMPARE(b.annotation.end, broken[i]["annotation"]["end_ns"].get<TimeNs>());
            QCOMPARE(b.launched.start, broken[i]["launched"]["start_ns"].get<TimeNs>());
            QCOMPARE(b.launched.end, broken[i]["launched"]["end_ns"].get<TimeNs>());
        }
    }

    static const char* referenceSourceName(WindowSource s) {
        switch (s) {
            case WindowSource::Annotation:
                return "annotation";
            case WindowSource::Launched:
                return "launched";
            case WindowSource::NoWork:
                return "cpu";
            case WindowSource::HostSpan:
            case WindowSource::StepsLine:
                return "span";
        }
        return "";
    }

    void compareParts(const GpuParts& b, const json& wb) {
        QCOMPARE(b.compute, wb["compute_ns"].get<TimeNs>());
        QCOMPARE(b.exposedComm, wb["exposed_comm_ns"].get<TimeNs>());
        QCOMPARE(b.exposedMemcpy, wb["exposed_memcpy_ns"].get<TimeNs>());
        QCOMPARE(b.idle, wb["idle_ns"].get<TimeNs>());
        for (size_t k = 0; k < kCopyDirectionCount; ++k)
            QCOMPARE(b.memcpyByDirection[k],
                     wb["memcpy_by_direction"][copyDirectionName(CopyDirection(k))].get<TimeNs>());
        for (size_t c = 0; c < kGapCauseCount; ++c)
            QCOMPARE(b.idleByCause[c],
                     wb["idle_by_cause"][gapCauseName(GapCause(c))].get<TimeNs>());
        QCOMPARE(b.idleShort, wb["idle_by_cause"]["short"].get<TimeNs>());
    }

    void compareMemory(const json& ref, const MemoryReport& ours) {
        const json& want = ref["memory"]["devices"];
        QCOMPARE(ours.devices.size(), want.size());
        for (size_t i = 0; i < ours.devices.size(); ++i) {
            const DeviceMemory& d = ours.devices[i];
            const json& w = want[i];
            QCOMPARE(d.device, w["device"].get<int>());
            QCOMPARE(std::string(d.gpu ? "gpu" : "cpu"), w["kind"].get<std::string>());
            QCOMPARE(d.relative, w["relative"].get<bool>());
            QCOMPARE(std::llround(d.peakAllocated), w["peak_allocated_bytes"].get<long long>());
            QCOMPARE(d.peakTime, w["peak_time_ns"].get<TimeNs>());
            QCOMPARE(bool(d.peakReserved), !w["peak_reserved_bytes"].is_null());
            if (d.peakReserved)
                QCOMPARE(std::llround(*d.peakReserved), w["peak_reserved_bytes"].get<long long>());
            QCOMPARE(bool(d.deviceMemory), !w["device_memory_bytes"].is_null());
            if (d.deviceMemory) QCOMPARE(*d.deviceMemory, w["device_memory_bytes"].get<int64_t>());
            COMPARE_OPT_DOUBLE(d.peakShare, w["peak_share"]);
            QCOMPARE(d.perStepPeak.size(), w["per_step_peak"].size());
            for (size_t s = 0; s < d.perStepPeak.size(); ++s) {
                QCOMPARE(bool(d.perStepPeak[s]), !w["per_step_peak"][s].is_null());
                if (d.perStepPeak[s])
                    QCOMPARE(std::llround(*d.perStepPeak[s]),
                             w["per_step_peak"][s].get<long long>());
            }
            QCOMPARE(bool(d.growthPerStep), !w["growth_bytes_per_step"].is_null());
            if (d.growthPerStep) {
                const double g = w["growth_bytes_per_step"].get<double>();
                QVERIFY2(std::abs(*d.growthPerStep - g) <= 1e-6 * std::abs(g), "growth");
            }
        }
    }

    // The GPUs' time account: every part, per device, and its denominator.
    void compareAccount(const json& ref, const TimeAccount& ours) {
        const json& w = ref["account"];
        QCOMPARE(std::string(denominatorName(ours.denominator)),
                 w["denominator"].get<std::string>());
        QCOMPARE(ours.steps, w["steps"].get<size_t>());
        QCOMPARE(ours.devices.size(), w["devices"].size());
        for (size_t i = 0; i < ours.devices.size(); ++i) {
            const GpuTimeAccount& d = ours.devices[i];
            const json& r = w["devices"][i];
            QCOMPARE(d.device, r["device"].get<int>());
            QCOMPARE(d.time, r["time_ns"].get<TimeNs>());
            QCOMPARE(d.computation, r["computation_ns"].get<TimeNs>());
            QCOMPARE(d.exposedComm, r["exposed_comm_ns"].get<TimeNs>());
            QCOMPARE(d.exposedMemcpy, r["exposed_memcpy_ns"].get<TimeNs>());
            for (size_t c = 0; c < kGapCauseCount; ++c)
                QCOMPARE(d.idleByCause[c],
                         r["idle_by_cause"][gapCauseName(GapCause(c))].get<TimeNs>());
            QCOMPARE(d.idleShort, r["short_ns"].get<TimeNs>());
            QCOMPARE(std::string(denominatorName(d.denominator)),
                     r["denominator"].get<std::string>());
            // The listed gaps are the idle by cause's own intervals.
            QCOMPARE(d.shortGaps, r["short_count"].get<uint64_t>());
            QCOMPARE(d.gaps.size(), r["gaps"].size());
            for (size_t k = 0; k < d.gaps.size(); ++k) {
                QCOMPARE(d.gaps[k].gap.start, r["gaps"][k]["start_ns"].get<TimeNs>());
                QCOMPARE(d.gaps[k].gap.end, r["gaps"][k]["end_ns"].get<TimeNs>());
                QCOMPARE(std::string(gapCauseName(d.gaps[k].cause)),
                         r["gaps"][k]["cause"].get<std::string>());
            }
        }
    }

    void comparePipeline(const Trace& t, const json& ref, const PipelineReport& ours) {
        const json& w = ref["pipeline"];
        if (w["verdict"].is_null()) {
            QVERIFY(!ours.inputShare);
        } else {
            QCOMPARE(std::string(inputVerdictName(ours.verdict)), w["verdict"].get<std::string>());
        }
        COMPARE_OPT_DOUBLE(ours.inputShare, w["input_share"]);
        QCOMPARE(ours.inputWait, w["input_wait_ns"].get<TimeNs>());
        QCOMPARE(ours.time, w["time_ns"].get<TimeNs>());
        QCOMPARE(std::string(denominatorName(ours.denominator)),
                 w["denominator"].get<std::string>());
        QCOMPARE(std::string(ours.fromGpu ? "gpu" : "host"), w["from"].get<std::string>());
        QCOMPARE(ours.hostWait, w["host_wait_ns"].get<TimeNs>());
        QCOMPARE(ours.hostTime, w["host_time_ns"].get<TimeNs>());
        QCOMPARE(ours.getNext, w["get_next_ns"].get<TimeNs>());
        QCOMPARE(ours.stages.size(), w["stages"].size());
        for (size_t i = 0; i < ours.stages.size(); ++i) {
            const PipelineStage& s = ours.stages[i];
            QCOMPARE(name(t, s.name), w["stages"][i]["name"].get<std::string>());
            QCOMPARE(s.calls, w["stages"][i]["calls"].get<uint64_t>());
            QCOMPARE(s.inclusive, w["stages"][i]["inclusive_ns"].get<TimeNs>());
            QCOMPARE(s.self, w["stages"][i]["self_ns"].get<TimeNs>());
            COMPARE_OPT_DOUBLE(s.share, w["stages"][i]["share"]);
        }
        QCOMPARE(bool(ours.checks), !w["checks"].is_null());
        if (ours.checks) {
            QCOMPARE(ours.checks->missingPrefetch, w["checks"]["missing_prefetch"].get<bool>());
            QCOMPARE(ours.checks->sequentialMap, w["checks"]["sequential_map"].get<bool>());
            QCOMPARE(ours.checks->noCache, w["checks"]["no_cache"].get<bool>());
        }
        QCOMPARE(bool(ours.dataLoader), !w["dataloader"].is_null());
        if (ours.dataLoader) {
            const json& l = w["dataloader"];
            QCOMPARE(ours.dataLoader->calls, l["calls"].get<uint64_t>());
            QCOMPARE(ours.dataLoader->total, l["total_ns"].get<TimeNs>());
            QCOMPARE(bool(ours.dataLoader->kind), !l["kind"].is_null());
            if (ours.dataLoader->kind)
                QCOMPARE(*ours.dataLoader->kind, l["kind"].get<std::string>());
            QCOMPARE(ours.dataLoader->pinMemoryThread, l["pin_memory_thread"].get<bool>());
        }
        QCOMPARE(ours.perStep.size(), w["per_step"].size());
        for (size_t i = 0; i < ours.perStep.size(); ++i) {
            QCOMPARE(ours.perStep[i].number, w["per_step"][i]["number"].get<int64_t>());
            QCOMPARE(ours.perStep[i].wait, w["per_step"][i]["host_wait_ns"].get<TimeNs>());
        }
    }

    void compareOps(const Trace& t, const json& ref, const std::vector<OpStats>& ours) {
        const json& want = ref["ops"];
        QCOMPARE(ours.size(), want.size());
        for (size_t i = 0; i < ours.size(); ++i) {
            const OpStats& o = ours[i];
            const json& w = want[i];
            QCOMPARE(name(t, o.name), w["name"].get<std::string>());
            QCOMPARE(o.count, w["count"].get<uint64_t>());
            QCOMPARE(o.inclusive, w["inclusive_ns"].get<TimeNs>());
            QCOMPARE(o.self, w["self_ns"].get<TimeNs>());
            QCOMPARE(o.gpu, w["gpu_ns"].get<TimeNs>());
            COMPARE_OPT_DOUBLE(o.shareOfStepTime, w["share_of_step_time"]);
        }
        // The launching op of each kernel name.
        std::map<std::string, std::optional<std::string>> launchers;
        for (const KernelStats& k : kernelStats(t))
            launchers[name(t, k.name)] =
                k.launchedBy ? std::optional(name(t, *k.launchedBy)) : std::nullopt;
        QCOMPARE(launchers.size(), ref["kernel_launchers"].size());
        for (const json& w : ref["kernel_launchers"]) {
            const auto it = launchers.find(w["name"].get<std::string>());
            QVERIFY2(it != launchers.end(), w["name"].get<std::string>().c_str());
            QCOMPARE(bool(it->second), !w["launched_by"].is_null());
            if (it->second) QCOMPARE(*it->second, w["launched_by"].get<std::string>());
        }
    }

    void compareLaunch(const Trace& t, const json& ref, const LaunchOverhead& ours) {
        const json& w = ref["launch"];
        QCOMPARE(ours.kernels, w["kernels"].get<uint64_t>());
        QCOMPARE(ours.kernelsWithLaunch, w["kernels_with_launch"].get<uint64_t>());
        auto distribution = [](const Distribution& d, const json& want) {
            QCOMPARE(d.count == 0, want.is_null());
            if (d.count == 0) return;
            QVERIFY(near(d.mean, want["mean"].get<double>()));
            QCOMPARE(d.median, want["median"].get<TimeNs>());
            QCOMPARE(d.p95, want["p95"].get<TimeNs>());
            QCOMPARE(d.max, want["max"].get<TimeNs>());
        };
        distribution(ours.delay, w["delay_ns"]);
        distribution(ours.launch, w["launch_ns"]);
        QCOMPARE(ours.shortKernels, w["short_kernels"]["count"].get<uint64_t>());
        COMPARE_OPT_DOUBLE(ours.shortShare, w["short_kernels"]["share"]);
        COMPARE_OPT_DOUBLE(ours.shortTimeShare, w["short_kernels"]["time_share"]);
        for (size_t b = 0; b < kDelayBuckets; ++b) {
            QCOMPARE(kDelayBucketStart[b], w["histogram"][b]["from_ns"].get<TimeNs>());
            QCOMPARE(ours.histogram[b], w["histogram"][b]["count"].get<uint64_t>());
        }
        QCOMPARE(ours.byName.size(), w["by_name"].size());
        for (size_t i = 0; i < ours.byName.size(); ++i) {
            const KernelLaunchDelay& k = ours.byName[i];
            const json& x = w["by_name"][i];
            QCOMPARE(name(t, k.name), x["name"].get<std::string>());
            QCOMPARE(k.count, x["count"].get<uint64_t>());
            QVERIFY(near(k.meanDelay, x["mean_delay_ns"].get<double>()));
            QCOMPARE(k.maxDelay, x["max_delay_ns"].get<TimeNs>());
            QVERIFY(near(k.meanLaunch, x["mean_launch_ns"].get<double>()));
        }
    }

    void compareCopies(const Trace& t, const json& ref, const std::vector<CopyStats>& ours) {
        const json& want = ref["memcpy"];
        QCOMPARE(ours.size(), want.size());
        for (size_t i = 0; i < ours.size(); ++i) {
            const CopyStats& c = ours[i];
            const json& w = want[i];
            QCOMPARE(c.device, w["device"].get<int>());
            QCOMPARE(std::string(c.kind == ActivityKind::Memset ? "memset" : "memcpy"),
                     w["kind"].get<std::string>());
            QCOMPARE(name(t, c.name), w["name"].get<std::string>());
            QCOMPARE(bool(c.direction), !w["direction"].is_null());
            if (c.direction)
                QCOMPARE(std::string(copyDirectionName(*c.direction)),
                         w["direction"].get<std::string>());
            const char* memory = c.memory == HostMemory::Pageable ? "pageable"
                                 : c.memory == HostMemory::Pinned ? "pinned"
                                                                  : nullptr;
            QCOMPARE(memory == nullptr, w["memory"].is_null());
            if (memory) QCOMPARE(std::string(memory), w["memory"].get<std::string>());
            QCOMPARE(c.count, w["count"].get<uint64_t>());
            QCOMPARE(c.total, w["total_ns"].get<TimeNs>());
            QCOMPARE(bool(c.bytes), !w["bytes"].is_null());
            if (c.bytes) QCOMPARE(*c.bytes, w["bytes"].get<int64_t>());
            COMPARE_OPT_DOUBLE(c.bandwidthGBps, w["bandwidth_gbps"]);
        }
    }

    // The same through an index built once per trace (the GUI's way).
    void compareIndexed(const Trace& t, const json& ref, const StepsResult& steps,
                        OpStatsOptions oo) {
        const AnalysisIndex index(t);
        StepOptions so;
        so.index = &index;
        compareSteps(t, ref, stepAnalysis(t, so));
        if (QTest::currentTestFailed()) return;
        oo.index = &index;
        compareOps(t, ref, opStats(t, oo));
        if (QTest::currentTestFailed()) return;
        compareLaunch(t, ref, launchOverhead(t, kWholeTrace, &index));
        GapOptions go;
        const auto plain = gapsWithCauses(t, go);
        go.index = &index;
        const auto indexed = gapsWithCauses(t, go);
        QCOMPARE(indexed.size(), plain.size());
        for (size_t d = 0; d < plain.size(); ++d) {
            QCOMPARE(indexed[d].byCause, plain[d].byCause);
            QCOMPARE(indexed[d].gaps.size(), plain[d].gaps.size());
            for (size_t g = 0; g < plain[d].gaps.size(); ++g)
                QCOMPARE(indexed[d].gaps[g].evidence, plain[d].gaps[g].evidence);
        }
        // A range through the index: the steps that start in it, as the
        // whole-trace analysis gives them (slowness judged against all steps).
        if (steps.steps.size() >= 3) {
            so.window = {steps.steps[1].step.span.start, steps.steps[2].step.span.start + 1};
            const StepsResult some = stepAnalysis(t, so);
            QCOMPARE(some.steps.size(), size_t(2));
            for (size_t i = 0; i < 2; ++i) {
                QCOMPARE(some.steps[i].step.slice, steps.steps[i + 1].step.slice);
                QCOMPARE(some.steps[i].slow, steps.steps[i + 1].slow);
                QCOMPARE(some.steps[i].slowerBecause, steps.steps[i + 1].slowerBecause);
                QCOMPARE(some.steps[i].grewBy, steps.steps[i + 1].grewBy);
            }
        }
    }

    // Every analysis of one trace against the reference; returns the steps.
    StepsResult compareAll(const Trace& t, const json& ref) {
        const StepsResult steps = stepAnalysis(t);
        compareSteps(t, ref, steps);
        if (QTest::currentTestFailed()) return steps;
        std::vector<Step> spans;
        TimeNs stepTime = 0;
        for (const StepReport& r : steps.steps) {
            spans.push_back(r.step);
            stepTime += r.duration;
        }
        compareMemory(ref, memoryUsage(t, spans));
        if (QTest::currentTestFailed()) return steps;
        const TimeAccount account = timeAccount(steps, timeBreakdowns(t), gapsWithCauses(t));
        compareAccount(ref, account);
        if (QTest::currentTestFailed()) return steps;
        comparePipeline(t, ref, inputPipeline(t, spans, &account));
        if (QTest::currentTestFailed()) return steps;
        OpStatsOptions oo;
        oo.stepTime = stepTime;
        compareOps(t, ref, opStats(t, oo));
        if (QTest::currentTestFailed()) return steps;
        compareLaunch(t, ref, launchOverhead(t));
        if (QTest::currentTestFailed()) return steps;
        compareCopies(t, ref, memcpyStats(t));
        if (QTest::currentTestFailed()) return steps;
        compareIndexed(t, ref, steps, oo);
        return steps;
    }

    void realTrace(const QString& relative) {
        const QString path = test::sharedTraces() + "/" + relative;
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY2(r.trace, qPrintable(path));
        compareAll(*r.trace, reference(path));
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void generatedTraces_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("steps");
        QTest::newRow("kineto 3") << "kineto" << 3 << 8;
        QTest::newRow("kineto 9") << "kineto" << 9 << 4;
        QTest::newRow("tensorflow 5") << "tensorflow" << 5 << 6;
        QTest::newRow("tensorflow 8") << "tensorflow" << 8 << 7;
    }
    void generatedTraces() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator and the reference");
        QFETCH(QString, profile);
        QFETCH(int, seed);
        QFETCH(int, steps);
        const test::Generated g =
            test::generateTrace(dir_.path(), QStringLiteral("%1_%2.json").arg(profile).arg(seed),
                                {"--profile", profile, "--gpus", "2", "--steps",
                                 QString::number(steps), "--seed", QString::number(seed)});
        QVERIFY2(g.error.isEmpty(), qPrintable(g.error));
        const LoadResult r = loadTrace(g.trace.toStdString());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        const StepsResult ours = compareAll(t, reference(g.trace));
        if (QTest::currentTestFailed()) return;
        // The generator's truth: every step's span.
        QCOMPARE(ours.steps.size(), g.truth["steps"].size());
        for (size_t i = 0; i < ours.steps.size(); ++i) {
            QCOMPARE(ours.steps[i].step.span.start, g.truth["steps"][i]["start_ns"].get<TimeNs>());
            QCOMPARE(ours.steps[i].step.span.end, g.truth["steps"][i]["end_ns"].get<TimeNs>());
        }
        // The planted input stalls: slow, because input idle grew, on every GPU.
        for (const json& stall : g.truth["input_stall_steps"]) {
            const auto it =
                std::find_if(ours.steps.begin(), ours.steps.end(), [&](const StepReport& s) {
                    return s.step.span.start <= stall["start_ns"].get<TimeNs>() &&
                           stall["end_ns"].get<TimeNs>() <= s.step.span.end;
                });
            QVERIFY2(it != ours.steps.end(), "the stall lies inside a step");
            QVERIFY(it->slow);
            QCOMPARE(*it->slowerBecause, StepPart::IdleInput);
            // The wait for the batch comes before the step's first kernel:
            // its lead-in, where the step's GPU work is known (Kineto's
            // launches; TensorFlow's steps keep their host spans).
            for (const StepBreakdown& b : it->devices) {
                QVERIFY(b.tileParts().idleByCause[size_t(GapCause::Input)] > 0);
                if (b.source == WindowSource::Launched || b.source == WindowSource::Annotation)
                    QCOMPARE(b.leadInCause(), std::optional(GapCause::Input));
                else
                    QCOMPARE(b.leadIn.length(), TimeNs(0));
            }
        }
        QVERIFY(!g.truth["input_stall_steps"].empty() || steps < 6);
        // Memory high water per GPU, with its time.
        std::vector<Step> spans;
        for (const StepReport& s : ours.steps)
            spans.push_back(s.step);
        const MemoryReport memory = memoryUsage(t, spans);
        for (const auto& [device, truth] : g.truth["devices"].items()) {
            if (!truth.contains("memory_high_water_bytes")) continue;
            const auto it = std::find_if(
                memory.devices.begin(), memory.devices.end(),
                [&](const DeviceMemory& d) { return d.gpu && d.device == std::stoi(device); });
            QVERIFY2(it != memory.devices.end(), device.c_str());
            QCOMPARE(std::llround(it->peakAllocated),
                     truth["memory_high_water_bytes"].get<long long>());
        }
    }

    void realTraces_data() {
        QTest::addColumn<QString>("path");
        for (const char* dir : {"resnet50_num_workers_0", "resnet50_num_workers_4"}) {
            const QString folder =
                test::sharedTraces() + "/kineto/tb_plugin/samples/" + QString(dir);
            const QStringList files = QDir(folder).entryList({"*.json*"}, QDir::Files);
            // A moved folder fails here rather than dropping its rows.
            if (!test::sharedDir().isEmpty()) QVERIFY2(files.size() >= 2, qPrintable(folder));
            for (const QString& f : files)
                QTest::newRow(qPrintable(QString(dir) + " " + f))
                    << QString("kineto/tb_plugin/samples/%1/%2").arg(dir, f);
        }
        const QString dlrm =
            "param/example_input_files/chakra_traces/dlrm_kineto_extracted/"
            "dlrm_kineto";
        const QStringList ranks =
            QDir(test::sharedTraces() + "/" + dlrm).entryList({"*.json"}, QDir::Files);
        if (!test::sharedDir().isEmpty()) QVERIFY2(ranks.size() == 8, qPrintable(dlrm));
        for (const QString& f : ranks)
            QTest::newRow(qPrintable("DLRM " + f)) << dlrm + "/" + f;
        QTest::newRow("HTA [memory]")
            << "hta/tests/data/df_index_resolver/df_index_resolver.json.gz";
        QTest::newRow("TensorFlow tf.data")
            << "sagemaker-debugger/tests/profiler/resources/tfprofiler_timeline_traces/framework/"
               "tensorflow/detailed_profiling/2020080513/000000000/plugins/profile/"
               "2020_08_05_13_37_44/8c859046be41.ant.amazon.com.trace.json.gz";
        QTest::newRow("AMD ROCm")
            << "hta/tests/data/amd_trace/mi250_minitoy_train_ROCm6_2_kineto.json.gz";
    }
    void realTraces() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        QFETCH(QString, path);
        realTrace(path);
    }

    void bundledSample() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        const LoadResult r = loadTrace(test::samplePath().toStdString());
        QVERIFY(r.trace);
        compareAll(*r.trace, reference(test::samplePath()));
    }

    // The bf16 transformer recorded on an H200 (tests/data/recorded): the
    // DataLoader in the training process, and the same with eight workers.
    void recordedTransformer_data() {
        QTest::addColumn<QString>("variant");
        QTest::newRow("input_bound") << "input_bound";
        QTest::newRow("workers") << "workers";
    }
    void recordedTransformer() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        QFETCH(QString, variant);
        const QString path = test::sourceDir() + "/tests/data/recorded/h200_transformer_" +
                             variant + ".pt.trace.json.gz";
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY2(r.trace, qPrintable(path));
        compareAll(*r.trace, reference(path));
    }

    // The issue's pins: with the DataLoader in the training process
    // (num_workers=0) the ResNet50 runs are input-bound; with four workers
    // they are not, and the loader kinds say so.
    void resnet50Verdicts() {
        GAPSCOPE_REQUIRE_SHARED();
        for (const char* dir : {"resnet50_num_workers_0", "resnet50_num_workers_4"}) {
            const QString folder = test::sharedTraces() + "/kineto/tb_plugin/samples/" + dir;
            const QStringList files = QDir(folder).entryList({"*.json*"}, QDir::Files);
            QVERIFY(!files.isEmpty());
            for (const QString& f : files) {
                const LoadResult r = loadTrace((folder + "/" + f).toStdString());
                QVERIFY(r.trace);
                const TimeAccount account = timeAccountOf(*r.trace, {});
                const PipelineReport p =
                    inputPipeline(*r.trace, findSteps(*r.trace).steps, &account);
                QVERIFY(p.fromGpu);
                QVERIFY(p.dataLoader && p.dataLoader->kind);
                if (std::string(dir).ends_with("_0")) {
                    QVERIFY(p.verdict != InputVerdict::NotInputBound);
                    QCOMPARE(*p.dataLoader->kind, std::string("single-process"));
                } else {
                    QCOMPARE(p.verdict, InputVerdict::NotInputBound);
                    QCOMPARE(*p.dataLoader->kind, std::string("worker processes"));
                }
            }
        }
    }

    // The CPU runs ahead: each step's kernels run after its CPU span has
    // ended. Their figures follow the GPU work (hand-worked, in µs): step 1
    // launches at 50 what runs [150, 300); step 2 at 150 what runs
    // [300, 450). Step 1's window is its work [150, 300) after a lead-in
    // [0, 150) from its CPU start, step 2's [300, 450) with no lead-in:
    // each holds its own 150 µs of kernels, where the CPU spans [0, 100)
    // and [100, 200) held none.
    void stepWorkAfterItsCpuSpan() {
        const QStringList events = {ev("user_annotation", "ProfilerStep#1", 1, 1, 0, 100, -1),
                                    ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 50, 5, 1),
                                    ev("user_annotation", "ProfilerStep#2", 1, 1, 100, 100, -1),
                                    ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 150, 5, 2),
                                    ev("kernel", "k1", 0, 7, 150, 150, 1),
                                    ev("kernel", "k2", 0, 7, 300, 150, 2)};
        const LoadResult r = test::loadJsonText(("[" + events.join(',') + "]").toStdString());
        QVERIFY(r.trace);
        const StepsResult steps = stepAnalysis(*r.trace);
        QCOMPARE(steps.steps.size(), size_t(2));
        const std::vector<Interval> want = {{150'000, 300'000}, {300'000, 450'000}};
        const std::vector<Interval> leadIns = {{0, 150'000}, {300'000, 300'000}};
        for (size_t i = 0; i < 2; ++i) {
            const StepBreakdown& b = steps.steps[i].devices.at(0);
            QCOMPARE(b.gpuWindow, want[i]);
            QCOMPARE(b.leadIn, leadIns[i]);
            QCOMPARE(b.compute, TimeNs(150'000));
            QCOMPARE(b.idle, TimeNs(0));
            QCOMPARE(b.leadInParts.idle, leadIns[i].length());
        }
    }

    // Kernel time by scope (hand-worked, in µs): k1 and k2 are launched in
    // "## outer ##" > "nn.Module: Linear_0" (two frames of that name, one
    // path), through a Python frame, a compiler's range and an op that are
    // no scope; k1 again in the step only, k4 in an emit_nvtx op range and
    // k3 without a launch are outside any. With the named range "## outer
    // ##" as the step (a step regex), it is no scope either.
    void kernelScopesByNamedRanges() {
        const QStringList events = {
            ev("user_annotation", "ProfilerStep#1", 1, 1, 0, 1000, -1),
            ev("user_annotation", "## outer ##", 1, 1, 10, 500, -1),
            ev("python_function", "nn.Module: Linear_0", 1, 1, 20, 100, -1),
            ev("python_function", "model.py(3): forward", 1, 1, 25, 90, -1),
            ev("user_annotation", "## Call CompiledFxGraph fabc ##", 1, 1, 28, 80, -1),
            ev("cpu_op", "aten::mm", 1, 1, 30, 50, -1),
            ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 40, 10, 1),
            ev("kernel", "k1", 0, 7, 100, 20, 1),
            ev("python_function", "nn.Module: Linear_0", 1, 1, 200, 100, -1),
            ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 210, 10, 2),
            ev("kernel", "k2", 0, 7, 300, 30, 2),
            ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 600, 10, 3),
            ev("kernel", "k1", 0, 7, 700, 5, 3),
            ev("kernel", "k3", 0, 7, 800, 7, -1),
            ev("user_annotation", "aten::add, seq = 7", 1, 1, 620, 20, -1),
            ev("user_annotation", "aten::mul, op_id = 9", 1, 1, 622, 15, -1),
            ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 625, 5, 4),
            ev("kernel", "k4", 0, 7, 900, 3, 4)};
        const LoadResult r = test::loadJsonText(("[" + events.join(',') + "]").toStdString());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        const std::vector<KernelScope> scopes = kernelScopes(t);
        QCOMPARE(scopes.size(), size_t(2));
        using Times = std::vector<std::pair<std::string, TimeNs>>;
        auto times = [&](const KernelScope& s) {
            Times out;
            for (const auto& [n, time] : s.kernels)
                out.emplace_back(t.str(n), time);
            return out;
        };
        QCOMPARE(scopes[0].path, std::string());
        QCOMPARE(scopes[0].count, uint64_t(3));
        QCOMPARE(scopes[0].total, TimeNs(15'000));
        QCOMPARE(times(scopes[0]), (Times{{"k3", 7'000}, {"k1", 5'000}, {"k4", 3'000}}));
        QCOMPARE(scopes[1].path, std::string("## outer ## > nn.Module: Linear_0"));
        QCOMPARE(scopes[1].count, uint64_t(2));
        QCOMPARE(scopes[1].total, TimeNs(50'000));
        QCOMPARE(times(scopes[1]), (Times{{"k2", 30'000}, {"k1", 20'000}}));
        // With the index the same; "## outer ##" as a step is no scope.
        const AnalysisIndex index(t);
        KernelScopeOptions options{&index, nullptr, {}};
        QCOMPARE(kernelScopes(t, options).size(), size_t(2));
        for (uint32_t i = 0; i < t.slices.size(); ++i)
            if (t.str(t.slices[i].name) == "## outer ##") options.steps.push_back(i);
        QCOMPARE(options.steps.size(), size_t(1));
        const std::vector<KernelScope> inStep = kernelScopes(t, options);
        QCOMPARE(inStep.size(), size_t(2));
        QCOMPARE(inStep[1].path, std::string("nn.Module: Linear_0"));
    }

    // Device memory whatever the device type says: CUDA builds write 1,
    // ROCm builds and other accelerators their own; 0 is the host. The
    // peaks are the largest Total Allocated written per device.
    void memoryOfEveryDeviceType() {
        auto point = [](int type, int id, int ts, int allocated) {
            return QStringLiteral(
                       R"({"ph":"i","s":"t","cat":"cpu_instant_event","name":"[memory]","pid":1,)"
                       R"("tid":1,"ts":%1,"args":{"Device Type":%2,"Device Id":%3,"Bytes":1,)"
                       R"("Total Allocated":%4,"Total Reserved":%5}})")
                .arg(ts)
                .arg(type)
                .arg(id)
                .arg(allocated)
                .arg(allocated * 2);
        };
        const QStringList events = {point(0, -1, 1, 100), point(0, -1, 2, 50), point(1, 0, 1, 700),
                                    point(1, 0, 3, 900),  point(6, 1, 2, 300), point(6, 1, 4, 200),
                                    point(12, 2, 5, 40)};
        const LoadResult r = test::loadJsonText(("[" + events.join(',') + "]").toStdString());
        QVERIFY(r.trace);
        const MemoryReport m = memoryUsage(*r.trace, {});
        std::vector<std::tuple<bool, int, double>> got;
        for (const DeviceMemory& d : m.devices)
            got.push_back({d.gpu, d.device, d.peakAllocated});
        const std::vector<std::tuple<bool, int, double>> want = {
            {true, 0, 900}, {true, 1, 300}, {true, 2, 40}, {false, -1, 100}};
        QCOMPARE(got, want);
    }

    // A user regex picks the steps; numbers come from the names.
    // TensorFlow's train/test markers write step_num as an integer, a
    // number with a zero fraction, or a string of digits; a fraction or
    // another string is not a step number.
    void trainMarkerStepNumbers() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        const QString path = dir_.filePath("train_markers.json");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"traceEvents":[
{"ph":"M","pid":1,"tid":1,"name":"thread_name","args":{"name":"python"}},
{"ph":"X","pid":1,"tid":1,"name":"train","ts":100,"dur":50,"args":{"step_num":5.0}},
{"ph":"X","pid":1,"tid":1,"name":"train","ts":200,"dur":50,"args":{"step_num":"6"}},
{"ph":"X","pid":1,"tid":1,"name":"train","ts":300,"dur":50,"args":{"step_num":7}},
{"ph":"X","pid":1,"tid":1,"name":"train","ts":400,"dur":50,"args":{"step_num":8.5}},
{"ph":"X","pid":1,"tid":1,"name":"train","ts":500,"dur":50,"args":{"step_num":"9.0"}},
{"ph":"X","pid":1,"tid":1,"name":"test","ts":600,"dur":50,"args":{"step_num":10.000}}
]})");
        f.close();
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY(r.trace);
        const StepsResult steps = compareAll(*r.trace, reference(path));
        if (QTest::currentTestFailed()) return;
        QCOMPARE(steps.source, StepSource::TrainTest);
        std::vector<int64_t> numbers;
        for (const StepReport& s : steps.steps)
            numbers.push_back(s.step.number);
        QCOMPARE(numbers, (std::vector<int64_t>{5, 6, 7, 10}));
    }

    void stepRegex() {
        GAPSCOPE_REQUIRE_SHARED();
        const QString path =
            test::sharedTraces() + "/kineto/tb_plugin/samples/resnet50_num_workers_4/" +
            QDir(test::sharedTraces() + "/kineto/tb_plugin/samples/resnet50_num_workers_4")
                .entryList({"*.json*"}, QDir::Files)
                .first();
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY(r.trace);
        const StepList plain = findSteps(*r.trace);
        const std::regex re("^ProfilerStep#");
        const StepList byRegex = findSteps(*r.trace, &re);
        QCOMPARE(byRegex.source, StepSource::Regex);
        QCOMPARE(byRegex.steps.size(), plain.steps.size());
        for (size_t i = 0; i < plain.steps.size(); ++i) {
            QCOMPARE(byRegex.steps[i].number, plain.steps[i].number);
            QVERIFY(byRegex.steps[i].span == plain.steps[i].span);
        }
        const std::regex none("no step has this name");
        QCOMPARE(findSteps(*r.trace, &none).source, StepSource::ProfilerStep);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestHostAnalyses)
#include "tst_host_analyses.moc"
