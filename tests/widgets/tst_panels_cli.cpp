// Every panel that shows an analysis's result table shows what
// `gapscope-cli` prints for the same trace and scope: the panel's exported
// JSON rows against the CLI's JSON, on real traces (the bundled sample and a
// recorded JAX XSpace always; with ../shared, HTA's rank trace and Kineto's
// ResNet50 pair too).

#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <array>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "loading/trace_loader.h"
#include "main_window.h"
#include "panel_wait.h"
#include "panels/analysis_panel.h"
#include "panels/analysis_table.h"
#include "panels/gaps_panel.h"
#include "panels/health_panel.h"
#include "panels/kernels_panel.h"
#include "panels/link_view.h"
#include "panels/memory_panel.h"
#include "panels/ops_panel.h"
#include "panels/overview_panel.h"
#include "panels/panel_host.h"
#include "panels/pipeline_panel.h"
#include "panels/registry_panel.h"
#include "panels/steps_panel.h"
#include "panels/table_export.h"
#include "report/analysis_registry.h"
#include "report/analysis_render.h"
#include "report/result_json.h"
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
        for (const json& st : steps["steps"])      // one row per step and GPU
            if (out.empty() || out.back() != st["step"].get<int64_t>())
                out.push_back(st["step"].get<int64_t>());
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

        // The Gaps panel shows the CLI's gaps table.
        const json gapsJson = cli({"gaps", trace});
        const json& cliGaps = gapsJson["gaps"];
        // Trace Health: the panel's checks are the CLI's.
        const json cliHealth = cli({"health", trace})["health"];
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
            for (const json& g : cliGaps)
                if (g["device"] == t.gpuDevices[e].index)
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

        // The Steps panel shows the CLI's steps table.
        const json cliSteps = cli({"steps", trace})["steps"];
        auto* steps = panel<StepsPanel>("stepsDock");
        QVERIFY(steps);
        QVERIFY2(same(exportedRows(steps->table()->snapshot(), "steps"), cliSteps,
                      {"step", "device"}, &why),
                 qPrintable("steps: " + why));

        auto* pipeline = panel<PipelinePanel>("InputPipelineDock");
        QVERIFY(pipeline);
        QVERIFY2(same(exportedRows(pipeline->stages()->snapshot(), "stages"),
                      cli({"pipeline", trace})["input_stages"], {"name"}, &why),
                 qPrintable("pipeline stages: " + why));

        QVERIFY2(same(exportedRows(pipeline->perStep()->snapshot(), "input_per_step"),
                      cli({"pipeline", trace})["input_wait_per_step"], {"number"}, &why),
                 qPrintable("pipeline per step: " + why));

        // The memory panel shows every device's peak per step.
        auto* memory = panel<MemoryPanel>("MemoryDock");
        QVERIFY(memory);
        QVERIFY2(same(exportedRows(memory->perStep()->snapshot(), "memory_per_step"),
                      cli({"memory", trace})["memory_per_step"], {"device", "number"}, &why),
                 qPrintable("memory per step: " + why));

        auto* overview = panel<OverviewPanel>("overviewDock");
        QVERIFY(overview);
        QVERIFY2(same(exportedRows(overview->snapshot(), "overview"),
                      cli({"summary", trace})["gpus"], {"device"}, &why),
                 qPrintable("overview: " + why));
        // Its text reads as sentences: none runs into the next or into a
        // link ("No memory events.Memory").
        const QString text = overview->view()->toPlainText();
        const QRegularExpression runOn(QStringLiteral("[a-z)][.:][A-Z]"));
        QVERIFY2(!text.contains(runOn), qPrintable(runOn.match(text).captured() + " in " + text));
    }

    // Every registered analysis has a panel, and every table a panel shows
    // of it is the registry's for the same trace and scope (the whole trace,
    // then the first step), found by iterating the registry: a new analysis
    // is covered here without a line of this test changing.
    void everyRegisteredTableIsItsPanels_data() { panelsEqualTheCli_data(); }

    void everyRegisteredTableIsItsPanels() {
        QFETCH(QString, trace);
        window_->openTrace(trace);
        window_->loader()->wait();
        QVERIFY(settle());
        AnalysisSession* session = host()->session();
        const std::vector<int64_t> steps = stepsOfCli(trace);
        for (int pass = 0; pass < (steps.empty() ? 1 : 2); ++pass) {
            if (pass == 1) session->setStepScope(steps.front());
            for (const Analysis& a : analysisRegistry().all()) {
                // The Compare and Ranks windows: their tests; the summary: the report's.
                if (!a.readsOneTrace() || !a.panel) continue;
                const QString id = QString::fromStdString(a.id);
                int shownTables = 0;
                for (AnalysisPanel* p : host()->panels()) {
                    if (!p->analysis().contains(id)) continue;
                    QVERIFY(test::settledPanel<AnalysisPanel>(host(), qPrintable(p->dockName()),
                                                              120000));
                    const AnalysisPanel::Request request{
                        session->indexed(), p->shownScope(session->scope()),
                        session->gapThreshold(), nullptr, session->peaks()};
                    // (With the panel's own options: the Critical path's
                    // path, the Memory panel's leaks.)
                    const std::vector<ResultTable> computed =
                        renderedTables(*session->trace(), a, request.compute(a.id, p->options()));
                    for (const auto& [table, snapshot] : p->resultSnapshots()) {
                        const auto it =
                            std::find_if(computed.begin(), computed.end(),
                                         [&](const ResultTable& t) { return t.id == table; });
                        if (it == computed.end())
                            continue;  // another analysis's table on the panel
                        const ResultTable* want = &*it;
                        ++shownTables;
                        const json shown = exportedRows(snapshot, QString::fromStdString(table));
                        QVERIFY2(shown.size() == want->rows.size(),
                                 qPrintable(QStringLiteral("%1/%2: %3 rows shown, %4 computed")
                                                .arg(id, QString::fromStdString(table))
                                                .arg(shown.size())
                                                .arg(want->rows.size())));
                        // Every row the same (the view's order is the user's).
                        std::multiset<std::string> a1, b1;
                        for (const json& r : shown)
                            a1.insert(r.dump());
                        for (const json& r : resultRowsJson(*want))
                            b1.insert(r.dump());
                        QVERIFY2(a1 == b1, qPrintable(QStringLiteral("%1/%2 (pass %3) differs")
                                                          .arg(id, QString::fromStdString(table))
                                                          .arg(pass)));
                    }
                }
                QVERIFY2(shownTables > 0, qPrintable(id + ": no panel shows its tables"));
            }
        }
        session->setWholeTrace();
        QVERIFY(settle());
    }

    // Trace Health's first instances of the sample's 160 flow ends without
    // a start: each the slice on the end's thread at its time (the flows as
    // tests/tools/orphan_flows.py reads the file), the earliest first, and
    // a click frames and selects it.
    void healthInstancesFrameTheirSlices() {
        GAPSCOPE_REQUIRE_PYTHON("python3 reads the sample's flows");
        QProcess reference;
        reference.start(test::python(),
                        {test::sourceDir() + "/tests/tools/orphan_flows.py", test::samplePath()});
        QVERIFY(reference.waitForFinished(60000) && reference.exitCode() == 0);
        std::vector<std::array<int64_t, 3>> ends;  // ts (ns), pid, tid
        for (const QString& line : QString::fromUtf8(reference.readAllStandardOutput())
                                       .split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
            const QStringList f = line.split(QLatin1Char(' '));
            ends.push_back({f[0].toLongLong(), f[1].toLongLong(), f[2].toLongLong()});
        }
        QCOMPARE(ends.size(), size_t(5));
        window_->openTrace(test::samplePath());
        window_->loader()->wait();
        auto* health = test::settledPanel<HealthPanel>(host(), "healthDock", 120000);
        QVERIFY(health);
        AnalysisTable* instances = health->instances();
        const Trace& t = *window_->tracePage()->trace();
        std::vector<int> rows;
        for (int i = 0; i < instances->visibleRows(); ++i)
            if (const QString check = instances->visibleRow(i).cells[0].text;
                check == QStringLiteral("Flow steps without a start") ||
                check == QStringLiteral("orphan_flow_events"))
                rows.push_back(i);
        QCOMPARE(rows.size(), ends.size());
        for (size_t k = 0; k < rows.size(); ++k) {
            instances->view()->setCurrentIndex(instances->proxy()->index(rows[k], 0));
            const uint32_t s = window_->tracePage()->state()->selectedSlice();
            QVERIFY(s < t.slices.size());
            const Slice& slice = t.slices[s];
            QVERIFY2(
                slice.start <= ends[k][0] && ends[k][0] < std::max(slice.end(), slice.start + 1),
                qPrintable(QStringLiteral("instance %1 at %2, the flow end at %3")
                               .arg(k)
                               .arg(slice.start)
                               .arg(ends[k][0])));
            const Process& process = t.processes[t.tracks[t.trackOfSlice(s)].process];
            QCOMPARE(process.pid.number, ends[k][1]);
            const TimeWindow v = window_->tracePage()->state()->visible();
            QVERIFY(v.start <= slice.start && v.end >= slice.end());
        }
    }
};

GAPSCOPE_TEST_MAIN(TestPanelsCli)
#include "tst_panels_cli.moc"
