// One registration, every view: a toy analysis registered here and nowhere
// else (toy_analysis.cpp) is a gapscope-cli command with its --help, JSON,
// CSV and JSON Schema, is in the man page and the completions made from the
// CLI's --help, and has a panel in the viewer that shows the registry's
// rows. And every built-in analysis's published schema (docs/schema) is the
// one its registration makes.

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <iostream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "cache/index_cache.h"
#include "commands.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "panel_wait.h"
#include "panels/analysis_table.h"
#include "panels/panel_host.h"
#include "panels/registry_panel.h"
#include "panels/table_export.h"
#include "report/analysis_schema.h"
#include "report/result_json.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "toy_analysis.h"
#include "trace_page.h"

using namespace gapscope;
using namespace gapscope::ui;
using nlohmann::json;

namespace {

struct InProcessRun {
    int exitCode = -1;
    std::string out;
};

// gapscope-cli's main in this process (the toy is registered here), its
// standard output captured.
InProcessRun runCli(std::vector<std::string> args) {
    args.insert(args.begin(), "gapscope-cli");
    std::vector<char*> argv;
    for (std::string& a : args)
        argv.push_back(a.data());
    std::ostringstream out;
    std::streambuf* old = std::cout.rdbuf(out.rdbuf());
    const int code = cli::cliMain(static_cast<int>(argv.size()), argv.data());
    std::cout.rdbuf(old);
    return {code, out.str()};
}

QString readAll(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

}  // namespace

class TestRegistry : public QObject {
    Q_OBJECT
    std::unique_ptr<app::MainWindow> window_;
    QTemporaryDir dir_;

    PanelHost* host() const { return window_->panels(); }

  private slots:
    void initTestCase() {
        test::registerToyAnalysis();
        QSettings().clear();
        QVERIFY(dir_.isValid());
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->disableCacheForSession();
        window_->resize(1400, 900);
        window_->show();
        window_->openTrace(test::samplePath());
        window_->loader()->wait();
        QVERIFY(test::settlePanels(host(), 120000));
    }

