// Every panel that shows an analysis's result table shows what
// `gapscope-cli` prints for the same trace and scope: the panel's exported
// JSON rows against the CLI's JSON, on real traces (the bundled sample and a
// recorded JAX XSpace always; with ../shared, HTA's rank trace and Kineto's
// ResNet50 pair too).

#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "loading/trace_loader.h"
#include "main_window.h"
#include "panel_wait.h"
#include "panels/analysis_panel.h"
#include "panels/analysis_table.h"
#include "panels/gaps_panel.h"
#include "panels/health_panel.h"
#include "panels/kernels_panel.h"
#include "panels/memory_panel.h"
#include "panels/ops_panel.h"
#include "panels/overview_panel.h"
#include "panels/panel_host.h"
#include "panels/pipeline_panel.h"
#include "panels/steps_panel.h"
#include "panels/table_export.h"
#include "support/cli_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

using namespace gapscope;
using namespace gapscope::ui;
using nlohmann::json;

namespace {

std::string dumped(const json& j) {
    return j.dump();
}

// Rows keyed by what identifies them (the order of a sortable view is the
// user's; the CLI's is its own).
std::map<std::string, json> byKey(const json& rows, const std::vector<std::string>& keys) {
    std::map<std::string, json> out;
    for (const json& r : rows) {
        std::string k;
        for (const std::string& key : keys)
            k += dumped(r[key]) + "|";
        out[k] = r;
    }
    return out;
}

}  // namespace

class TestPanelsCli : public QObject {
    Q_OBJECT
    std::unique_ptr<app::MainWindow> window_;
    QTemporaryDir dir_;

    PanelHost* host() const { return window_->panels(); }

    bool settle() { return test::settlePanels(host(), 120000); }
    template <class P>
    P* panel(const char* dock) {
        return test::settledPanel<P>(host(), dock, 120000);
    }

