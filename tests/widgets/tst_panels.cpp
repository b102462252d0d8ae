// The analysis panels in the real main window (offscreen), on a generated
// trace with ground truth (gen_trace.py --truth, two GPUs, a planted input
// stall): each table holds the truth's rows and values; sorting, filtering
// and copying work; a row selects and frames its gap / step / kernel on the
// timeline; a scope change recomputes; closing mid-computation cancels.

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDateTime>
#include <QDir>
#include <QDoubleSpinBox>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTextCursor>
#include <QTextDocument>
#include <QTimer>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "loader/loader.h"
#include "loading/run_chooser.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "panel_wait.h"
#include "panels/advice_panel.h"
#include "panels/analysis_panel.h"
#include "panels/analysis_table.h"
#include "panels/critical_path_panel.h"
#include "panels/efficiency_panel.h"
#include "panels/gaps_panel.h"
#include "panels/kernels_panel.h"
#include "panels/link_view.h"
#include "panels/memory_panel.h"
#include "panels/overview_panel.h"
#include "panels/panel_host.h"
#include "panels/pipeline_panel.h"
#include "panels/result_rows.h"
#include "panels/roofline_chart.h"
#include "panels/steps_panel.h"
#include "panels/utilization_panel.h"
#include "report/analysis_registry.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"
#include "report/run_summary.h"
#include "search/search_bar.h"
#include "support/generator.h"
#include "support/planted_job.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/path_overlay.h"
#include "timeline/timeline_view.h"
#include "timeline/view_state.h"
#include "trace_page.h"
#include "util/symbol_names.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

// RFC 4180: quoted fields, doubled quotes, CRLF or LF line ends.
std::vector<std::vector<std::string>> parseCsv(const std::string& text) {
    std::vector<std::vector<std::string>> rows(1);
    std::string field;
    bool quoted = false, any = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quoted) {
            if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"') {
            quoted = true;
        } else if (c == ',') {
            rows.back().push_back(field);
            field.clear();
        } else if (c == '\r') {
        } else if (c == '\n') {
            rows.back().push_back(field);
            field.clear();
            rows.emplace_back();
        } else {
            field += c;
        }
        any = true;
    }
    if (!field.empty() || (any && !rows.back().empty())) rows.back().push_back(field);
    if (rows.back().empty()) rows.pop_back();
    return rows;
}

}  // namespace

class TestPanels : public QObject {
    Q_OBJECT
    std::unique_ptr<app::MainWindow> window_;
    QTemporaryDir dir_;
    test::Generated generated_;

    PanelHost* host() const { return window_->panels(); }
    // The panel of a dock, raised (a hidden panel computes when shown) and
    // with its results in.
    template <class P>
    P* panel(const char* dock) {
        return test::settledPanel<P>(host(), dock, 60000);
    }
    bool settle() { return test::settlePanels(host(), 60000); }

    // The idle gaps of the GPUs' step time by the generator's truth, as
    // (absolute start, length): every kernel of the generated run is
    // launched in a step, so its gaps from the first step's start on, and
    // the wait from that start to each GPU's first activity.
    std::multiset<std::pair<TimeNs, TimeNs>> truthsStepTimeGaps() const {
        std::multiset<std::pair<TimeNs, TimeNs>> out;
        const TimeNs from = generated_.truth["steps"][0]["start_ns"].get<TimeNs>();
        for (const auto& [device, d] : generated_.truth["devices"].items()) {
            auto add = [&](TimeNs start, TimeNs end) {
                start = std::max(start, from);
                if (end - start >= kDefaultGapThresholdNs) out.insert({start, end - start});
            };
            if (d["span_start_ns"].get<TimeNs>() > from)
                add(from, d["span_start_ns"].get<TimeNs>());
            for (const auto& g : d["idle_gaps"])
                add(g["start_ns"].get<TimeNs>(), g["end_ns"].get<TimeNs>());
        }
        return out;
    }

  private slots:
    void initTestCase() {
        QSettings().clear();
        QVERIFY(dir_.isValid());
        // The window exists with or without ../shared: the tests that need
        // no generated trace (a log folder) use it too.
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->disableCacheForSession();
        window_->resize(1600, 1000);
        window_->show();
        if (test::sharedDir().isEmpty() || test::python().isEmpty()) return;
        generated_ = test::generateTrace(
            dir_.path(), QStringLiteral("panels.json"),
            {"--profile", "kineto", "--gpus", "2", "--steps", "8", "--seed", "3"});
        QVERIFY2(generated_.error.isEmpty(), qPrintable(generated_.error));
        window_->openTrace(generated_.trace);
        window_->loader()->wait();
        QVERIFY(settle());
    }

    // Every panel of figures names the gapscope-cli commands with them, and
    // its header explains them with the commands' own descriptions; only
    // the GPU Utilisation chart has none.
    void everyPanelNamesItsCommand() {
        std::set<QString> seen;
        for (const AnalysisPanel* p : host()->panels()) {
            const auto* header = p->findChild<QLabel*>();
            QVERIFY(header);
            if (p->analysis().isEmpty()) {
                QCOMPARE(p->dockName(), QStringLiteral("utilizationDock"));
                continue;
            }
            for (const QString& command : p->analysis()) {
                QVERIFY2(analysisRegistry().find(command.toStdString()), qPrintable(command));
                QVERIFY(seen.insert(command).second);
                QVERIFY2(header->toolTip().contains("gapscope-cli " + command + ":"),
                         qPrintable(header->toolTip()));
            }
        }
        // Every registered analysis of one trace with a panel (the
        // comparisons have their own windows, the summary is the report).
        const auto& all = analysisRegistry().all();
        QCOMPARE(seen.size(),
                 static_cast<size_t>(std::count_if(all.begin(), all.end(), [](const Analysis& a) {
                     return a.readsOneTrace() && a.panel;
                 })));
    }