    // The CLI lists it, explains it, and writes it in every format.
    void theCliHasIt() {
        InProcessRun r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.find("longest-slices TRACE") != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("a test's toy analysis") != std::string::npos);
        r = runCli({"longest-slices", "--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.find("Usage: gapscope-cli longest-slices TRACE") == 0);
        QVERIFY(r.out.find("--top N") != std::string::npos);
        QVERIFY(r.out.find("one of: figures, longest") != std::string::npos);

        const std::string sample = test::samplePath().toStdString();
        r = runCli({"longest-slices", sample, "--format", "json", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        const json j = json::parse(r.out);
        const Trace& t = *window_->tracePage()->trace();
        QCOMPARE(j["analysis"].get<std::string>(), std::string("longest-slices"));
        QCOMPARE(j["slices"].get<size_t>(), t.slices.size());
        QCOMPARE(j["longest"].size(), size_t(3));  // the option's default
        // The longest slice, found here by a scan of its own.
        TimeNs longest = 0;
        for (const Slice& s : t.slices)
            longest = std::max(longest, s.dur);
        QCOMPARE(j["longest"][0]["duration_ns"].get<TimeNs>(), longest);
        r = runCli({"longest-slices", sample, "--format", "json", "--top", "5", "--no-cache"});
        QCOMPARE(json::parse(r.out)["longest"].size(), size_t(5));
        r = runCli({"longest-slices", sample, "--format", "csv", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.rfind("Slice,Start (absolute ns),Duration (ns),Track\r\n", 0) == 0);
        r = runCli(
            {"longest-slices", sample, "--format", "csv", "--table", "figures", "--no-cache"});
        QCOMPARE(r.out, "Slices\r\n" + std::to_string(t.slices.size()) + "\r\n");
        // About the whole trace: its registration says so, and the CLI refuses a range.
        QCOMPARE(runCli({"longest-slices", sample, "--range", "1:2"}).exitCode, 1);
        r = runCli({"longest-slices", "--schema"});
        QCOMPARE(r.exitCode, 0);
        const json schema = json::parse(r.out);
        QCOMPARE(schema["properties"]["analysis"]["const"].get<std::string>(),
                 std::string("longest-slices"));
        QVERIFY(schema["properties"].contains("longest"));
        QVERIFY(schema["required"].dump().find("\"slices\"") != std::string::npos);

        // The summary shows its part: the longest slices' names and
        // durations, as many rows as the summary's --top.
        r = runCli({"summary", sample, "--format", "json", "--top", "2", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        const json summary = json::parse(r.out);
        QVERIFY2(summary.contains("longest_slices"), r.out.c_str());
        const json& part = summary["longest_slices"];
        QCOMPARE(part.size(), size_t(2));
        QCOMPARE(part[0]["duration_ns"].get<TimeNs>(), longest);
        QCOMPARE(part[0].size(), size_t(2));  // name and duration_ns
        r = runCli({"summary", sample, "--no-cache"});
        QVERIFY2(r.out.find("Longest slices") != std::string::npos, r.out.c_str());
    }

    // The man page and the completions, made from the CLI's --help by
    // packaging/make_cli_docs.py as the package build makes them.
    void theManPageHasIt() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the man page generator");
        QProcess p;
        p.start(test::python(), {test::sourceDir() + "/packaging/make_cli_docs.py", "--cli",
                                 QStringLiteral(GAPSCOPE_TOY_CLI), "--version", "0", "--date",
                                 "2026-01-01", "--out", dir_.path()});
        QVERIFY(p.waitForFinished(120000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QString man = readAll(dir_.filePath("man/gapscope-cli.1"));
        QVERIFY2(man.contains("longest\\-slices"), qPrintable(man.left(400)));
        QVERIFY(man.contains("longest slices of the trace"));
        QVERIFY(readAll(dir_.filePath("bash/gapscope-cli")).contains("longest-slices"));
    }

    // The viewer has a panel for it, whose table is the registry's rows and
    // whose header names the command.
    void theViewerHasAPanel() {
        RegistryPanel* panel = nullptr;
        for (AnalysisPanel* p : host()->panels())
            if (p->analysis() == QStringList{"longest-slices"})
                panel = qobject_cast<RegistryPanel*>(p);
        QVERIFY(panel);
        QCOMPARE(panel->title(), QStringLiteral("Longest slices"));
        QVERIFY(test::settledPanel<RegistryPanel>(host(), "longest-slicesDock", 120000));
        const auto tables = panel->resultSnapshots();
        QCOMPARE(tables.size(), size_t(1));
        QCOMPARE(tables[0].first, std::string("longest"));
        const QString path = dir_.filePath("longest.json");
        QString error;
        QVERIFY2(writeTableSnapshot(tables[0].second, path, &error), qPrintable(error));
        const json shown = json::parse(readAll(path).toStdString())["rows"];
        const Trace& t = *window_->tracePage()->trace();
        const AnalysisResult r =
            analysisRegistry().find("longest-slices")->compute(t, Scope{}, AnalysisOptions{});
        // The same rows (the view's order is the user's).
        std::multiset<std::string> inPanel, inRegistry;
        for (const json& row : shown)
            inPanel.insert(row.dump());
        for (const json& row : resultRowsJson(*r.table("longest")))
            inRegistry.insert(row.dump());
        QVERIFY(inPanel.size() == 3 && inPanel == inRegistry);
        // "Slices: 2 314" (grouped as people read it).
        QVERIFY2(QString(panel->figuresText())
                     .remove(QRegularExpression("[^0-9]"))
                     .contains(QString::number(t.slices.size())),
                 qPrintable(panel->figuresText()));
    }

    // One JSON object per analysis: its figures' keys, its tables' ids and
    // the envelope's keys are all different (no value hides another).
    void keysAreUnique() {
        for (const Analysis& a : analysisRegistry().all()) {
            std::set<std::string> keys = {"analysis", "schema_version"};
            for (const TableShape& s : analysisShape(a)) {
                if (s.table.id == "finding_figures" || s.table.id == "finding_evidence") continue;
                if (s.table.id != "figures") {
                    QVERIFY2(keys.insert(s.table.id).second,
                             qPrintable(QString::fromStdString(a.id + ": " + s.table.id)));
                    continue;
                }
                std::set<std::string> groups;
                for (const ResultColumn& c : s.table.columns) {
                    const std::string top = c.key.substr(0, c.key.find('.'));
                    if (top != c.key && !groups.insert(top).second) continue;  // a group's members
                    QVERIFY2(keys.insert(top).second,
                             qPrintable(QString::fromStdString(a.id + ": " + top)));
                }
            }
        }
    }

    // The Trace panel (`info`) says what the index cache did for the trace
    // on screen, as `gapscope-cli info` does: a miss, then a hit.
    void theTracePanelSaysWhatTheCacheDid() {
        QTemporaryDir cacheDir;
        QVERIFY(cacheDir.isValid());
        window_->loader()->setCache(std::make_shared<IndexCache>(cacheDir.path().toStdString()));
        RegistryPanel* panel = nullptr;
        for (AnalysisPanel* p : host()->panels())
            if (p->analysis() == QStringList{"info"}) panel = qobject_cast<RegistryPanel*>(p);
        QVERIFY(panel);
        for (const char* want : {"miss", "hit"}) {
            window_->openTrace(test::samplePath());
            window_->loader()->wait();
            window_->loader()->waitForCacheWrite();
            QVERIFY(
                test::settledPanel<RegistryPanel>(host(), qPrintable(panel->dockName()), 120000));
            const QString note = QString::fromStdString(window_->loader()->cacheNote());
            QVERIFY2(note.startsWith(QLatin1String(want)), qPrintable(note));
            QVERIFY2(QString(panel->figuresText()).contains(note),
                     qPrintable(panel->figuresText()));
        }
        window_->loader()->setCache(nullptr);
    }
};

GAPSCOPE_TEST_MAIN(TestRegistry)
#include "tst_registry.moc"
