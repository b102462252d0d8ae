// gapscope-cli diff, the regression gate, against the generator's truth:
// two gen_trace.py runs with different seeds give the step-time and kernel
// deltas that the truth files give (computed here from them, not by the
// tool); a condition just below a true change fails the gate (exit 1) and
// one just above passes (exit 0); identical runs give zero deltas and exit
// 0; every malformed --fail-if exits 2 and shows the grammar. Whether the
// step times changed beyond noise is the truth's own rank test: every way
// of splitting the twelve step times into two runs of six, counted here.

#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "report/run_diff.h"
#include "report/run_metrics.h"
#include "support/cli_run.h"
#include "support/generator.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "util/readable_units.h"

using json = nlohmann::json;
using gapscope::test::runCli;
using Run = gapscope::test::CliRun;

namespace {

json readJson(const QString& path) {
    std::ifstream in(path.toStdString());
    return json::parse(in);
}

// From a truth file: the mean and the median (mean of the middle two,
// rounded down) of the step durations, and each kernel's total and count.
struct Truth {
    double stepMean = 0;
    int64_t stepMedian = 0;
    std::map<std::string, std::pair<int64_t, int64_t>> kernels;  // name -> (count, total ns)
    int64_t kernelTotal = 0;
    std::vector<int64_t> steps;  // durations, in step order
};

// Two-sided exact Mann-Whitney p of `now` against `base` (distinct values):
// of all ways to choose which pooled values are NEW's, the share whose U
// is at least as far from its middle as the observed one.
double exactRankTestP(const std::vector<int64_t>& base, const std::vector<int64_t>& now) {
    std::vector<int64_t> pooled = base;
    pooled.insert(pooled.end(), now.begin(), now.end());
    const size_t n = pooled.size();
    auto uOf = [&](uint32_t mask) {
        double u = 0;
        for (size_t i = 0; i < n; ++i)
            for (size_t j = 0; j < n; ++j)
                if ((mask >> i & 1) && !(mask >> j & 1) && pooled[i] > pooled[j]) u += 1;
        return u;
    };
    uint32_t observed = 0;
    for (size_t i = base.size(); i < n; ++i)
        observed |= 1u << i;
    const double pairs = double(base.size() * now.size());
    const double u = uOf(observed), far = std::max(u, pairs - u);
    double total = 0, asFar = 0;
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
        if (size_t(__builtin_popcount(mask)) != now.size()) continue;
        total += 1;
        asFar += uOf(mask) >= far;
    }
    return std::min(1.0, 2 * asFar / total);
}

Truth truthOf(const json& t) {
    Truth out;
    std::vector<int64_t> d;
    for (const json& s : t["steps"])
        d.push_back(s["end_ns"].get<int64_t>() - s["start_ns"].get<int64_t>());
    out.steps = d;
    double sum = 0;
    for (int64_t x : d)
        sum += double(x);
    out.stepMean = sum / double(d.size());
    std::sort(d.begin(), d.end());
    const size_t m = d.size() / 2;
    out.stepMedian = d.size() % 2 ? d[m] : (d[m - 1] + d[m]) / 2;
    for (const auto& [name, k] : t["kernels"].items()) {
        out.kernels[name] = {k["count"].get<int64_t>(), k["total_ns"].get<int64_t>()};
        out.kernelTotal += k["total_ns"].get<int64_t>();
    }
    return out;
}

const json* metric(const json& diff, const std::string& name) {
    for (const json& m : diff["metrics"])
        if (m["metric"] == name) return &m;
    return nullptr;
}

}  // namespace