    void gapsHoldTheTruthsGaps() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        AnalysisTable* table = panel<GapsPanel>("gapsDock")->table();
        const Trace& t = *window_->tracePage()->trace();
        std::multiset<std::pair<TimeNs, TimeNs>> want, got;
        for (const auto& [start, length] : truthsStepTimeGaps())
            want.insert({start - t.spanStart, length});
        const auto start = size_t(table->model()->column("start_ns"));
        const auto duration = size_t(table->model()->column("duration_ns"));
        const auto cause = size_t(table->model()->column("cause"));
        for (int i = 0; i < table->visibleRows(); ++i) {
            const TableRow& r = table->visibleRow(i);
            got.insert({TimeNs(r.cells[start].number), TimeNs(r.cells[duration].number)});
        }
        QCOMPARE(got, want);
        // Sorted by duration, longest first.
        QVERIFY(table->visibleRows() > 2);
        QVERIFY(table->visibleRow(0).cells[duration].number >=
                table->visibleRow(1).cells[duration].number);
        // Filtering by cause: the planted stall's gaps are input.
        table->filter()->setText(QStringLiteral("input"));
        QVERIFY(table->visibleRows() > 0);
        for (int i = 0; i < table->visibleRows(); ++i)
            QCOMPARE(table->visibleRow(i).cells[cause].text, QStringLiteral("input"));
        table->filter()->clear();
        QVERIFY(panel<GapsPanel>("gapsDock")->totalsText().contains("input"));
        // Copy: Markdown with a header and one line per selected row.
        table->view()->selectRow(0);
        table->view()->selectionModel()->select(
            table->proxy()->index(1, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
        const QStringList md = table->selectedMarkdown().trimmed().split('\n');
        QCOMPARE(md.size(), 4);
        // The gaps table's own Markdown (as Copy All and Export Table write it).
        QVERIFY2(md[0].startsWith(
                     "| GPU | Start (from the start) | End (from the start) | Duration | Cause |"),
                 qPrintable(md[0]));
        QCOMPARE(table->selectedTabSeparated().trimmed().split('\n').size(), 3);
        table->copySelection();
        QVERIFY(QApplication::clipboard()->text().startsWith("GPU\tStart\tEnd\tDuration"));
        // A row selects its gap on the timeline and frames it.
        const TableRow& first = table->visibleRow(0);
        table->view()->setCurrentIndex(table->proxy()->index(0, 0));
        const auto range = window_->tracePage()->state()->selectedRange();
        QVERIFY(range);
        QCOMPARE(range->start, first.target.range.start);
        QCOMPARE(range->end, first.target.range.end);
        const TimeWindow v = window_->tracePage()->state()->visible();
        QVERIFY(v.start <= range->start && range->end <= v.end);
        QVERIFY(v.span() < 4 * (range->end - range->start));
        // Framing a gap is not a new scope.
        QVERIFY(host()->session()->scope().whole());
    }

    void stepsAndKernelsHoldTheTruth() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        AnalysisTable* steps = panel<StepsPanel>("stepsDock")->table();
        // A row per step and GPU (the generated steps run on every GPU).
        QCOMPARE(size_t(steps->visibleRows()),
                 generated_.truth["steps"].size() * generated_.truth["devices"].size());
        std::map<int64_t, TimeNs> durations;
        for (const auto& s : generated_.truth["steps"])
            durations[s["step"].get<int64_t>()] =
                s["end_ns"].get<TimeNs>() - s["start_ns"].get<TimeNs>();
        const auto duration = size_t(steps->model()->column("duration_ns"));
        const auto step = size_t(steps->model()->column("step"));
        for (int i = 0; i < steps->visibleRows(); ++i) {
            const TableRow& r = steps->visibleRow(i);
            QCOMPARE(TimeNs(r.cells[duration].number), durations.at(int64_t(r.cells[step].number)));
        }
        AnalysisTable* kernels = panel<KernelsPanel>("kernelsDock")->kernels();
        QCOMPARE(size_t(kernels->visibleRows()), generated_.truth["kernels"].size());
        const auto name = size_t(kernels->model()->column("name"));
        const auto count = size_t(kernels->model()->column("count"));
        const auto total = size_t(kernels->model()->column("total_ns"));
        // A kernel reads by its short name; the whole one is the tooltip's.
        const auto fullName = [](const TableCell& c) {
            return c.tooltip.isEmpty() ? c.text : c.tooltip;
        };
        // Two kernels of one short name read longer (with their template
        // arguments, then parameters), each different; the others short.
        std::multiset<std::string> shortNames;
        for (int i = 0; i < kernels->visibleRows(); ++i)
            shortNames.insert(
                shortSymbolName(fullName(kernels->visibleRow(i).cells[name]).toStdString()));
        std::set<QString> shown;
        for (int i = 0; i < kernels->visibleRows(); ++i) {
            const TableRow& r = kernels->visibleRow(i);
            const std::string full = fullName(r.cells[name]).toStdString();
            QVERIFY2(shown.insert(r.cells[name].text).second, qPrintable(r.cells[name].text));
            if (shortNames.count(shortSymbolName(full)) == 1)
                QCOMPARE(r.cells[name].text, QString::fromStdString(shortSymbolName(full)));
            else
                QVERIFY2(
                    QString::fromStdString(full).contains(r.cells[name].text) &&
                        r.cells[name].text.startsWith(QString::fromStdString(shortSymbolName(full))
                                                          .section(QStringLiteral("::"), 0, 0)),
                    qPrintable(r.cells[name].text));
            QVERIFY2(generated_.truth["kernels"].contains(full), full.c_str());
            const auto& k = generated_.truth["kernels"][full];
            QCOMPARE(uint64_t(r.cells[count].number), k["count"].get<uint64_t>());
            QCOMPARE(TimeNs(r.cells[total].number), k["total_ns"].get<TimeNs>());
        }
        // A kernel row highlights every occurrence through the search; again: the next one.
        kernels->view()->setCurrentIndex(kernels->proxy()->index(0, 0));
        SearchBar* search = window_->tracePage()->search();
        QTRY_VERIFY(!search->searching());  // then the first match is selected
        QCOMPARE(uint64_t(search->matchCount()),
                 uint64_t(kernels->visibleRow(0).cells[count].number));
        const int at = search->currentIndex();
        kernels->view()->setFocus();
        QTest::keyClick(kernels->view(), Qt::Key_Return);
        QCOMPARE(search->currentIndex(), (at + 1) % search->matchCount());
        QTest::keyClick(kernels->view(), Qt::Key_Return, Qt::ShiftModifier);
        QCOMPARE(search->currentIndex(), at);
        // The selected occurrence is a slice of that kernel.
        const Trace& t = *window_->tracePage()->trace();
        const uint32_t selected = window_->tracePage()->state()->selectedSlice();
        QVERIFY(selected < t.slices.size());
        QCOMPARE(QString::fromUtf8(t.str(t.slices[selected].name)),
                 fullName(kernels->visibleRow(0).cells[name]));
    }

