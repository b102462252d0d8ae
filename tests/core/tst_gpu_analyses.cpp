// The GPU time breakdown, kernel statistics and idle gaps with their causes
// and evidence against an independent
// reference (tests/tools/reference_gpu_analyses.py: Python's json module,
// exact decimals, its own interval sweeps) on generated traces of both
// profiles and on real traces (the bundled H200 sample, an HTA trace with
// NCCL kernels), over the whole trace and over a range; and against the
// generator's ground truth for busy time and per-kernel count, total, min
// and max.

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/gap_causes.h"
#include "analysis/kernel_stats.h"
#include "analysis/time_breakdown.h"
#include "support/generator.h"
#include "support/reference_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using json = nlohmann::json;

namespace {

json reference(const QString& trace, const QString& range = {}) {
    QStringList args{trace};
    if (!range.isEmpty()) args << "--range" << range;
    return test::runReference("reference_gpu_analyses.py", args);
}

bool near(double a, double b) {
    return test::nearlyEqual(a, b);
}

}  // namespace

class TestGpuAnalyses : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Compares our breakdown and kernel statistics with the reference's.
    void compare(const Trace& t, const json& ref, Interval window) {
        const auto ours = timeBreakdowns(t, window);
        QCOMPARE(ours.size(), ref["devices"].size());
        for (size_t i = 0; i < ours.size(); ++i) {
            const GpuTimeBreakdown& b = ours[i];
            const json& r = ref["devices"][i];
            QCOMPARE(b.device, r["device"].get<int>());
            QCOMPARE(b.computation, r["computation_ns"].get<TimeNs>());
            QCOMPARE(b.exposedComm, r["exposed_comm_ns"].get<TimeNs>());
            QCOMPARE(b.exposedMemcpy, r["exposed_memcpy_ns"].get<TimeNs>());
            QCOMPARE(b.busy, r["busy_ns"].get<TimeNs>());
            QCOMPARE(b.idle, r["idle_ns"].get<TimeNs>());
            QCOMPARE(b.total, r["total_ns"].get<TimeNs>());
            QCOMPARE(b.totalComm, r["total_comm_ns"].get<TimeNs>());
            QCOMPARE(b.totalMemcpy, r["total_memcpy_ns"].get<TimeNs>());
            QCOMPARE(b.computation + b.exposedComm + b.exposedMemcpy + b.idle, b.total);
            QCOMPARE(bool(b.commOverlap), !r["comm_overlap"].is_null());
            if (b.commOverlap) QVERIFY(near(*b.commOverlap, r["comm_overlap"].get<double>()));
        }
        // Idle gaps with causes and evidence, at the default threshold.
        const json& rg = ref["gaps"];
        GapOptions go;
        go.window = window;
        QCOMPARE(go.minGapNs, rg["threshold_ns"].get<TimeNs>());
        const auto gaps = gapsWithCauses(t, go);
        QCOMPARE(gaps.size(), rg["devices"].size());
        for (size_t i = 0; i < gaps.size(); ++i) {
            const DeviceGaps& d = gaps[i];
            const json& r = rg["devices"][i];
            QCOMPARE(d.device, r["device"].get<int>());
            QCOMPARE(d.busy, r["busy_ns"].get<TimeNs>());
            QCOMPARE(d.shortCount, r["short_gaps"]["count"].get<uint64_t>());
            QCOMPARE(d.shortTotal, r["short_gaps"]["total_ns"].get<TimeNs>());
            for (size_t c = 0; c < kGapCauseCount; ++c)
                QCOMPARE(d.byCause[c], r["by_cause"][gapCauseName(GapCause(c))].get<TimeNs>());
            QCOMPARE(d.gaps.size(), r["gaps"].size());
            for (size_t k = 0; k < d.gaps.size(); ++k) {
                const CausedGap& g = d.gaps[k];
                const json& w = r["gaps"][k];
                QCOMPARE(g.gap.start, w["start_ns"].get<TimeNs>());
                QCOMPARE(g.gap.end, w["end_ns"].get<TimeNs>());
                QCOMPARE(std::string(gapCauseName(g.cause)), w["cause"].get<std::string>());
                QCOMPARE(g.evidence.size(), w["evidence"].size());
                for (size_t e = 0; e < g.evidence.size(); ++e) {
                    const Slice& sl = t.slices[g.evidence[e]];
                    QCOMPARE(std::string(t.str(sl.name)),
                             w["evidence"][e]["name"].get<std::string>());
                    QCOMPARE(sl.start, w["evidence"][e]["start_ns"].get<TimeNs>());
                    QCOMPARE(sl.end(), w["evidence"][e]["end_ns"].get<TimeNs>());
                }
            }
        }
        // Kernel statistics of the whole trace (the reference ignores --range).
        if (!(window == kWholeTrace)) return;
        KernelStatsOptions options;
        options.window = window;
        for (const bool byDevice : {false, true}) {
            options.byDevice = byDevice;
            const auto stats = kernelStats(t, options);
            const json& want = ref[byDevice ? "kernels_by_device" : "kernels"];
            QCOMPARE(stats.size(), want.size());
            std::map<std::pair<int, std::string>, const KernelStats*> byName;
            for (const KernelStats& k : stats)
                byName[{k.device, std::string(t.str(k.name))}] = &k;
            for (const json& w : want) {
                const auto it = byName.find({byDevice ? w["device"].get<int>() : -1, w["name"]});
                QVERIFY2(it != byName.end(), w["name"].get<std::string>().c_str());
                const KernelStats& k = *it->second;
                QCOMPARE(k.count, w["count"].get<uint64_t>());
                QCOMPARE(k.total, w["total_ns"].get<TimeNs>());
                QCOMPARE(k.min, w["min_ns"].get<TimeNs>());
                QCOMPARE(k.max, w["max_ns"].get<TimeNs>());
                QCOMPARE(k.median, w["median_ns"].get<TimeNs>());
                QCOMPARE(k.p95, w["p95_ns"].get<TimeNs>());
                QVERIFY(near(k.mean, w["mean_ns"].get<double>()));
                QCOMPARE(bool(k.stddev), !w["stddev_ns"].is_null());
                if (k.stddev) QVERIFY(near(*k.stddev, w["stddev_ns"].get<double>()));
            }
        }
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void generatedTraces_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("steps");
        // 7 Kineto steps and 6 TensorFlow steps include a planted input stall.
        QTest::newRow("kineto 5") << "kineto" << 5 << 7;
        QTest::newRow("kineto 9") << "kineto" << 9 << 4;
        QTest::newRow("tensorflow 5") << "tensorflow" << 5 << 6;
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
        compare(t, reference(g.trace), kWholeTrace);
        if (QTest::currentTestFailed()) return;
        // A range: the middle 40 % of the trace, cutting through kernels.
        const TimeNs span = t.spanEnd - t.spanStart;
        const Interval mid{t.spanStart + span * 3 / 10, t.spanStart + span * 7 / 10};
        compare(t, reference(g.trace, QStringLiteral("%1:%2").arg(mid.start).arg(mid.end)), mid);
        if (QTest::currentTestFailed()) return;
        // The generator's own truth: busy time per device, kernels per name.
        for (const GpuTimeBreakdown& b : timeBreakdowns(t)) {
            const json& d = g.truth["devices"][std::to_string(b.device)];
            QCOMPARE(b.busy, d["busy_ns"].get<TimeNs>());
        }
        // Every planted gap, to the nanosecond, and nothing else (gaps
        // within 1 us of the threshold are listed apart by the truth).
        for (const DeviceGaps& d : gapsWithCauses(t)) {
            const json& truth = g.truth["devices"][std::to_string(d.device)];
            std::vector<std::pair<TimeNs, TimeNs>> want, got;
            for (const json& x : truth["idle_gaps"])
                want.push_back({x["start_ns"].get<TimeNs>(), x["end_ns"].get<TimeNs>()});
            for (const CausedGap& x : d.gaps)
                got.push_back({x.gap.start, x.gap.end});
            QCOMPARE(got, want);
            // The gaps inside a planted input stall are caused by input.
            for (const json& stall : g.truth["input_stall_steps"]) {
                const Interval st{stall["start_ns"].get<TimeNs>(), stall["end_ns"].get<TimeNs>()};
                int inside = 0;
                for (const CausedGap& x : d.gaps) {
                    if (2 * (std::min(x.gap.end, st.end) - std::max(x.gap.start, st.start)) <
                        x.gap.length())
                        continue;  // not mostly inside the stall
                    QCOMPARE(std::string(gapCauseName(x.cause)), std::string("input"));
                    ++inside;
                }
                QVERIFY2(inside > 0, "a planted stall must leave a gap on every device");
            }
        }
        QVERIFY(steps < 6 || !g.truth["input_stall_steps"].empty());
        const auto stats = kernelStats(t);
        for (const auto& [name, k] : g.truth["kernels"].items()) {
            const auto it = std::find_if(stats.begin(), stats.end(), [&](const KernelStats& s) {
                return t.str(s.name) == name;
            });
            QVERIFY2(it != stats.end(), name.c_str());
            QCOMPARE(it->count, k["count"].get<uint64_t>());
            QCOMPARE(it->total, k["total_ns"].get<TimeNs>());
            QCOMPARE(it->min, k["min_ns"].get<TimeNs>());
            QCOMPARE(it->max, k["max_ns"].get<TimeNs>());
        }
    }

    void realTraces_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("H200 sample") << test::samplePath();
        QTest::newRow("HTA, NCCL kernels") << "hta/tests/data/trace_diff/test/test.json.gz";
    }

    // The Kineto ResNet50 samples: with the DataLoader in the training
    // process (num_workers=0) most idle time waits for input; with four
    // workers none does (it is launch-bound instead).
    void resnet50InputBound() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        for (const char* dir : {"resnet50_num_workers_0", "resnet50_num_workers_4"}) {
            const QString folder = test::sharedTraces() + "/kineto/tb_plugin/samples/" + dir;
            const QStringList files = QDir(folder).entryList({"*.json*"}, QDir::Files);
            QVERIFY2(!files.isEmpty(), qPrintable(folder));
            const QString path = folder + "/" + files.first();
            const LoadResult r = loadTrace(path.toStdString());
            QVERIFY(r.trace);
            compare(*r.trace, reference(path), kWholeTrace);
            if (QTest::currentTestFailed()) return;
            TimeNs input = 0, listed = 0;
            for (const DeviceGaps& d : gapsWithCauses(*r.trace)) {
                input += d.byCause[size_t(GapCause::Input)];
                for (const TimeNs c : d.byCause)
                    listed += c;
            }
            QVERIFY(listed > 0);
            const double share = double(input) / double(listed);
            if (std::string(dir).ends_with("_0")) {
                QVERIFY2(share > 0.5, qPrintable(QString::number(share)));
            } else {
                QCOMPARE(input, TimeNs(0));
            }
        }
    }
    void realTraces() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        QFETCH(QString, path);
        if (!path.startsWith('/')) {
            GAPSCOPE_REQUIRE_SHARED();
            path = test::sharedTraces() + "/" + path;
        }
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        compare(*r.trace, reference(path), kWholeTrace);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestGpuAnalyses)
#include "tst_gpu_analyses.moc"