class TestDiff : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString a_, b_, a2_;
    Truth ta_, tb_;

    bool generate(const QString& out, int seed, const QString& truth) {
        QProcess gen;
        gen.start(
            gapscope::test::python(),
            {gapscope::test::sharedDir() + "/tools/gen_trace.py", "--profile", "kineto", "--steps",
             "6", "--seed", QString::number(seed), "--out", out, "--truth", truth, "--quiet"});
        return gen.waitForFinished(120000) && gen.exitCode() == 0;
    }

    json diffJson(const QStringList& extra, int expectedExit) {
        const Run r = runCli(QStringList{"diff", a_, b_, "--format", "json", "--no-cache"} + extra);
        if (r.exitCode != expectedExit) {
            qWarning("exit %d, expected %d: %s", r.exitCode, expectedExit, r.err.constData());
            return {};
        }
        return json::parse(r.out.toStdString());
    }

  private slots:
    void initTestCase() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        a_ = dir_.filePath("a.json");
        b_ = dir_.filePath("b.json");
        a2_ = dir_.filePath("a-again.json");
        QVERIFY(generate(a_, 1, dir_.filePath("a.truth.json")));
        QVERIFY(generate(b_, 2, dir_.filePath("b.truth.json")));
        QVERIFY(generate(a2_, 1, dir_.filePath("a2.truth.json")));
        ta_ = truthOf(readJson(dir_.filePath("a.truth.json")));
        tb_ = truthOf(readJson(dir_.filePath("b.truth.json")));
        QVERIFY(ta_.stepMean != tb_.stepMean);
    }

    void deltasAreTheTruthsDeltas() {
        const json d = diffJson({}, 0);
        QVERIFY(!d.is_null());
        const json* step = metric(d, "step_time");
        QVERIFY(step);
        // The mean step in integer ns, rounded, as every time is written.
        QCOMPARE((*step)["base"].get<int64_t>(), std::llround(ta_.stepMean));
        QCOMPARE((*step)["new"].get<int64_t>(), std::llround(tb_.stepMean));
        QCOMPARE((*step)["delta"].get<int64_t>(),
                 std::llround(tb_.stepMean) - std::llround(ta_.stepMean));
        const json* median = metric(d, "step_time_median");
        QCOMPARE((*median)["base"].get<int64_t>(), ta_.stepMedian);
        QCOMPARE((*median)["new"].get<int64_t>(), tb_.stepMedian);
        QCOMPARE((*metric(d, "kernel_total"))["base"].get<int64_t>(), ta_.kernelTotal);
        QCOMPARE((*metric(d, "kernel_total"))["new"].get<int64_t>(), tb_.kernelTotal);
        // Every kernel of either run, with the truth's count and total.
        size_t seen = 0;
        for (const json& k : d["kernels"]) {
            const std::string name = k["name"];
            const auto ia = ta_.kernels.find(name), ib = tb_.kernels.find(name);
            QVERIFY2(ia != ta_.kernels.end() || ib != tb_.kernels.end(), name.c_str());
            const int64_t baseTotal = ia != ta_.kernels.end() ? ia->second.second : 0;
            const int64_t newTotal = ib != tb_.kernels.end() ? ib->second.second : 0;
            QCOMPARE(k["total_base_ns"].get<int64_t>(), baseTotal);
            QCOMPARE(k["total_new_ns"].get<int64_t>(), newTotal);
            QCOMPARE(k["delta_total_ns"].get<int64_t>(), newTotal - baseTotal);
            const std::string status =
                ia == ta_.kernels.end()                                         ? "new"
                : ib == tb_.kernels.end()                                       ? "vanished"
                : baseTotal == newTotal && ia->second.first == ib->second.first ? "same"
                                                                                : "changed";
            // A change is weighed against the noise of the name's time per
            // step (its p checked against a reference in compare_pairs_test).
            if (status == "changed" && !k["step_p_value"].is_null()) {
                const bool noise = k["step_p_value"].get<double>() >= 0.05;
                QCOMPARE(k["status"].get<std::string>(),
                         std::string(noise ? "within_noise" : "changed"));
            } else {
                QCOMPARE(k["status"].get<std::string>(), status);
            }
            ++seen;
        }
        std::set<std::string> names;
        for (const auto& [n, v] : ta_.kernels)
            names.insert(n);
        for (const auto& [n, v] : tb_.kernels)
            names.insert(n);
        QCOMPARE(seen, names.size());
        // Sorted by impact: the absolute change of total time never grows.
        for (size_t i = 1; i < d["kernels"].size(); ++i)
            QVERIFY(std::llabs(d["kernels"][i]["delta_total_ns"].get<int64_t>()) <=
                    std::llabs(d["kernels"][i - 1]["delta_total_ns"].get<int64_t>()));
    }

    // Thresholds just either side of the true relative changes.
    void theGateFailsJustPastATrueChange() {
        const double stepChange = 100.0 * (tb_.stepMean - ta_.stepMean) / ta_.stepMean;
        // The kernel whose total changed most, by the truth.
        std::string kernel;
        double kernelChange = 0;
        for (const auto& [name, k] : ta_.kernels) {
            const auto it = tb_.kernels.find(name);
            if (it == tb_.kernels.end() || k.second == 0) continue;
            const double c = 100.0 * double(it->second.second - k.second) / double(k.second);
            if (std::abs(c) > std::abs(kernelChange)) {
                kernelChange = c;
                kernel = name;
            }
        }
        QVERIFY(!kernel.empty() && std::abs(kernelChange) > 0.5);
        QString escaped;  // the name as a regex matching itself only
        for (const QChar ch : QString::fromStdString(kernel))
            escaped += QString(ch.isLetterOrNumber() || ch == '_' ? "" : "\\") + ch;
        const auto sign = [](double v) { return v >= 0 ? QString("+") : QString(""); };
        const auto gate = [&](const QString& expr) {
            return runCli({"diff", a_, b_, "--no-cache", "--fail-if", expr});
        };
        const QString below = QString::number(stepChange - 0.05, 'f', 3);
        const QString above = QString::number(stepChange + 0.05, 'f', 3);
        Run r = gate("step_time>" + sign(stepChange - 0.05) + below + "%");
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("FAILED step_time>"), r.err.constData());
        r = gate("step_time>" + sign(stepChange + 0.05) + above + "%");
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains("ok     step_time>"));
        const QString k = "kernel:" + escaped + ".total";
        if (kernelChange > 0) {
            QCOMPARE(gate(k + ">+" + QString::number(kernelChange - 0.1, 'f', 3) + "%").exitCode,
                     1);
            QCOMPARE(gate(k + ">+" + QString::number(kernelChange + 0.1, 'f', 3) + "%").exitCode,
                     0);
        } else {
            QCOMPARE(gate(k + "<" + QString::number(kernelChange + 0.1, 'f', 3) + "%").exitCode, 1);
            QCOMPARE(gate(k + "<" + QString::number(kernelChange - 0.1, 'f', 3) + "%").exitCode, 0);
        }
        // An absolute change in the metric's unit: the kernel total moved
        // by exactly this many ns.
        const int64_t delta = tb_.kernelTotal - ta_.kernelTotal;
        const QString d = (delta >= 0 ? "+" : "") + QString::number(delta);
        QCOMPARE(gate("kernel_total>=" + d).exitCode, 1);
        QCOMPARE(gate("kernel_total>" + d).exitCode, 0);
        const double deltaUs = double(delta) / 1000.0 - 0.001;
        QCOMPARE(gate("kernel_total>" + QString(deltaUs >= 0 ? "+" : "") +
                      QString::number(deltaUs, 'f', 3) + "us")
                     .exitCode,
                 1);
        // Several conditions: the list names the one that crossed.
        r = runCli({"diff", a_, b_, "--no-cache", "--fail-if", "kernel_total>=" + d, "--fail-if",
                    "gpu_busy<0"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("FAILED kernel_total>="));
        QVERIFY(r.err.contains("ok     gpu_busy<0"));
    }

    // The step times' change against their noise: the p-value is the
    // truth's exact rank test, and a gate with @95% fails only when the
    // change also crosses its threshold.
    void theNoiseTestIsTheTruthsRankTest() {
        QCOMPARE(ta_.steps.size(), size_t(6));
        const double p = exactRankTestP(ta_.steps, tb_.steps);
        const json d = diffJson({}, 0);
        const json* st = metric(d, "step_time");
        QVERIFY(st && d.contains("step_noise"));
        const json& t = d["step_noise"];
        QVERIFY2(std::abs(t["p_value"].get<double>() - p) < 1e-12, t.dump().c_str());
        QCOMPARE(t["exact"].get<bool>(), true);
        QCOMPARE(t["steps_base"].get<int>(), 6);
        QCOMPARE(t["significant"].get<bool>(), p < 0.05);
        const std::string said = p < 0.05 ? "beyond noise" : "within noise";
        QCOMPARE((*st)["noise"].get<std::string>(), said);
        QCOMPARE((*metric(d, "step_time_median"))["noise"].get<std::string>(), said);
        QVERIFY((*metric(d, "gpu_idle"))["noise"].is_null());  // no noise test

        // Just past the true change: the plain gate fails; with @95% it
        // fails only if the change is beyond noise, and says which.
        const double change = 100.0 * (tb_.stepMean - ta_.stepMean) / ta_.stepMean;
        const double threshold = change >= 0 ? change - 0.05 : change + 0.05;
        const QString past = QString("step_time") + (change >= 0 ? ">" : "<") +
                             (threshold >= 0 ? "+" : "") + QString::number(threshold, 'f', 3) + "%";
        // Which way NEW's steps ranked: the pairs (BASE step, NEW step) where
        // NEW's is longer, against half of them. A gate counts a change
        // beyond noise only the way it looks (> longer, < shorter).
        double longer = 0;
        for (int64_t n : tb_.steps)
            for (int64_t b : ta_.steps)
                longer += n > b ? 1 : n == b ? 0.5 : 0;
        const double half = double(ta_.steps.size() * tb_.steps.size()) / 2;
        const bool agrees = change >= 0 ? longer > half : longer < half;
        Run r = runCli({"diff", a_, b_, "--no-cache", "--fail-if", past + "@95%"});
        QCOMPARE(r.exitCode, p < 0.05 && agrees ? 1 : 0);
        QVERIFY2(r.err.contains(p < 0.05 ? "beyond noise" : "within noise"), r.err.constData());
        // At a level the p-value passes either way.
        const QString loose = QString::number(std::min(99.9, 100 * (1 - p) - 0.1), 'f', 1);
        if (100 * (1 - p) > 0.2) {
            r = runCli({"diff", a_, b_, "--no-cache", "--fail-if", past + "@" + loose + "%"});
            QCOMPARE(r.exitCode, agrees ? 1 : 0);
            if (!agrees)
                QVERIFY2(r.err.contains("but the steps moved the other way"), r.err.constData());
        }
        // The same run twice: nothing beyond noise.
        r = runCli({"diff", a_, a2_, "--no-cache", "--fail-if", "step_time>=+0%@95%"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.err.contains("within noise (p = 1,"), r.err.constData());
    }

    // Kineto's ResNet50 pair (the DataLoader in the main process, then with
    // four workers): the diff's idle figures are each trace's own (its
    // summary's GPU time table) subtracted, the input-bound finding is
    // resolved, and the verdict says the input wait fell, per step.
    void theResNetPairsVerdictNamesTheInputWait() {
        const QString samples = gapscope::test::sharedTraces() + "/kineto/tb_plugin/samples/";
        const QString base =
            samples + "resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz";
        const QString now =
            samples + "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
        const Run r = runCli({"diff", base, now, "--format", "json", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        const json d = json::parse(r.out.toStdString());
        auto gpuRow = [](const QString& trace) {
            const Run s = runCli({"summary", trace, "--format", "json", "--no-cache"});
            return json::parse(s.out.toStdString())["gpus"][0];
        };
        auto steps = [](const QString& trace) {
            const Run s = runCli({"steps", trace, "--format", "json", "--no-cache"});
            return json::parse(s.out.toStdString())["steps"].size();
        };
        const json gb = gpuRow(base), gn = gpuRow(now);
        for (const char* cause : {"input", "host", "synchronization", "short"}) {
            const std::string key = std::string("idle_") + cause;
            const json* m = metric(d, key);
            QVERIFY(m);
            QCOMPARE((*m)["base"].get<int64_t>(), gb[key + "_ns"].get<int64_t>());
            QCOMPARE((*m)["new"].get<int64_t>(), gn[key + "_ns"].get<int64_t>());
        }
        // Per GPU: every figure of the time account, each trace's own.
        QCOMPARE(d["gpus"].size(), size_t(10));  // one GPU, ten figures
        for (const json& f : d["gpus"]) {
            QCOMPARE(f["device_base"].get<int>(), gb["device"].get<int>());
            const std::string key = f["figure"].get<std::string>() + "_ns";
            QVERIFY2(gb.contains(key), key.c_str());
            QCOMPARE(f["base_ns"].get<int64_t>(), gb[key].get<int64_t>());
            QCOMPARE(f["new_ns"].get<int64_t>(), gn[key].get<int64_t>());
            QCOMPARE(f["delta_ns"].get<int64_t>(), gn[key].get<int64_t>() - gb[key].get<int64_t>());
        }
        bool resolved = false;
        for (const json& f : d["advice"])
            resolved |= f["rule"] == "input-bound" && f["status"] == "resolved";
        QVERIFY(resolved);
        // The input wait per step, written as every view writes a duration.
        const std::string from = gapscope::readableDuration(static_cast<gapscope::TimeNs>(
            std::llround(gb["idle_input_ns"].get<double>() / double(steps(base)))));
        const std::string verdict = d["verdict"].get<std::string>();
        QVERIFY2(verdict.find("GPU idle for input fell from " + from + " to 0 ns per step") !=
                     std::string::npos,
                 verdict.c_str());
        QVERIFY2(verdict.find("resolved: input-bound") != std::string::npos, verdict.c_str());
    }

    // Each headline metric is the registered figure it names: the diff's
    // value of each run equals what `gapscope-cli ANALYSIS` writes for that
    // figure of that run, in another process (a share as its fraction).
    void everyHeadlineMetricIsItsAnalysissFigure() {
        const json d = diffJson({}, 0);
        QCOMPARE(d["metrics"].size(), gapscope::headlineMetrics().size());
        std::map<std::string, json> analyses[2];
        size_t compared = 0;
        for (const gapscope::HeadlineMetric& h : gapscope::headlineMetrics()) {
            const json* m = metric(d, h.name);
            QVERIFY2(m, h.name.c_str());
            for (int k = 0; k < 2; ++k) {
                json& doc = analyses[k][h.analysis];
                if (doc.is_null()) {
                    const Run r = runCli({QString::fromStdString(h.analysis), k ? b_ : a_,
                                          "--format", "json", "--no-cache"});
                    QCOMPARE(r.exitCode, 0);
                    doc = json::parse(r.out.toStdString());
                }
                // The figure's dotted key is a path in the JSON.
                const json* v = &doc;
                size_t from = 0;
                for (size_t dot; v && (dot = h.figure.find('.', from), true); from = dot + 1) {
                    const std::string part = h.figure.substr(from, dot - from);
                    v = v->contains(part) ? &(*v)[part] : nullptr;
                    if (dot == std::string::npos) break;
                }
                QVERIFY2(v, (h.analysis + " has no figure " + h.figure).c_str());
                const json& got = (*m)[k ? "new" : "base"];
                QVERIFY2(got == *v || (got.is_number() && v->is_number() &&
                                       std::abs(got.get<double>() - v->get<double>()) <=
                                           1e-12 * std::max(1.0, std::abs(v->get<double>()))),
                         (h.name + ": diff " + got.dump() + ", " + h.analysis + " " + v->dump())
                             .c_str());
                compared += v->is_null() ? 0 : 1;
            }
        }
        QVERIFY(compared > 2 * 12);  // most figures have a value in both runs
    }

    void identicalRunsHaveNoDelta() {
        const Run r = runCli({"diff", a_, a2_, "--format", "json", "--no-cache", "--fail-if",
                              "step_time>+0%", "--fail-if", "kernel:.*.total>+0%"});
        QCOMPARE(r.exitCode, 0);
        const json d = json::parse(r.out.toStdString());
        for (const json& m : d["metrics"]) {
            if (m["delta"].is_null()) continue;  // a figure neither run has
            QVERIFY2(m["delta"].get<double>() == 0, m.dump().c_str());
        }
        for (const json& k : d["kernels"])
            QCOMPARE(k["status"].get<std::string>(), std::string("same"));
        for (const json& o : d["ops"])
            QCOMPARE(o["status"].get<std::string>(), std::string("same"));
        QCOMPARE(d["failed"].get<bool>(), false);
        // Zero is not more than zero, but it is at least zero.
        QCOMPARE(runCli({"diff", a_, a2_, "--no-cache", "--fail-if", "step_time>=+0%"}).exitCode,
                 1);
    }

    void malformedConditionsExit2() {
        const QStringList bad = {"step_time",
                                 "step_time>",
                                 "bogus>+5%",
                                 "memory_peak>+5ms",
                                 "step_time>+5pp",
                                 "kernel_count>+5MiB",
                                 "op:aten::mm>+5%",
                                 "op:aten::mm.bogus>+5%",
                                 "kernel:(.total>+5%",
                                 "kernel:x.mean>abc",
                                 "kernel:a\\6666666666666666666.count>0",  // (fuzz_fail_if)
                                 "gpu_idle>+2ppx",
                                 "step_time>5%",
                                 ">+5%",
                                 "step_time>+nan%",
                                 "step_time>+5%@",
                                 "step_time>+5%@95",
                                 "step_time>+5%@0%",
                                 "step_time>+5%@100%",
                                 "gpu_idle>+2pp@95%",
                                 "kernel:x.total>+5%@95%"};
        for (const QString& expr : bad) {
            const Run r = runCli({"diff", a_, b_, "--no-cache", "--fail-if", expr});
            QVERIFY2(r.exitCode == 2, qPrintable(expr + ": exit " + QString::number(r.exitCode)));
            QVERIFY2(r.err.contains("METRIC    :="), qPrintable(expr + ": " + r.err));
            QVERIFY2(r.out.isEmpty(), qPrintable(expr + ": refused before anything is loaded"));
        }
        QCOMPARE(runCli({"diff", a_}).exitCode, 2);
        QCOMPARE(runCli({"diff", a_, dir_.filePath("missing.json")}).exitCode, 2);
    }

    void textAndMarkdownShowTheTables() {
        Run r = runCli({"diff", a_, b_, "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("step_time") && r.out.contains("Figures compared:") &&
                r.out.contains("\nKernels:\n"));
        r = runCli({"diff", a_, b_, "--no-cache", "--format", "md"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("| Figure | Unit | Base | New |"));
    }

    // Two jobs of four ranks, each an identical trace but one rank planted
    // late by a known shift (make_rank_set.py --same-seed): in BASE rank 2
    // by 1.5 ms, in NEW rank 1 by 0.5 ms. Every step's straggler is that
    // rank and each other rank waits exactly the shift for it; each rank's
    // figures are those `gapscope-cli ranks` gives for its own job.
    void twoJobsCompareEachRankAndTheStragglers() {
        QString error;
        auto job = [&](const QString& name, const QString& straggler, const QString& shift) {
            const QString out = dir_.filePath(name);
            const QStringList files =
                gapscope::test::makeRankSet(out,
                                            {"--ranks", "4", "--steps", "4", "--same-seed",
                                             "--straggler", straggler, "--shift-us", shift},
                                            &error);
            return files.isEmpty() ? QString() : out;
        };
        const QString base = job("job-base", "2", "1500"), now = job("job-new", "1", "500");
        QVERIFY2(!base.isEmpty() && !now.isEmpty(), qPrintable(error));
        const Run r = runCli({"diff", base, now, "--format", "json", "--no-cache"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const json d = json::parse(r.out.toStdString());
        // The stragglers: 4 steps each, 3 ranks waiting the shift in each.
        std::map<std::string, json> figures;
        for (const json& f : d["stragglers"])
            figures[f["figure"].get<std::string>()] = f;
        QCOMPARE(figures["steps_with_straggler"]["base"].get<int64_t>(), 4);
        QCOMPARE(figures["steps_with_straggler"]["new"].get<int64_t>(), 4);
        QCOMPARE(figures["others_wait"]["base"].get<int64_t>(), 4 * 3 * 1'500'000);
        QCOMPARE(figures["others_wait"]["new"].get<int64_t>(), 4 * 3 * 500'000);
        QCOMPARE(figures["others_wait"]["delta"].get<int64_t>(), 4 * 3 * (500'000 - 1'500'000));
        QCOMPARE(figures["others_wait_per_step"]["new"].get<double>(), 3 * 500'000.0);
        QCOMPARE(figures["longest_wait"]["base"].get<int64_t>(), 1'500'000);
        QCOMPARE(figures["most_often"]["base"].get<int64_t>(), 2);
        QCOMPARE(figures["most_often"]["new"].get<int64_t>(), 1);
        QVERIFY(figures["most_often"]["delta"].is_null());
        // Each rank: the figures of `ranks` on its own job, both sides.
        std::map<int64_t, json> own[2];
        for (int k = 0; k < 2; ++k) {
            const Run ranks =
                runCli({"ranks", k == 0 ? base : now, "--format", "json", "--no-cache"});
            QVERIFY2(ranks.exitCode == 0, ranks.err.constData());
            const json parsed = json::parse(ranks.out.toStdString());
            for (const json& rank : parsed["ranks"])
                own[k][rank["rank"].get<int64_t>()] = rank;
        }
        QCOMPARE(d["ranks"].size(), size_t(4));
        for (const json& row : d["ranks"]) {
            const int64_t rank = row["rank"].get<int64_t>();
            for (int k = 0; k < 2; ++k) {
                const json& side = row[k == 0 ? "base" : "new"];
                const json& t = own[k][rank];
                QCOMPARE(side["wait_ns"].get<int64_t>(), t["wait_ns"].get<int64_t>());
                QCOMPARE(side["exposed_comm_ns"].get<int64_t>(),
                         t["exposed_comm_ns"].get<int64_t>());
                QCOMPARE(side["step_time_ns"].get<double>(), t["step_time_ns"].get<double>());
            }
            QCOMPARE(row["delta"]["wait_ns"].get<int64_t>(),
                     row["new"]["wait_ns"].get<int64_t>() - row["base"]["wait_ns"].get<int64_t>());
            // The straggler waits for nobody: every step on the others.
            QCOMPARE(row["base"]["straggler_in"].get<int64_t>(), rank == 2 ? 4 : 0);
            QCOMPARE(row["new"]["straggler_in"].get<int64_t>(), rank == 1 ? 4 : 0);
        }
        // The text output names both tables.
        const Run text = runCli({"diff", base, now, "--no-cache"});
        QVERIFY(text.out.contains("\nRanks:\n") && text.out.contains("\nStragglers:\n"));
    }

    // The verdict weighs noise at the gates' level when they name one, so
    // that the verdict and a gate never disagree; mixed levels: 95 %.
    void theVerdictTakesTheGatesLevel() {
        auto levels = [&](const QStringList& gates) {
            QStringList args = {"diff", a_, b_, "--no-cache", "--format", "json"};
            for (const QString& g : gates)
                args << "--fail-if" << g;
            const Run r = runCli(args);
            const json d = json::parse(r.out.toStdString());
            const json* st = metric(d, "step_time");
            return st ? d["step_noise"]["level"].get<double>() : -1.0;
        };
        QCOMPARE(levels({}), 0.95);
        QCOMPARE(levels({"step_time>+1000%@99%"}), 0.99);
        QCOMPARE(levels({"step_time>+1000%@99%", "step_time_median>+1000%@99%"}), 0.99);
        QCOMPARE(levels({"step_time>+1000%@99%", "step_time_median>+1000%@90%"}), 0.95);
    }

    // Kernels that gave way to others in a named range are one change in
    // the verdict, over their time in that range (hand-worked, one step of
    // 10 ms each): in S, a (3 ms) and b (1 ms) vanished and c (2 ms) is
    // new; "moved" left S for T but still runs, so it is no part of it;
    // a's other 2 ms, outside any named range, are told of a itself.
    // A kernel's change is weighed against its time per step only where the
    // steps hold its time: the same in every step but more of it before the
    // first (warm-up) stays changed; a wobble per step is within noise; a
    // shift beyond the steps' spread is changed, and named in the verdict.
    void aNamesChangeIsWeighedAgainstItsStepsNoise() {
        using namespace gapscope;
        const TimeNs us = 1000;
        RunMetrics base, now;
        for (RunMetrics* m : {&base, &now}) {
            m->stepCount = 6;
            m->stepDurations = std::vector<TimeNs>(6, 10'000 * us);
            m->headline["step_time"] = m->headline["step_time_median"] = 10'000.0 * us;
        }
        auto kernel = [](std::vector<TimeNs> perStep, TimeNs outside) {
            RunMetrics::Kernel k;
            k.count = perStep.size();
            for (const TimeNs t : perStep)
                k.total += t;
            k.total += outside;
            k.perStep = std::move(perStep);
            return k;
        };
        base.kernels["warm"] =
            kernel({100 * us, 100 * us, 100 * us, 100 * us, 100 * us, 100 * us}, 0);
        now.kernels["warm"] =
            kernel({100 * us, 100 * us, 100 * us, 100 * us, 100 * us, 100 * us}, 5'000 * us);
        base.kernels["wobble"] =
            kernel({500 * us, 505 * us, 495 * us, 502 * us, 498 * us, 500 * us}, 0);
        now.kernels["wobble"] =
            kernel({501 * us, 497 * us, 503 * us, 499 * us, 500 * us, 504 * us}, 0);
        base.kernels["slower"] =
            kernel({300 * us, 301 * us, 299 * us, 303 * us, 302 * us, 298 * us}, 0);
        now.kernels["slower"] =
            kernel({400 * us, 401 * us, 399 * us, 403 * us, 402 * us, 398 * us}, 0);
        const RunDiff d = diffRuns(base, now);
        auto find = [&](const char* name) {
            return *std::find_if(d.kernels.begin(), d.kernels.end(),
                                 [&](const KernelDelta& k) { return k.name == name; });
        };
        QCOMPARE(find("warm").status, NameStatus::Changed);  // the steps hold 55 % of it
        QVERIFY(!find("warm").stepChange);
        QCOMPARE(find("wobble").status, NameStatus::WithinNoise);
        QVERIFY(find("wobble").stepChange->pValue >= 0.05);
        QCOMPARE(find("slower").status, NameStatus::Changed);
        // Exact (six and six, no ties): every NEW above every BASE, p = 2 / C(12, 6).
        QVERIFY(find("slower").stepChange->exact);
        QCOMPARE(find("slower").stepChange->pValue, 2.0 / 924.0);
        const QString verdict = QString::fromStdString(d.verdict);
        QVERIFY2(verdict.contains("slower rose from"), qPrintable(verdict));
        QVERIFY2(!verdict.contains("wobble"), qPrintable(verdict));
    }

    void aReplacedScopeIsOneChange() {
        using namespace gapscope;
        const TimeNs ms = 1'000'000;
        RunMetrics base, now;
        for (RunMetrics* m : {&base, &now}) {
            m->stepCount = 1;
            m->headline["step_time"] = m->headline["step_time_median"] = double(10 * ms);
            m->stepDurations = {10 * ms};
        }
        base.kernels = {{"a", {2, 5 * ms, "", "S", {}}},
                        {"b", {1, 1 * ms, "", "S", {}}},
                        {"moved", {2, 2 * ms, "", "T", {}}}};
        base.scopes = {{"", {1, 2 * ms, {{"a", 2 * ms}}}},
                       {"S", {3, 4 * ms + ms / 2, {{"a", 3 * ms}, {"b", ms}, {"moved", ms / 2}}}},
                       {"T", {1, ms + ms / 2, {{"moved", ms + ms / 2}}}}};
        now.kernels = {{"c", {1, 2 * ms, "", "S", {}}}, {"moved", {2, 2 * ms, "", "T", {}}}};
        now.scopes = {{"S", {1, 2 * ms, {{"c", 2 * ms}}}}, {"T", {2, 2 * ms, {{"moved", 2 * ms}}}}};
        const RunDiff d = diffRuns(base, now);
        const QString verdict = QString::fromStdString(d.verdict);
        QVERIFY2(verdict.contains("in S, a and b gave way to c: 4.00 ms became 2.00 ms per step"),
                 qPrintable(verdict));
        QVERIFY2(verdict.contains("kernel a gone (it took 2.00 ms) per step"), qPrintable(verdict));
        QVERIFY2(!verdict.contains("new kernel c") && !verdict.contains("kernel b gone"),
                 qPrintable(verdict));
        // The scope's table: every name only on one side, with its time there.
        const auto s = std::find_if(d.scopes.begin(), d.scopes.end(),
                                    [](const ScopeDelta& x) { return x.name == "S"; });
        QVERIFY(s != d.scopes.end());
        QCOMPARE(s->gone, (std::vector<std::string>{"a", "b", "moved"}));
        QCOMPARE(s->goneTime, 4 * ms + ms / 2);
        QCOMPARE(s->added, std::vector<std::string>{"c"});
        QCOMPARE(s->addedTime, 2 * ms);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestDiff)
#include "tst_diff.moc"