    // Every table exports; CSV and JSON hold the panel's raw numbers, here
    // checked against the generator's truth, and a hostile name is escaped
    // in HTML, neutralised in CSV and kept exactly in JSON.
    void tablesExportTheirNumbers() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        AnalysisTable* kernels = panel<KernelsPanel>("kernelsDock")->kernels();
        const QString csvPath = dir_.filePath("kernels.csv"), jsonPath = dir_.filePath("k.json");
        QString error;
        QVERIFY2(kernels->exportTo(csvPath, &error), qPrintable(error));
        QVERIFY2(kernels->exportTo(jsonPath, &error), qPrintable(error));
        QVERIFY(!kernels->exportTo(dir_.filePath("k.xlsx"), &error));
        QFile csvFile(csvPath);
        QVERIFY(csvFile.open(QIODevice::ReadOnly));
        const auto csv = parseCsv(csvFile.readAll().toStdString());
        QCOMPARE(csv.size(), size_t(kernels->visibleRows()) + 1);
        const auto column = [&](const std::string& name) {
            const auto& h = csv.front();
            return size_t(std::find(h.begin(), h.end(), name) - h.begin());
        };
        const size_t name = column("Kernel"), count = column("Count"), total = column("Total (ns)");
        QVERIFY(total < csv.front().size());
        QFile jsonFile(jsonPath);
        QVERIFY(jsonFile.open(QIODevice::ReadOnly));
        const auto json = nlohmann::json::parse(jsonFile.readAll().toStdString());
        QCOMPARE(json["rows"].size(), size_t(kernels->visibleRows()));
        for (size_t i = 1; i < csv.size(); ++i) {
            const auto& k = generated_.truth["kernels"][csv[i][name]];
            QCOMPARE(std::stoull(csv[i][count]), k["count"].get<uint64_t>());
            QCOMPARE(std::stoll(csv[i][total]), k["total_ns"].get<int64_t>());
            const auto& row = json["rows"][i - 1];
            QCOMPARE(row["name"].get<std::string>(), csv[i][name]);
            QCOMPARE(row["total_ns"].get<int64_t>(), k["total_ns"].get<int64_t>());
        }
        // The JSON rows are `gapscope-cli kernels --format json`'s, key for key
        // (the view's order: compared by name).
        {
            const auto trace = host()->session()->trace();
            const nlohmann::json cli = resultRowsJson(kernelTable(
                *trace, kernelStats(*trace), false,
                efficiencyOfWindow(*trace, kWholeTrace, nullptr, nullptr, nullptr).get()));
            std::map<std::string, nlohmann::json> byName;
            for (const auto& r : cli)
                byName[r["name"].get<std::string>()] = r;
            QCOMPARE(json["rows"].size(), byName.size());
            for (const auto& r : json["rows"])
                QVERIFY2(r == byName[r["name"].get<std::string>()],
                         qPrintable(QString::fromStdString(r.dump())));
        }
        // Gaps: their starts as absolute ns, as the truth has them.
        AnalysisTable* gaps = panel<GapsPanel>("gapsDock")->table();
        const QString gapsPath = dir_.filePath("gaps.csv");
        QVERIFY2(gaps->exportTo(gapsPath, &error), qPrintable(error));
        {
            QFile f(gapsPath);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const auto g = parseCsv(f.readAll().toStdString());
            const auto& h = g.front();
            const size_t start =
                size_t(std::find(h.begin(), h.end(), "Start (absolute ns)") - h.begin());
            const size_t length =
                size_t(std::find(h.begin(), h.end(), "Duration (ns)") - h.begin());
            QVERIFY(start < h.size() && length < h.size());
            std::multiset<std::pair<TimeNs, TimeNs>> want = truthsStepTimeGaps(), got;
            for (size_t i = 1; i < g.size(); ++i)
                got.insert({std::stoll(g[i][start]), std::stoll(g[i][length])});
            QCOMPARE(got, want);
        }
        // Every panel's tables export in every format.
        for (AnalysisTable* t : window_->findChildren<AnalysisTable*>()) {
            for (const char* ext : {"csv", "md", "json", "html"}) {
                const QString path = dir_.filePath(QStringLiteral("any.") + ext);
                QVERIFY2(t->exportTo(path, &error), qPrintable(error));
                QVERIFY(QFileInfo(path).size() > 0);
            }
        }
        // Hostile names.
        AnalysisTable hostile;
        const QString script = QStringLiteral("<script>alert(\"x\")</script>\nnext");
        const QString formula = QStringLiteral("=cmd|' /C calc'!A0");
        ResultTable names;
        names.id = "kernels";
        names.columns = {{"name", "Kernel", Unit::Text}, {"total_ns", "Total", Unit::Duration}};
        names.rows.resize(2);
        names.rows[0].cells = {script.toStdString(), int64_t{1500}};
        names.rows[1].cells = {formula.toStdString(), int64_t{7}};
        hostile.model()->setResult(resultRows(std::move(names), 0));
        QVERIFY(hostile.exportTo(dir_.filePath("h.html"), &error));
        QVERIFY(hostile.exportTo(dir_.filePath("h.csv"), &error));
        QVERIFY(hostile.exportTo(dir_.filePath("h.json"), &error));
        auto read = [&](const char* file) {
            QFile f(dir_.filePath(QString::fromLatin1(file)));
            return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
        };
        const std::string html = read("h.html");
        QVERIFY(html.find("<script>") == std::string::npos);
        QVERIFY(html.find("&lt;script&gt;alert(&quot;x&quot;)") != std::string::npos);
        const auto hcsv = parseCsv(read("h.csv"));
        QCOMPARE(hcsv.size(), size_t(3));
        for (size_t i = 1; i < hcsv.size(); ++i) {
            const std::string& cell = hcsv[i][0];
            QVERIFY2(cell.empty() || std::string("=+-@\t\r").find(cell[0]) == std::string::npos,
                     cell.c_str());
        }
        const auto hjson = nlohmann::json::parse(read("h.json"));
        std::set<std::string> written;
        for (const auto& r : hjson["rows"])
            written.insert(r["name"].get<std::string>());
        QVERIFY(written.count(script.toStdString()));
        QVERIFY(written.count(formula.toStdString()));
    }

    void overviewMemoryAndPipeline() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        const QString overview = panel<OverviewPanel>("overviewDock")->view()->toPlainText();
        QVERIFY2(overview.contains("input-bound"), qPrintable(overview));
        QVERIFY(overview.contains("GPU 0") && overview.contains("GPU 1"));
        QVERIFY(panel<PipelinePanel>("InputPipelineDock")->verdictText().contains("input-bound"));
        MemoryPanel* memory = panel<MemoryPanel>("MemoryDock");
        QVERIFY(memory->curves()->count() >= 2);
        QCOMPARE(memory->curves()->itemText(0), QStringLiteral("GPU 0"));
        // Every device's peak per step.
        const size_t steps = generated_.truth["steps"].size();
        const auto perStep = size_t(memory->perStep()->visibleRows());
        QVERIFY2(perStep % steps == 0 && perStep / steps >= 2,
                 qPrintable(QString::number(perStep)));
        // Advice as a table: a row per finding the panel shows, the planted
        // input stall among them with its evidence inside the stalled step.
        AdvicePanel* advice = panel<AdvicePanel>("AdviceDock");
        const QString text = advice->view()->toPlainText();
        const QString md = dir_.filePath("advice.md"), csvPath = dir_.filePath("advice.csv");
        QString error;
        QVERIFY2(writeTableSnapshot(advice->snapshot(), csvPath, &error), qPrintable(error));
        QVERIFY2(writeTableSnapshot(advice->snapshot(), md, &error), qPrintable(error));
        QFile f(csvPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto csv = parseCsv(f.readAll().toStdString());
        QVERIFY(csv.size() > 1);
        // gapscope-cli advice --format csv's table.
        QCOMPARE(csv[0], (std::vector<std::string>{"Finding", "Severity", "Rule", "GPU", "Message",
                                                   "Evidence at (absolute ns)"}));
        QCOMPARE(qsizetype(csv.size() - 1),
                 text.count(QRegularExpression("^(HIGH|MEDIUM|LOW) ",
                                               QRegularExpression::MultilineOption)));
        bool input = false;
        const auto& stall = generated_.truth["input_stall_steps"][0];
        for (size_t i = 1; i < csv.size(); ++i) {
            QVERIFY2(text.contains(QString::fromStdString(csv[i][4])), csv[i][4].c_str());
            if (csv[i][2] != "input-bound") continue;
            input = true;
            const TimeNs at = std::stoll(csv[i][5]);
            TimeNs stepStart = -1;
            for (const auto& step : generated_.truth["steps"])
                if (step["step"] == stall["step"]) stepStart = step["start_ns"].get<TimeNs>();
            QVERIFY(stepStart > 0);
            QVERIFY2(at >= stepStart && at < stall["end_ns"].get<TimeNs>(), csv[i][5].c_str());
        }
        QVERIFY(input);
        // The evidence is behind a count until asked for; then one link per
        // range and per slice name (with how many), none repeated.
        QVERIFY(!advice->view()->toHtml().contains("href=\"range:"));
        QVERIFY(text.contains("evidence ("));
        emit advice->view()->expandRequested(0);
        const QString open = advice->view()->toHtml();
        const qsizetype links = open.count("href=\"range:") + open.count("href=\"slice:");
        QVERIFY(links > 0);
        QStringList targets;
        for (const auto& m :
             QRegularExpression("href=\"((?:range|slice):[^\"]+)\"").globalMatch(open))
            targets << m.captured(1);
        QCOMPARE(targets.removeDuplicates(), qsizetype(0));
        emit advice->view()->expandRequested(0);
        QVERIFY(!advice->view()->toHtml().contains("href=\"range:"));
    }

    // "Where the GPU time goes" as a table: per GPU the time account over
    // the steps' GPU windows, which tile the GPU's time from the first
    // step's start to the end of the last step's GPU work (the generator
    // launches every kernel inside a step: the device's last activity), its
    // parts adding up, the truth's active span; and the very figures of the
    // summary's "gpus" table (what `gapscope-cli summary` prints).
    void overviewBreakdownExportsTheTruth() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        OverviewPanel* overview = panel<OverviewPanel>("overviewDock");
        const QString path = dir_.filePath("breakdown.json");
        QString error;
        QVERIFY2(writeTableSnapshot(overview->snapshot(), path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto out = nlohmann::json::parse(f.readAll().toStdString());
        QCOMPARE(out["title"].get<std::string>(),
                 std::string("Where the GPU time goes (Whole trace)"));
        const auto& rows = out["rows"];
        QCOMPARE(rows.size(), generated_.truth["devices"].size());
        const TimeNs firstStep = generated_.truth["steps"][0]["start_ns"].get<TimeNs>();
        const std::vector<std::string> causes = {"input", "synchronization", "communication",
                                                 "host", "other"};
        const auto trace = host()->session()->trace();
        const auto tables = summaryTables(*trace, {});
        const auto gpus = std::find_if(tables.begin(), tables.end(),
                                       [](const ResultTable& t) { return t.id == "gpus"; });
        QVERIFY(gpus != tables.end());
        // The summary's rows (gapscope-cli summary --format json), key for key.
        const nlohmann::json summaryRows = resultRowsJson(*gpus);
        QVERIFY2(rows == summaryRows,
                 qPrintable(QString::fromStdString(rows.dump() + "\n != \n" + summaryRows.dump())));
        for (size_t i = 0; i < rows.size(); ++i) {
            const auto& row = rows[i];
            const auto& d = generated_.truth["devices"][std::to_string(row["device"].get<int>())];
            const TimeNs stepTime = d["span_end_ns"].get<TimeNs>() - firstStep;
            QCOMPARE(row["of"].get<std::string>(), std::string("step time"));
            QCOMPARE(row["time_ns"].get<TimeNs>(), stepTime);
            QCOMPARE(row["active_from_ns"].get<TimeNs>(), d["span_start_ns"].get<TimeNs>());
            QCOMPARE(row["active_to_ns"].get<TimeNs>(), d["span_end_ns"].get<TimeNs>());
            const TimeNs busy = row["busy_ns"].get<TimeNs>();
            QVERIFY(busy > 0 && busy <= d["busy_ns"].get<TimeNs>());  // busy outside steps too
            QCOMPARE(row["computation_ns"].get<TimeNs>() + row["exposed_comm_ns"].get<TimeNs>() +
                         row["exposed_memcpy_ns"].get<TimeNs>(),
                     busy);
            TimeNs idle = row["idle_short_ns"].get<TimeNs>();
            for (const std::string& c : causes)
                idle += row["idle_" + c + "_ns"].get<TimeNs>();
            QCOMPARE(row["idle_ns"].get<TimeNs>(), idle);
            QCOMPARE(busy + idle, stepTime);
            // The planted input stall leaves every GPU waiting for input.
            QVERIFY(row["idle_input_ns"].get<TimeNs>() > 0);
        }
        // The same table as Markdown, from the view's context-menu action.
        QAction* copyAll = nullptr;
        for (QAction* a : overview->view()->findChildren<QAction*>())
            if (a->text() == QStringLiteral("Copy All as Markdown")) copyAll = a;
        QVERIFY(copyAll);
        QApplication::clipboard()->clear();
        copyAll->trigger();
        const QStringList md = QApplication::clipboard()->text().trimmed().split('\n');
        QVERIFY2(md.join('\n').contains("| GPU | Of | Steps | Time | Busy |"),
                 qPrintable(md.join('\n')));
        QCOMPARE(md.filter(QRegularExpression("^\\| [0-9]+ \\|")).size(), qsizetype(rows.size()));
    }

    // The utilisation chart follows the visible window; its buckets add up
    // to each GPU's busy time (the truth's).
    void utilizationAddsUpToTheBusyTime() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        UtilizationPanel* u = panel<UtilizationPanel>("utilizationDock");
        window_->tracePage()->state()->fitAll();
        u->bucket()->setValue(0.5);  // ms
        QVERIFY(settle());
        const TimeWindow v = window_->tracePage()->state()->visible();
        const auto& rows = u->chart()->rows();
        QCOMPARE(rows.size(), generated_.truth["devices"].size());
        for (const auto& [device, bins] : rows) {
            QCOMPARE(TimeNs(bins.size()), (v.span() + 499'999) / 500'000);
            double busy = 0;
            for (const double b : bins)
                busy += b * double(v.span()) / double(bins.size());
            const double want = double(
                generated_.truth["devices"][std::to_string(device)]["busy_ns"].get<TimeNs>());
            QVERIFY2(std::abs(busy - want) <= 1e-6 * want + 1,
                     qPrintable(QString::number(busy - want)));
        }
        // Each GPU's mean over the window: its busy time (the truth's) over
        // the window's length, in the order of the rows.
        QCOMPARE(u->chart()->means().size(), rows.size());
        for (size_t r = 0; r < rows.size(); ++r) {
            const double want =
                double(generated_.truth["devices"][std::to_string(rows[r].first)]["busy_ns"]
                           .get<TimeNs>()) /
                double(v.span());
            QVERIFY2(std::abs(u->chart()->means()[r] - want) <= 1e-12,
                     qPrintable(QString::number(u->chart()->means()[r] - want)));
        }
        // It says what it shows: the visible window, whatever the scope.
        QVERIFY2(u->headerText().startsWith(QStringLiteral("Visible window (")),
                 qPrintable(u->headerText()));
        // The rows share the chart's height (not 40 px rows in a tall panel).
        const int height = u->chart()->height();
        QVERIFY2(height > 40 * int(rows.size()) + 44, qPrintable(QString::number(height)));
        QCOMPARE(u->chart()->rowHeight(), std::clamp((height - 44) / int(rows.size()), 40, 160));
        QVERIFY(u->chart()->rowHeight() > 40);
        // Its export: each bucket's absolute start and end, each GPU's share;
        // the shares times the widths add up to the truth's busy time again.
        const QString csvPath = dir_.filePath("utilisation.csv");
        QString error;
        QVERIFY2(writeTableSnapshot(u->snapshot(), csvPath, &error), qPrintable(error));
        QFile f(csvPath);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto csv = parseCsv(f.readAll().toStdString());
        QCOMPARE(csv.size(), rows.front().second.size() + 1);
        QCOMPARE(csv[0][0], std::string("Start (absolute ns)"));
        QCOMPARE(csv[0][1], std::string("End (absolute ns)"));
        QCOMPARE(std::stoll(csv[1][0]), v.start);
        QCOMPARE(std::stoll(csv.back()[1]), v.end);
        for (size_t i = 1; i + 1 < csv.size(); ++i)
            QCOMPARE(csv[i][1], csv[i + 1][0]);  // contiguous
        for (size_t c = 2; c < csv[0].size(); ++c) {
            const std::string device = csv[0][c].substr(4, csv[0][c].find(' ', 4) - 4);
            QCOMPARE(csv[0][c], "GPU " + device + " busy (%)");
            double busy = 0;
            for (size_t i = 1; i < csv.size(); ++i)
                busy += std::stod(csv[i][c]) / 100 *
                        double(std::stoll(csv[i][1]) - std::stoll(csv[i][0]));
            const double want =
                double(generated_.truth["devices"][device]["busy_ns"].get<TimeNs>());
            // Shares are written to 4 decimals of a percent; bucket edges to the ns.
            QVERIFY2(std::abs(busy - want) <= 1e-6 * want + double(csv.size()),
                     qPrintable(QString::number(busy - want)));
        }
        // Zooming in recomputes for the new window.
        window_->tracePage()->state()->setVisible({v.start, v.start + v.span() / 10},
                                                  ViewState::History::Record);
        QVERIFY(settle());
        QCOMPARE(TimeNs(u->chart()->rows().front().second.size()),
                 (v.span() / 10 + 499'999) / 500'000);
        window_->tracePage()->state()->fitAll();
    }

    // [ and ] walk the steps; every panel follows; back to the whole trace.
    void scopeChangesRecompute() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        AnalysisSession* session = host()->session();
        AnalysisTable* kernels = panel<KernelsPanel>("kernelsDock")->kernels();
        const auto count = size_t(kernels->model()->column("count"));
        uint64_t wholeCount = 0;
        for (int i = 0; i < kernels->visibleRows(); ++i)
            wholeCount += uint64_t(kernels->visibleRow(i).cells[count].number);
        session->nextStep();
        QVERIFY(settle());
        const int64_t first = generated_.truth["steps"][0]["step"].get<int64_t>();
        QCOMPARE(session->scope().step.value_or(-1), first);
        QVERIFY(panel<GapsPanel>("gapsDock")
                    ->headerText()
                    .startsWith("Step " + QString::number(first)));
        QCOMPARE(host()->scopePicker()->currentIndex(), 3);
        uint64_t stepCount = 0;
        for (int i = 0; i < kernels->visibleRows(); ++i)
            stepCount += uint64_t(kernels->visibleRow(i).cells[count].number);
        QVERIFY(stepCount > 0 && stepCount < wholeCount);
        session->nextStep();
        QVERIFY(settle());
        QCOMPARE(session->scope().step.value_or(-1),
                 generated_.truth["steps"][1]["step"].get<int64_t>());
        session->previousStep();
        QVERIFY(settle());
        QCOMPARE(session->scope().step.value_or(-1), first);
        // A Shift+drag range becomes the scope.
        const Trace& t = *window_->tracePage()->trace();
        window_->tracePage()->state()->setSelectedRange(
            TimeWindow{t.spanStart, t.spanStart + (t.spanEnd - t.spanStart) / 2});
        QCOMPARE(session->scope().kind, AnalysisScope::Kind::Selection);
        QVERIFY(settle());
        session->setWholeTrace();
        QVERIFY(settle());
        kernels = panel<KernelsPanel>("kernelsDock")->kernels();  // back in view
        uint64_t again = 0;
        for (int i = 0; i < kernels->visibleRows(); ++i)
            again += uint64_t(kernels->visibleRow(i).cells[count].number);
        QCOMPARE(again, wholeCount);
    }

    // A panel out of view (its dock's tab behind another) computes nothing
    // until it is shown again, and then follows the scope.
    void panelsOutOfViewComputeWhenShown() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        AnalysisSession* session = host()->session();
        session->setWholeTrace();
        KernelsPanel* kernels = panel<KernelsPanel>("kernelsDock");
        QVERIFY(kernels->inView());
        panel<GapsPanel>("gapsDock");  // the same tab group: kernels goes behind
        QVERIFY(!kernels->inView());
        const int64_t last = generated_.truth["steps"].back()["step"].get<int64_t>();
        session->setStepScope(last);
        QVERIFY(!kernels->computing());
        QVERIFY(kernels->headerText().startsWith("Whole trace"));
        QVERIFY(panel<GapsPanel>("gapsDock")->headerText().startsWith("Step "));
        panel<KernelsPanel>("kernelsDock");
        QVERIFY(kernels->inView());
        QVERIFY(kernels->headerText().startsWith("Step " + QString::number(last)));
        session->setWholeTrace();
        QVERIFY(settle());
    }

    // In a step's scope the Overview accounts for that step's GPU windows:
    // the figures `gapscope-cli steps --step N` prints for it, per GPU.
    void stepScopeOverviewIsThatStepsBreakdown() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        AnalysisSession* session = host()->session();
        const int64_t step = generated_.truth["steps"][1]["step"].get<int64_t>();
        OverviewPanel* overview = panel<OverviewPanel>("overviewDock");
        session->setStepScope(step);
        QVERIFY(settle());
        const QString path = dir_.filePath("step-breakdown.json");
        QString error;
        QVERIFY2(writeTableSnapshot(overview->snapshot(), path, &error), qPrintable(error));
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto rows = nlohmann::json::parse(f.readAll().toStdString())["rows"];
        StepOptions so;
        so.onlyNumber = step;
        const StepsResult steps = stepAnalysis(*host()->session()->trace(), so);
        QCOMPARE(steps.steps.size(), size_t(1));
        const auto& devices = steps.steps.front().devices;
        QCOMPARE(rows.size(), devices.size());
        for (size_t i = 0; i < devices.size(); ++i) {
            // The step's lead-in and GPU window together.
            const GpuParts b = devices[i].tileParts();
            QCOMPARE(rows[i]["device"].get<int>(), devices[i].device);
            QCOMPARE(rows[i]["time_ns"].get<TimeNs>(), devices[i].tile().length());
            QCOMPARE(rows[i]["computation_ns"].get<TimeNs>(), b.compute);
            QCOMPARE(rows[i]["idle_input_ns"].get<TimeNs>(),
                     b.idleByCause[size_t(GapCause::Input)]);
            QCOMPARE(rows[i]["idle_short_ns"].get<TimeNs>(), b.idleShort);
        }
        session->setWholeTrace();
        QVERIFY(settle());
    }

    // A new trace (or none) while panels compute: no stale result, no crash.
    void closingMidComputationCancels() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        AnalysisSession* session = host()->session();
        session->nextStep();  // panels start computing
        session->setTrace(nullptr);
        QVERIFY(settle());
        QCOMPARE(panel<GapsPanel>("gapsDock")->table()->visibleRows(), 0);
        QCOMPARE(panel<GapsPanel>("gapsDock")->headerText(), QStringLiteral("No trace"));
        session->setTrace(window_->tracePage()->trace());
        QVERIFY(settle());
        QVERIFY(panel<GapsPanel>("gapsDock")->table()->visibleRows() > 0);
    }

    // A logdir with two runs: a name picks one; without one the newest
    // is preselected in the list, another can be picked, cancel opens
    // nothing; a folder without profiles says so.
    void aRunIsChosenFromTheFolder() {
        const QString logs = dir_.filePath("chooser-logs");
        const QString older = logs + "/plugins/profile/2024_01_01";
        const QString newer = logs + "/plugins/profile/2024_02_01";
        QVERIFY(QDir().mkpath(older) && QDir().mkpath(newer));
        const QString jax = test::sourceDir() + "/tests/data/recorded/jax_mlp.xplane.pb";
        QVERIFY(QFile::copy(jax, older + "/localhost.xplane.pb"));
        QVERIFY(QFile::copy(jax, newer + "/localhost.xplane.pb"));
        QFile old(older + "/localhost.xplane.pb");
        QVERIFY(old.open(QIODevice::ReadWrite));
        QVERIFY(old.setFileTime(QDateTime::currentDateTime().addDays(-3),
                                QFileDevice::FileModificationTime));
        old.close();
        QCOMPARE(chooseProfileRun(nullptr, logs, {}, false).folder, newer);
        QCOMPARE(chooseProfileRun(nullptr, logs, QStringLiteral("2024_01_01"), true).folder, older);
        const RunChoice unknown = chooseProfileRun(nullptr, logs, QStringLiteral("x"), false);
        QVERIFY(unknown.folder.isEmpty());
        QVERIFY2(unknown.error.contains("2024_01_01") && unknown.error.contains("2024_02_01"),
                 qPrintable(unknown.error));
        // The list: newest first and preselected; pick the second.
        QStringList shown;
        auto pick = [&](int row, bool accept) {
            QTimer::singleShot(0, this, [&shown, row, accept] {
                auto* dialog = qobject_cast<QInputDialog*>(QApplication::activeModalWidget());
                QVERIFY(dialog);
                shown = dialog->comboBoxItems();
                QCOMPARE(dialog->textValue(), shown.first());
                dialog->setTextValue(shown.at(row));
                accept ? dialog->accept() : dialog->reject();
            });
        };
        pick(1, true);
        QCOMPARE(chooseProfileRun(nullptr, logs, {}, true).folder, older);
        QCOMPARE(shown.size(), 2);
        QVERIFY2(shown[0].startsWith("2024_02_01 — 1 host"), qPrintable(shown[0]));
        pick(0, false);
        const RunChoice cancelled = chooseProfileRun(nullptr, logs, {}, true);
        QVERIFY(cancelled.folder.isEmpty() && cancelled.error.isEmpty());
        QVERIFY(QDir().mkpath(dir_.filePath("nothing")));
        const RunChoice none = chooseProfileRun(nullptr, dir_.filePath("nothing"), {}, true);
        QVERIFY2(none.error.contains("no *.xplane.pb"), qPrintable(none.error));
    }

    // `gapscope logs/`: the folder's newest run opens (no list without a
    // person to ask), named after the run, each plane named after its host.
    void aLogFolderOpensItsRun() {
        const QString run = dir_.filePath("logs/plugins/profile/2024_05_01_12_00_00");
        QVERIFY(QDir().mkpath(run));
        QVERIFY(QFile::copy(test::sourceDir() + "/tests/data/recorded/jax_mlp.xplane.pb",
                            run + "/localhost.xplane.pb"));
        window_->openTrace(dir_.filePath("logs"));
        window_->loader()->wait();
        QVERIFY(settle());
        const auto trace = window_->tracePage()->trace();
        QVERIFY(trace);
        QCOMPARE(QString::fromStdString(trace->path), run);
        QVERIFY2(window_->windowTitle().startsWith("2024_05_01_12_00_00"),
                 qPrintable(window_->windowTitle()));
        bool hosted = false;
        for (const Process& p : trace->processes)
            hosted |= p.displayName == "localhost \u00b7 GPU 0";
        QVERIFY(hosted);
        QVERIFY(panel<OverviewPanel>("overviewDock")
                    ->view()
                    ->toPlainText()
                    .contains(QStringLiteral("localhost \u00b7 GPU 0")));
    }

    // A kernel linked from the Overview or Details reads by its short name;
    // its full name is the link's tooltip.
    void kernelLinksReadShortWithTheFullNameAsTooltip() {
        const std::string full =
            "void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, float, "
            "float, float, cudnnTensorStruct, float const*)";
        QTextDocument doc;
        doc.setHtml(symbolLink(7, full));
        QCOMPARE(doc.toPlainText(), QStringLiteral("cudnn::bn_bw_1C11_kernel_new"));
        QTextCursor cursor(&doc);
        cursor.setPosition(3);
        QCOMPARE(cursor.charFormat().toolTip(), QString::fromStdString(full));
        QCOMPARE(cursor.charFormat().anchorHref(), QStringLiteral("slice:7"));
        // What would end the attribute or start an entity comes through too.
        const std::string odd = "bool operator&<a'b>(X const&, Y)";
        doc.setHtml(symbolLink(8, odd));
        cursor.setPosition(3);
        QCOMPARE(cursor.charFormat().toolTip(), QString::fromStdString(odd));
    }

    // The roofline draws every op signature of the Efficiency analysis at
    // its intensity and TFLOP/s, against the GPU's roofs (a recorded H200
    // transformer, committed); a click on a point frames its first op.
    void theRooflineDrawsEverySignature() {
        const QString path =
            test::sourceDir() + "/tests/data/recorded/h200_transformer_workers.pt.trace.json.gz";
        window_->openTrace(path);
        window_->loader()->wait();
        QVERIFY(settle());
        auto* p = panel<EfficiencyPanel>("EfficiencyDock");
        QVERIFY(p);
        const AnalysisResult r = computeAnalysis(*analysisRegistry().find("efficiency"),
                                                 *host()->session()->trace(), Scope{});
        const ResultTable* sig = r.table("signatures");
        const auto& points = p->roofline()->points();
        QCOMPARE(points.size(), sig->rows.size());
        QVERIFY(points.size() > 10);
        size_t largest = 0;
        for (size_t i = 0; i < points.size(); ++i) {
            QCOMPARE(points[i].tflops, std::get<double>(sig->at(i, "tflops")));
            QCOMPARE(points[i].time, integerOr(sig->at(i, "gpu_ns")));
            if (points[i].time > points[largest].time) largest = i;
        }
        RooflineChart* chart = p->roofline();
        p->findChild<QTabWidget*>()->setCurrentWidget(chart);
        QSignalSpy spy(host()->session(), &AnalysisSession::navigateRequested);
        const QPointF at = chart->centerOf(largest);
        QCOMPARE(chart->pointAt(at), int(largest));
        QTest::mouseClick(chart, Qt::LeftButton, {}, at.toPoint());
        QCOMPARE(spy.count(), 1);
        const auto target = spy.at(0).at(0).value<NavTarget>();
        QCOMPARE(target.slice, sig->rows[largest].ref.slice);
    }

    // The Memory panel on the planted memory trace (tests/tools/
    // make_planted_memory.py): what is alive at the peak by op is the
    // planted set (the 8 MiB, step 3's 1 MiB, three 64 KiB), the band's
    // layers are those groups; a click on the curve at 2600 µs lists what
    // is alive then (two 64 KiB and step 2's 512 KiB); an allocation's row
    // frames its op and selects its lifetime.
    void theMemoryPanelListsWhatHoldsThePeak() {
        window_->openTrace(test::fixture(QStringLiteral("memory/planted.json")));
        window_->loader()->wait();
        QVERIFY(settle());
        auto* p = panel<MemoryPanel>("MemoryDock");
        QVERIFY(p);
        const auto* byOp = p->aliveByOp()->model();
        QCOMPARE(byOp->rowCount(), 3);
        const int op = byOp->column(QStringLiteral("op"));
        const int bytes = byOp->column(QStringLiteral("bytes"));
        QCOMPARE(byOp->cell(0, op).text, QStringLiteral("aten::zeros"));
        QCOMPARE(byOp->cell(0, bytes).number, 8.0 * 1048576);
        QCOMPARE(byOp->cell(2, op).text, QStringLiteral("Net_0 › aten::cat"));
        QVERIFY2(p->heldText().contains(QStringLiteral("Alive at the peak")),
                 qPrintable(p->heldText()));
        QCOMPARE(p->alive()->model()->rowCount(), 5);
        QCOMPARE(p->leaks()->model()->rowCount(), 1);
        QCOMPARE(p->neverFreed()->model()->rowCount(), 1);
        // All five allocated in the forward; each step's allocations, the
        // last step's not judged.
        QCOMPARE(p->aliveByPhase()->model()->rowCount(), 1);
        QCOMPARE(p->aliveByPhase()->model()->cell(0, 1).text, QStringLiteral("forward"));
        QCOMPARE(p->leftPerStep()->model()->rowCount(), 4);
        // A moment clicked on the curve.
        p->showAliveAt(2600 * 1000);
        QVERIFY(settle());
        QCOMPARE(p->alive()->model()->rowCount(), 3);
        QVERIFY2(p->heldText().contains(QStringLiteral("Alive at")), qPrintable(p->heldText()));
        // The largest alive then (step 2's 512 KiB, from aten::mm): its op
        // selected, its lifetime (2515 to 2850 µs) the selected range.
        QSignalSpy spy(host()->session(), &AnalysisSession::navigateRequested);
        emit p->alive()->activated(p->alive()->model()->row(0).target);
        QCOMPARE(spy.count(), 1);
        const auto target = spy.at(0).at(0).value<NavTarget>();
        const Trace& t = *host()->session()->trace();
        QCOMPARE(target.kind, NavTarget::Kind::Slice);
        QCOMPARE(std::string(t.str(t.slices[target.slice].name)), std::string("aten::mm"));
        QCOMPARE(target.range.start, TimeNs{2515 * 1000});
        QCOMPARE(target.range.end, TimeNs{2850 * 1000});
        p->showAliveAt(std::nullopt);
        QVERIFY(settle());
        QCOMPARE(p->alive()->model()->rowCount(), 5);
    }

    // The Critical path panel draws its step's path over the timeline: the
    // planted path's six slices outlined, its two hops from one track to
    // another (mm's launch to gemm, gemm to the synchronize's end) drawn,
    // the rest dimmed on request; a what-if from its form gives the
    // projection the planted arithmetic says (gemm halved: 300 µs less).
    void theCriticalPathIsDrawnOnTheTimeline() {
        const QString path = dir_.filePath("planted-step.json");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(std::string("{\"traceEvents\":[") +
                                              test::kPlantedStepEvents + "]}"));
        }
        window_->openTrace(path);
        window_->loader()->wait();
        QVERIFY(settle());
        AnalysisSession* session = host()->session();
        auto* p = panel<CriticalPathPanel>("critical-pathDock");
        QVERIFY(p);
        session->setStepScope(1);
        QVERIFY(settle());
        ViewState* view = window_->tracePage()->state();
        QVERIFY(view->pathOverlay());
        const PathOverlay& overlay = *view->pathOverlay();
        QCOMPARE(overlay.sliceCount(), size_t(6));
        QCOMPARE(overlay.hopCount(), size_t(2));
        const Trace& t = *session->trace();
        std::set<std::string> names;
        for (const uint32_t s : overlay.slicesIn({0, INT64_MAX}))
            names.insert(std::string(t.str(t.slices[s].name)));
        const std::set<std::string> want{"ProfilerStep#1", "aten::mm", "cudaLaunchKernel", "gemm",
                                         "cudaDeviceSynchronize"};
        QCOMPARE(names, want);                                    // (two launches)
        QCOMPARE(overlay.hopsIn({0, 100000}).size(), size_t(0));  // the launch is at 110
        QCOMPARE(overlay.hopsIn({0, 130000}).size(), size_t(1));
        QCOMPARE(overlay.hopsIn({731000, 731000}).size(), size_t(1));  // gemm's end to 740
        QVERIFY(p->figuresText().contains(QStringLiteral("990.00 µs")));
        // Drawn: the frame with the path differs from the one without, and
        // the dimmed one from both.
        TimelineView* timeline = window_->tracePage()->timeline();
        view->fit({t.spanStart, t.spanEnd});
        const QImage outlined = timeline->grab().toImage();
        p->setShownOnTimeline(false);
        QVERIFY(!view->pathOverlay());
        const QImage without = timeline->grab().toImage();
        p->setShownOnTimeline(true);
        p->setDimRest(true);
        QVERIFY(view->pathOverlay() && view->pathDimmed());
        const QImage dimmed = timeline->grab().toImage();
        QVERIFY(outlined != without);
        QVERIFY(dimmed != outlined && dimmed != without);
        p->setDimRest(false);
        // What if gemm were twice as fast: the path found again, 690 µs.
        QVERIFY(!p->addWhatIf(QStringLiteral("kernel:gemm")));  // no factor: refused
        QVERIFY(p->addWhatIf(QStringLiteral("kernel:gemm=0.5")));
        QVERIFY(settle());
        QVERIFY2(p->figuresText().contains(QStringLiteral("690.00 µs")),
                 qPrintable(p->figuresText()));
        p->clearWhatIfs();
        QVERIFY(settle());
        QVERIFY(!p->figuresText().contains(QStringLiteral("690.00 µs")));
        session->setWholeTrace();
        QVERIFY(settle());
    }

    // What the overlay finds in a frame's window is what a scan of the
    // path finds (the core's table of the path, not the overlay): the
    // sample's step 3, 350 slices, the step's own slice across all of them,
    // at windows from a pixel to the whole step.
    void thePathOverlayFindsWhatIsInView() {
        LoadResult loaded = loadTrace(test::samplePath().toStdString(), {});
        QVERIFY(loaded.trace);
        const Trace& t = *loaded.trace;
        Scope scope;
        scope.step = 3;
        AnalysisOptions options;
        options.set("slices");
        const AnalysisResult r =
            computeAnalysis(*analysisRegistry().find("critical-path"), t, scope, options);
        const ResultTable* path = r.table("path");
        std::vector<PathOverlay::Point> points;
        for (size_t i = 0; i < path->rows.size(); ++i)
            points.push_back({path->rows[i].ref.slice, integerOr(path->at(i, "at_ns"))});
        std::set<uint32_t> onPath;
        for (const ResultRow& row : r.table("path_slices")->rows)
            onPath.insert(row.ref.slice);
        QVERIFY(onPath.size() > PathOverlay::kLongKept);
        const PathOverlay overlay(loaded.trace, points);
        QCOMPARE(overlay.sliceCount(), onPath.size());
        const TimeNs from = integerOr(path->at(0, "at_ns"));
        const TimeNs to = integerOr(path->at(path->rows.size() - 1, "at_ns"));
        for (int i = 0; i <= 40; ++i)
            for (const TimeNs length : {TimeNs(0), TimeNs(1000), TimeNs(50000), to - from}) {
                const TimeNs start = from - 1000 + (to - from + 2000) * i / 40;
                std::vector<uint32_t> scanned;
                for (const uint32_t s : onPath)
                    if (t.slices[s].start <= start + length && t.slices[s].end() >= start)
                        scanned.push_back(s);
                std::vector<uint32_t> found = overlay.slicesIn({start, start + length});
                std::sort(found.begin(), found.end());
                QCOMPARE(found, scanned);
                // The hops: each consecutive pair of points on two tracks.
                size_t hops = 0;
                for (size_t k = 0; k + 1 < points.size(); ++k) {
                    const auto [lo, hi] = std::minmax(points[k].at, points[k + 1].at);
                    hops +=
                        t.trackOfSlice(points[k].slice) != t.trackOfSlice(points[k + 1].slice) &&
                        hi >= start && lo <= start + length;
                }
                QCOMPARE(overlay.hopsIn({start, start + length}).size(), hops);
            }
    }

    void cleanupTestCase() { window_.reset(); }
};

GAPSCOPE_TEST_MAIN(TestPanels)
#include "tst_panels.moc"
