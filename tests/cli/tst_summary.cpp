// gapscope-cli summary against the generator's truth: the kernel and step
// tables in CSV (parsed back here with an RFC 4180 reader), JSON and HTML
// hold the truth's numbers; a kernel named with <script>, quotes, a line
// break and a leading = is escaped in HTML and neutralised in CSV; --out
// writes one file per CSV table.

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>

#include "support/cli_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using json = nlohmann::json;
using gapscope::test::runCli;
using Run = gapscope::test::CliRun;

namespace {

const std::string kHostile = "=cmd|' /C calc'!A0 <script>alert(\"x\")</script>\nnext line";

// RFC 4180: quoted fields may hold commas, quotes ("") and line breaks.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string cell;
    bool quoted = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                cell += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                cell += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(cell);
            cell.clear();
        } else if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
            rows.back().push_back(cell);
            cell.clear();
            rows.emplace_back();
            ++i;
        } else {
            cell += c;
        }
    }
    if (!cell.empty() || !rows.back().empty()) rows.back().push_back(cell);
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

std::string readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

}  // namespace

class TestSummary : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    QString trace_;
    json truth_;
    std::string renamed_;  // the kernel given the hostile name

  private slots:
    void initTestCase() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        const QString plain = dir_.filePath("plain.json"), truth = dir_.filePath("truth.json");
        QProcess gen;
        gen.start(gapscope::test::python(),
                  {gapscope::test::sharedDir() + "/tools/gen_trace.py", "--profile", "kineto",
                   "--steps", "5", "--seed", "3", "--out", plain, "--truth", truth, "--quiet"});
        QVERIFY(gen.waitForFinished(120000) && gen.exitCode() == 0);
        truth_ = json::parse(readFile(truth));
        // The kernel with the most time gets the hostile name, in the trace
        // and in the truth.
        std::string top;
        int64_t most = -1;
        for (const auto& [name, k] : truth_["kernels"].items()) {
            if (k["total_ns"].get<int64_t>() > most) {
                most = k["total_ns"].get<int64_t>();
                top = name;
            }
        }
        renamed_ = top;
        json t = json::parse(readFile(plain));
        for (json& e : t["traceEvents"])
            if (e.contains("name") && e["name"] == top && e.value("cat", "") == "kernel")
                e["name"] = kHostile;
        truth_["kernels"][kHostile] = truth_["kernels"][top];
        truth_["kernels"].erase(top);
        trace_ = dir_.filePath("hostile.json");
        std::ofstream(trace_.toStdString()) << t.dump();
    }

    void csvTablesHoldTheTruthsNumbers() {
        const QString out = dir_.filePath("csv");
        QVERIFY(QDir().mkpath(out));
        const Run r = runCli(
            {"summary", trace_, "--format", "csv", "--out", out, "--top", "5", "--no-cache"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        for (const char* id :
             {"gpus", "steps", "kernels", "ops", "input_pipeline", "memory", "advice"})
            QVERIFY2(QFile::exists(out + "/" + id + ".csv"), id);
        const auto kernels = parseCsv(readFile(out + "/kernels.csv"));
        QCOMPARE(kernels.front().front(), std::string("Kernel"));
        QCOMPARE(kernels.size(), size_t(6));  // header + --top 5
        // The top 5 of the truth, in order of total time.
        std::vector<std::pair<int64_t, std::string>> byTotal;
        for (const auto& [name, k] : truth_["kernels"].items())
            byTotal.push_back({-k["total_ns"].get<int64_t>(), name});
        std::sort(byTotal.begin(), byTotal.end());
        for (size_t i = 0; i < 5; ++i) {
            const auto& row = kernels[i + 1];
            const json& k = truth_["kernels"][byTotal[i].second];
            // A name that starts with = is written with a leading ' (no formula).
            const std::string expectedName =
                byTotal[i].second.front() == '=' ? "'" + byTotal[i].second : byTotal[i].second;
            QCOMPARE(row[0], expectedName);
            QCOMPARE(std::stoll(row[1]), k["count"].get<int64_t>());
            QCOMPARE(std::stoll(row[2]), k["total_ns"].get<int64_t>());
        }
        QCOMPARE(kernels[1][0], "'" + kHostile);  // the hostile one has the most time
        // Steps: count, mean and median of the truth's step spans.
        const auto steps = parseCsv(readFile(out + "/steps.csv"));
        std::vector<int64_t> d;
        for (const json& s : truth_["steps"])
            d.push_back(s["end_ns"].get<int64_t>() - s["start_ns"].get<int64_t>());
        std::sort(d.begin(), d.end());
        double sum = 0;
        for (int64_t x : d)
            sum += double(x);
        QCOMPARE(std::stoll(steps[1][1]), int64_t(d.size()));
        QVERIFY(std::abs(std::stod(steps[1][2]) - sum / double(d.size())) <= 0.5);
        QCOMPARE(std::stoll(steps[1][3]),
                 d.size() % 2 ? d[d.size() / 2] : (d[d.size() / 2 - 1] + d[d.size() / 2]) / 2);
        QCOMPARE(std::stoll(steps[1][4]), d.back());
    }

    void jsonHoldsTheSameNumbersAsCsv() {
        const Run csv = runCli({"summary", trace_, "--format", "csv", "--no-cache"});
        const Run js = runCli({"summary", trace_, "--format", "json", "--no-cache"});
        QCOMPARE(csv.exitCode, 0);
        QCOMPARE(js.exitCode, 0);
        // On stdout CSV is one table: the first (gpus) by default, the
        // one --table names; nothing but CSV.
        const auto gpus = parseCsv(csv.out.toStdString());
        QCOMPARE(gpus.front().front(), std::string("GPU"));
        const Run kernelsCsv =
            runCli({"summary", trace_, "--format", "csv", "--table", "kernels", "--no-cache"});
        QCOMPARE(kernelsCsv.exitCode, 0);
        const auto kernels = parseCsv(kernelsCsv.out.toStdString());
        const json j = json::parse(js.out.toStdString());
        QCOMPARE(j["gpus"].size() + 1, gpus.size() - (gpus.back().empty() ? 1 : 0));
        const json& rows = j["kernels"];
        QCOMPARE(rows.size() + 1, kernels.size() - (kernels.back().empty() ? 1 : 0));
        for (size_t i = 0; i < rows.size(); ++i) {
            QCOMPARE(rows[i]["total_ns"].get<int64_t>(), std::stoll(kernels[i + 1][2]));
            QCOMPARE(rows[i]["count"].get<int64_t>(), std::stoll(kernels[i + 1][1]));
        }
        QCOMPARE(rows[0]["name"].get<std::string>(), kHostile);  // JSON keeps the name
    }

    // The summary's ops table is the `ops` command's, its first --top rows,
    // cell for cell (one table, defined once).
    void opsTableIsTheOpsCommands() {
        const QString out = dir_.filePath("ops-summary");
        QVERIFY(QDir().mkpath(out));
        const Run summary = runCli(
            {"summary", trace_, "--format", "csv", "--out", out, "--top", "3", "--no-cache"});
        QVERIFY2(summary.exitCode == 0, summary.err.constData());
        const Run ops = runCli({"ops", trace_, "--format", "csv", "--no-cache"});
        QVERIFY2(ops.exitCode == 0, ops.err.constData());
        const auto fromSummary = parseCsv(readFile(out + "/ops.csv"));
        const auto fromOps = parseCsv(ops.out.toStdString());
        QCOMPARE(fromSummary.size(), size_t(4));  // header + --top 3
        QVERIFY(fromOps.size() >= fromSummary.size());
        for (size_t i = 0; i < fromSummary.size(); ++i)
            QCOMPARE(fromSummary[i], fromOps[i]);
    }

    void htmlEscapesWhatComesFromTheTrace() {
        const Run r = runCli({"summary", trace_, "--format", "html", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        const std::string html = r.out.toStdString();
        QVERIFY(html.find("<script>") == std::string::npos);
        QVERIFY(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;") !=
                std::string::npos);
        QVERIFY(html.find("&#39; /C calc&#39;") != std::string::npos);
        QVERIFY(html.rfind("<!DOCTYPE html>", 0) == 0);
        QVERIFY(html.find("</html>") != std::string::npos);
        const Run md = runCli({"summary", trace_, "--format", "md", "--no-cache"});
        QCOMPARE(md.exitCode, 0);
        QVERIFY(md.out.startsWith("## GPU time"));
        QVERIFY(md.out.contains("## Top kernels by total time"));
        QVERIFY(html.find("<title>Gapscope Summary: hostile.json</title>") != std::string::npos);
    }

    // A named figure has one value wherever it is shown: the input wait,
    // the busy share, the step time and the memory peak in the summary,
    // `pipeline`, `steps`, `advice`, `memory` and the regression gate's
    // metrics (the viewer's Overview is the summary's "gpus" table:
    // tst_panels_cli; the report prints the summary's tables).
    void aNamedFigureIsTheSameEverywhere_data() {
        QTest::addColumn<QString>("trace");
        QTest::newRow("sample") << gapscope::test::samplePath();
        QTest::newRow("h200_transformer_workers")
            << gapscope::test::sourceDir() +
                   "/tests/data/recorded/h200_transformer_workers.pt.trace.json.gz";
        const QString shared = gapscope::test::sharedTraces();
        if (shared.isEmpty()) return;
        QTest::newRow("dlrm_rank_0")
            << shared +
                   "/param/example_input_files/chakra_traces/dlrm_kineto_extracted/dlrm_kineto/"
                   "worker0_step_12.1694128201545.pt.trace.json";
        QTest::newRow("resnet50_num_workers_0")
            << shared +
                   "/kineto/tb_plugin/samples/resnet50_num_workers_0/"
                   "worker0.1623143089861.pt.trace.json.gz";
        QTest::newRow("kineto_gpu_metrics")
            << shared + "/kineto/tb_plugin/test/gpu_metrics_input.json";
    }
    void aNamedFigureIsTheSameEverywhere() {
        QFETCH(QString, trace);
        try {
            sameFigures(trace);
        } catch (const std::exception& e) {
            QFAIL(e.what());
        }
    }
    void sameFigures(const QString& trace) {
        auto cli = [&](QStringList args) {
            args << trace << "--format"
                 << "json"
                 << "--no-cache";
            const Run r = runCli(args);
            if (r.exitCode != 0) qWarning("%s", r.err.constData());
            return r.exitCode == 0 ? json::parse(r.out.toStdString()) : json();
        };
        const json summary = cli({"summary"});
        const json pipeline = cli({"pipeline"});
        const json steps = cli({"steps"});
        const json advice = cli({"advice"});
        const json memory = cli({"memory"});
        const Run diffRun = runCli({"diff", trace, trace, "--format", "json", "--no-cache"});
        QCOMPARE(diffRun.exitCode, 0);
        std::map<std::string, double> metric;
        const json diff = json::parse(diffRun.out.toStdString());
        for (const json& m : diff["metrics"])
            if (!m["base"].is_null())
                metric[m["metric"].get<std::string>()] = m["base"].get<double>();
        const json& gpus = summary["gpus"];
        QVERIFY(!gpus.empty());

        // Input wait: the account's idle for input, all GPUs.
        int64_t inputWait = 0, time = 0, busy = 0;
        for (const json& g : gpus) {
            inputWait += g["idle_input_ns"].get<int64_t>();
            time += g["time_ns"].get<int64_t>();
            busy += g["busy_ns"].get<int64_t>();
        }
        const json& verdict = summary["input_pipeline"][0];
        QCOMPARE(verdict["input_wait_ns"].get<int64_t>(), inputWait);
        QCOMPARE(verdict["time_ns"].get<int64_t>(), time);
        QCOMPARE(pipeline["input_wait_ns"].get<int64_t>(), inputWait);
        QCOMPARE(pipeline["time_ns"].get<int64_t>(), time);
        QCOMPARE(metric.at("idle_input"), double(inputWait));
        for (const json& f : advice["findings"]) {
            std::map<std::string, json> figure;
            for (const json& x : f["figures"])
                figure[x["key"].get<std::string>()] = x["value"];
            if (f["rule"] == "input-bound") {
                QCOMPARE(figure.at("input_wait_ns").get<int64_t>(), inputWait);
                QCOMPARE(figure.at("time_ns").get<int64_t>(), time);
            }
            if (f["rule"] == "gpu-idle" && f["device"].is_null()) {
                QCOMPARE(figure.at("idle_input_ns").get<int64_t>(), inputWait);
                QCOMPARE(figure.at("time_ns").get<int64_t>(), time);
            }
        }
        // The gap list is the account's idle: per cause the listed gaps add
        // up to it (the Gaps panel and the shading list the same gaps).
        const json gaps = cli({"gaps"});
        int64_t gapsInput = 0, listedInput = 0;
        for (const json& d : gaps["gap_totals"])
            gapsInput += d["by_cause"]["input"].get<int64_t>();
        for (const json& g : gaps["gaps"])
            if (g["cause"] == "input")
                listedInput += g["end_ns"].get<int64_t>() - g["start_ns"].get<int64_t>();
        QCOMPARE(gapsInput, inputWait);
        QCOMPARE(listedInput, inputWait);
        // With steps the account is the steps' lead-ins and GPU windows:
        // `steps`' parts add up to the same idle for input and the same time.
        if (verdict["denominator"] == "step time") {
            int64_t stepsInput = 0, stepsTime = 0;
            for (const json& d : steps["steps"]) {
                if (d["device"].is_null()) continue;  // a step without GPU work
                stepsInput += d["idle_input_ns"].get<int64_t>();
                stepsTime += d["gpu_window_ns"].get<int64_t>() + d["lead_in_ns"].get<int64_t>();
            }
            for (const json& d : steps["lead_ins"])
                stepsInput += d["idle_input_ns"].get<int64_t>();
            QCOMPARE(stepsInput, inputWait);
            QCOMPARE(stepsTime, time);
            // The step time: the summary's mean and the gate's.
            const json& stepRow = summary["steps"][0];
            QCOMPARE(double(stepRow["mean_duration_ns"].get<int64_t>()),
                     std::round(metric.at("step_time")));
            QCOMPARE(double(stepRow["median_duration_ns"].get<int64_t>()),
                     metric.at("step_time_median"));
        }
        // The busy share of the account, as the diff's gpu_busy (a share).
        QVERIFY(std::abs(metric.at("gpu_busy") - double(busy) / double(time)) < 1e-12);
        if (gpus.size() == 1)
            QVERIFY(std::abs(gpus[0]["busy_share"].get<double>() - metric.at("gpu_busy")) < 1e-12);
        // The memory peak of the GPUs: the summary's, `memory`'s, the gate's.
        const json& memRows = summary["memory"];
        for (size_t i = 0; i < memRows.size(); ++i)
            QCOMPARE(memRows[i]["peak_allocated_bytes"].get<int64_t>(),
                     memory["memory"][i]["peak_allocated_bytes"].get<int64_t>());
        if (metric.count("memory_peak")) {
            double peak = 0;
            for (const json& d : memory["memory"])
                if (d["device"] != "host")
                    peak = std::max(peak, d["peak_allocated_bytes"].get<double>());
            QCOMPARE(metric.at("memory_peak"), peak);
        }
    }

    void badArgumentsAreRefused() {
        QCOMPARE(runCli({"summary", trace_, "--format", "pdf"}).exitCode, 1);
        QCOMPARE(runCli({"summary", trace_, "--out", dir_.filePath("nowhere")}).exitCode, 1);
        QCOMPARE(runCli({"summary", dir_.filePath("missing.json")}).exitCode, 2);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestSummary)
#include "tst_summary.moc"