    json exportedRows(const TableSnapshot& table, const QString& name) {
        const QString path = dir_.filePath(name + ".json");
        QString error;
        if (!writeTableSnapshot(table, path, &error)) {
            qWarning("%s", qPrintable(error));
            return json();
        }
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) return json();
        return json::parse(f.readAll().toStdString())["rows"];
    }

    json cli(const QStringList& args) {
        const test::CliRun r = test::runCli(args + QStringList{"--format", "json", "--no-cache"});
        if (r.exitCode != 0) {
            qWarning("gapscope-cli %s: %s", qPrintable(args.join(' ')), r.err.constData());
            return json();
        }
        return json::parse(r.out.toStdString());
    }

    // The panel's rows and the CLI's, matched by `keys`, equal.
    static bool same(const json& panel, const json& cli, const std::vector<std::string>& keys,
                     QString* why) {
        if (!panel.is_array() || !cli.is_array()) {
            *why = QStringLiteral("no rows");
            return false;
        }
        const auto a = byKey(panel, keys), b = byKey(cli, keys);
        if (a.size() != panel.size() || b.size() != cli.size() || a.size() != b.size()) {
            *why = QStringLiteral("%1 panel rows, %2 CLI rows").arg(panel.size()).arg(cli.size());
            return false;
        }
        for (const auto& [k, row] : a) {
            const auto it = b.find(k);
            if (it == b.end() || it->second != row) {
                *why = QString::fromStdString(
                    row.dump() + "\n  CLI: " + (it == b.end() ? "none" : it->second.dump()));
                return false;
            }
        }
        return true;
    }

    // The step numbers `gapscope-cli steps` finds, in order.
    std::vector<int64_t> stepsOfCli(const QString& trace) {
        std::vector<int64_t> out;
        const json steps = cli({"steps", trace});  // kept: the loop reads into it
        for (const json& st : steps["steps"])
            out.push_back(st["number"].get<int64_t>());
        return out;
    }

  private slots:
    void initTestCase() {
        QSettings().clear();
        QVERIFY(dir_.isValid());
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->disableCacheForSession();
        window_->resize(1600, 1000);
        window_->show();
    }

    void panelsEqualTheCli_data() {
        QTest::addColumn<QString>("trace");
        QTest::newRow("sample") << test::samplePath();
        QTest::newRow("jax_mlp_xspace")
            << test::sourceDir() + QStringLiteral("/tests/data/recorded/jax_mlp.xplane.pb");
        // With ../shared (CI has it; a person's clone may not): more producers.
        const QString shared = test::sharedTraces();
        if (shared.isEmpty()) return;
        QTest::newRow("hta_rank") << shared +
                                         "/hta/tests/data/rank_unavailable/rank_not_found.json.gz";
        QTest::newRow("resnet50_num_workers_0")
            << shared +
                   "/kineto/tb_plugin/samples/resnet50_num_workers_0/"
                   "worker0.1623143089861.pt.trace.json.gz";
        QTest::newRow("resnet50_num_workers_4")
            << shared +
                   "/kineto/tb_plugin/samples/resnet50_num_workers_4/"
                   "worker0.1623212756351.pt.trace.json.gz";
        QTest::newRow("nsight_cloverleaf")
            << shared + "/pipit/tests/data/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite";
    }

    void panelsEqualTheCli() {
        QFETCH(QString, trace);
        QVERIFY2(QFileInfo::exists(trace), qPrintable(trace));
        window_->openTrace(trace);
        window_->loader()->wait();
        QVERIFY(settle());
        QVERIFY(host()->session()->scope().whole());
        QString why;

        auto* kernels = panel<KernelsPanel>("kernelsDock");
        QVERIFY(kernels);
        QVERIFY2(same(exportedRows(kernels->kernels()->snapshot(), "kernels"),
                      cli({"kernels", trace})["kernels"], {"name"}, &why),
                 qPrintable("kernels: " + why));
        QVERIFY2(same(exportedRows(kernels->copies()->snapshot(), "copies"),
                      cli({"memcpy", trace})["copies"], {"device", "kind", "name"}, &why),
                 qPrintable("copies: " + why));

        auto* ops = panel<OpsPanel>("opsDock");
        QVERIFY(ops);
        QVERIFY2(same(exportedRows(ops->table()->snapshot(), "ops"), cli({"ops", trace})["ops"],
                      {"name"}, &why),
                 qPrintable("ops: " + why));

        // The CLI's gaps JSON is per device, with the evidence slices.
        json cliGaps = json::array();
        const json gapsJson = cli({"gaps", trace});
        for (const json& d : gapsJson["devices"])
            for (const json& g : d["gaps"]) {
                std::vector<std::string> names;
                for (const json& e : g["evidence"])
                    if (std::find(names.begin(), names.end(), e["name"]) == names.end())
                        names.push_back(e["name"].get<std::string>());
                cliGaps.push_back(
                    {{"device", d["device"]},
                     {"start_ns", g["start_ns"]},
                     {"duration_ns", g["end_ns"].get<TimeNs>() - g["start_ns"].get<TimeNs>()},
                     {"cause", g["cause"]},
                     {"evidence", names.empty() ? json(nullptr) : json(names)}});
            }
        // Trace Health: the panel's checks are info --json's.
        json cliHealth = json::array();
        {
            const test::CliRun r = test::runCli({"info", trace, "--json", "--no-cache"});
            QCOMPARE(r.exitCode, 0);
            const json info = json::parse(r.out.toStdString());
            for (const json& c : info["health"])
                cliHealth.push_back(
                    {{"check", c["check"]},
                     {"title", c["title"]},
                     {"severity", c["severity"]},
                     {"count", c["count"]},
                     {"first_ns",
                      c["examples"].empty() ? json(nullptr) : c["examples"][0]["start_ns"]},
                     {"first", c["examples"].empty() ? c["detail"] : c["examples"][0]["name"]},
                     {"effect", c["effect"]}});
        }
        auto* health = panel<HealthPanel>("healthDock");
        QVERIFY(health);
        QVERIFY2(
            same(exportedRows(health->checks()->snapshot(), "health"), cliHealth, {"check"}, &why),
            qPrintable("health: " + why));

        auto* gaps = panel<GapsPanel>("gapsDock");
        QVERIFY(gaps);
        QVERIFY2(same(exportedRows(gaps->table()->snapshot(), "gaps"), cliGaps,
                      {"device", "start_ns"}, &why),
                 qPrintable("gaps: " + why));
        // The timeline shades those very gaps, and per cause they are the
        // Overview's idle time, whole trace and one step alike.
        const Trace& t = *window_->tracePage()->trace();
        const auto& shaded = window_->tracePage()->timeline()->gaps();
        QCOMPARE(shaded.size(), t.gpuDevices.size());
        for (size_t e = 0; e < t.gpuDevices.size(); ++e) {
            json listed = json::array(), drawn = json::array();
            for (const json& d : gapsJson["devices"])
                if (d["device"] == t.gpuDevices[e].index)
                    for (const json& g : d["gaps"])
                        listed.push_back({g["start_ns"], g["end_ns"]});
            for (const Interval& g : shaded[e])
                drawn.push_back({g.start, g.end});
            QCOMPARE(drawn.dump(), listed.dump());
        }
        auto inputOf = [&](const char* table, const char* key) {
            // Each panel shown and settled (a panel computes when in view).
            const bool ofGaps = table == std::string("gaps");
            const json rows =
                ofGaps ? exportedRows(panel<GapsPanel>("gapsDock")->table()->snapshot(), "gaps")
                       : exportedRows(panel<OverviewPanel>("overviewDock")->snapshot(), "overview");
            TimeNs sum = 0;
            for (const json& r : rows)
                if (!ofGaps || r["cause"] == "input") sum += r[key].get<TimeNs>();
            return sum;
        };
        QCOMPARE(inputOf("gaps", "duration_ns"), inputOf("overview", "idle_input_ns"));
        // (The sample's figure as tests/tools/reference_host_analyses.py, an
        // independent reading of the JSON, computes it.)
        if (trace.endsWith("h200_cnn_dataloader.pt.trace.json.gz"))
            QCOMPARE(inputOf("gaps", "duration_ns"), TimeNs(116243898));
        if (!stepsOfCli(trace).empty()) {
            host()->session()->setStepScope(stepsOfCli(trace).front());
            QVERIFY(settle());
            QCOMPARE(inputOf("gaps", "duration_ns"), inputOf("overview", "idle_input_ns"));
            host()->session()->setWholeTrace();
            QVERIFY(settle());
        }

        // The CLI's steps JSON nests each GPU's breakdown in its step.
        json cliSteps = json::array();
        const json stepsJson = cli({"steps", trace});
        for (const json& st : stepsJson["steps"]) {
            if (st["devices"].empty()) {  // no GPU work: one row without a breakdown
                json row = {{"step", st["number"]},
                            {"device", nullptr},
                            {"duration_ns", st["duration_ns"]},
                            {"lead_in_ns", nullptr},
                            {"lead_in_cause", nullptr},
                            {"gpu_window_ns", nullptr},
                            {"compute_ns", nullptr},
                            {"exposed_comm_ns", nullptr},
                            {"exposed_memcpy_ns", nullptr},
                            {"slow", st["slow"]},
                            {"slower_because", st["slower_because"]},
                            {"grew_by_ns", st["grew_by_ns"]}};
                for (const char* cause :
                     {"input", "synchronization", "communication", "host", "other", "short"})
                    row[std::string("idle_") + cause + "_ns"] = nullptr;
                cliSteps.push_back(std::move(row));
            }
            for (const json& d : st["devices"]) {
                const json& b = d["breakdown"];
                json row = {
                    {"step", st["number"]},
                    {"device", d["device"]},
                    {"duration_ns", st["duration_ns"]},
                    {"gpu_window_ns", d["gpu_window"].is_null()
                                          ? json(nullptr)
                                          : json(d["gpu_window"]["end_ns"].get<TimeNs>() -
                                                 d["gpu_window"]["start_ns"].get<TimeNs>())},
                    {"lead_in_ns",
                     d["lead_in"]["end_ns"].get<TimeNs>() - d["lead_in"]["start_ns"].get<TimeNs>()},
                    {"lead_in_cause", d["lead_in_cause"]},
                    {"compute_ns", b["compute_ns"]},
                    {"exposed_comm_ns", b["exposed_comm_ns"]},
                    {"exposed_memcpy_ns", b["exposed_memcpy_ns"]},
                    {"slow", st["slow"]}};
                for (const auto& [cause, ns] : b["idle_by_cause"].items())
                    row["idle_" + cause + "_ns"] = ns;
                const bool first = &d == &st["devices"].front();
                row["slower_because"] = first ? st["slower_because"] : json(nullptr);
                row["grew_by_ns"] = first ? st["grew_by_ns"] : json(nullptr);
                cliSteps.push_back(std::move(row));
            }
        }
        auto* steps = panel<StepsPanel>("stepsDock");
        QVERIFY(steps);
        QVERIFY2(same(exportedRows(steps->table()->snapshot(), "steps"), cliSteps,
                      {"step", "device"}, &why),
                 qPrintable("steps: " + why));

        auto* pipeline = panel<PipelinePanel>("InputPipelineDock");
        QVERIFY(pipeline);
        QVERIFY2(same(exportedRows(pipeline->stages()->snapshot(), "stages"),
                      cli({"pipeline", trace})["stages"], {"name"}, &why),
                 qPrintable("pipeline stages: " + why));

        QVERIFY2(same(exportedRows(pipeline->perStep()->snapshot(), "input_per_step"),
                      cli({"pipeline", trace})["per_step"], {"number"}, &why),
                 qPrintable("pipeline per step: " + why));

        // The memory panel shows its first curve's steps: the first device's.
        auto* memory = panel<MemoryPanel>("MemoryDock");
        QVERIFY(memory);
        const json memoryJson = cli({"memory", trace});
        const json firstPerStep = memoryJson["devices"].empty()
                                      ? json::array()
                                      : memoryJson["devices"][0]["per_step_peak"];
        QVERIFY2(same(exportedRows(memory->perStep()->snapshot(), "memory_per_step"), firstPerStep,
                      {"number"}, &why) ||
                     (firstPerStep.empty() && memory->perStep()->visibleRows() == 0),
                 qPrintable("memory per step: " + why));

        auto* overview = panel<OverviewPanel>("overviewDock");
        QVERIFY(overview);
        QVERIFY2(same(exportedRows(overview->snapshot(), "overview"),
                      cli({"summary", trace})["tables"]["gpus"]["rows"], {"device"}, &why),
                 qPrintable("overview: " + why));
    }
};

GAPSCOPE_TEST_MAIN(TestPanelsCli)
#include "tst_panels_cli.moc"
