// The ranks of a job in the real main window (offscreen): the 8 DLRM ranks
// opened as a folder, several files and a fleet table; the Ranks panel's
// figures are the loader's (each rank's own trace, checked against the
// reference in tst_ranks); rank groups collapse, GPUs of all ranks go on
// top, a heat map cell frames that rank's step on the timeline, a fleet
// table's cell opens that rank's trace; alignment on a step. The panel's
// tables are held against the independent reference (ranks_reference.py).

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLineEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>

#include "analysis/gpu_time_account.h"
#include "analysis/launch_calls.h"
#include "io/rank_files.h"
#include "loader/rank_view.h"
#include "loading/trace_loader.h"
#include "loading/warnings_list.h"
#include "main_window.h"
#include "panels/analysis_panel.h"
#include "panels/analysis_table.h"
#include "panels/panel_host.h"
#include "ranks/rank_heat_map.h"
#include "ranks/ranks_panel.h"
#include "report/ranks_report.h"
#include "support/cli_run.h"
#include "support/planted_job.h"
#include "support/reference_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/overview_strip.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_view.h"
#include "timeline/view_state.h"
#include "trace_page.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

QString dlrmFolder() {
    return test::sharedTraces() +
           "/param/example_input_files/chakra_traces/dlrm_kineto_extracted/dlrm_kineto";
}

// The DLRM job's fleet table, as the fleet tool writes it (the ranks
// loaded and compared here, in the nested form the viewer reads).
QByteArray dlrmFleetTable() {
    const std::string folder = dlrmFolder().toStdString();
    const RankView view = loadRankView(wholeFiles(rankFilesOf({folder}).files), folder, {});
    std::vector<RankRow> rows;
    for (const RankEntry& e : view.ranks)
        rows.push_back({e, "file name", ""});
    return QByteArray::fromStdString(ranksJson(rows, view.comparison));
}

}  // namespace

class TestRanksView : public QObject {
    Q_OBJECT
    std::unique_ptr<app::MainWindow> window_;
    QTemporaryDir dir_;

    bool settle() {
        window_->loader()->wait();
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000) {
            QApplication::processEvents(QEventLoop::AllEvents, 20);
            PanelHost* host = window_->panels();
            bool busy = host->session()->trace() && !host->session()->indexed();
            for (AnalysisPanel* p : host->panels())
                busy |= p->computing();
            if (!busy) return true;
        }
        return false;
    }

    const TimelineLayout& layout() const { return window_->tracePage()->timeline()->layout(); }

    // The Ranks panel's two tables against tests/tools/ranks_reference.py
    // over the same files (Python's json, exact decimals, its own interval
    // unions): per rank its steps, mean step time, busy share, communication,
    // exposed communication, time waited and straggler count; per step its
    // straggler and the waits.
    void compareWithReference(const RanksPanel* panel, const QStringList& files,
                              size_t stepsPerRank = 1) {
        const nlohmann::json ref = test::runReference("ranks_reference.py", files);
        QVERIFY(ref.is_object());
        const AnalysisTableModel* ranks = panel->ranksTable()->model();
        QCOMPARE(size_t(ranks->rowCount()), ref["ranks"].size());
        for (int row = 0; row < ranks->rowCount(); ++row) {
            const auto rank = static_cast<int64_t>(ranks->cell(row, 0).number);
            const nlohmann::json* r = nullptr;
            for (const auto& candidate : ref["ranks"])
                if (candidate["rank"].get<int64_t>() == rank) r = &candidate;
            QVERIFY2(r, qPrintable(QStringLiteral("rank %1 is not in the reference").arg(rank)));
            const auto& steps = (*r)["steps"];
            double duration = 0, busy = 0, gpuTime = 0, comm = 0, exposed = 0, wait = 0,
                   transfer = 0;
            for (const auto& st : steps) {
                duration += double(st["end_ns"].get<int64_t>() - st["start_ns"].get<int64_t>());
                busy += double(st["busy_ns"].get<int64_t>());
                // The step's GPU window: busy + idle.
                gpuTime += double(st["busy_ns"].get<int64_t>() + st["idle_ns"].get<int64_t>());
                comm += double(st["comm_ns"].get<int64_t>());
                exposed += double(st["exposed_comm_ns"].get<int64_t>());
                if (!st["wait_ns"].is_null()) wait += double(st["wait_ns"].get<int64_t>());
                if (!st["transfer_ns"].is_null())
                    transfer += double(st["transfer_ns"].get<int64_t>());
            }
            int straggles = 0;
            for (const auto& st : ref["stragglers"])
                straggles += st["rank"].get<int64_t>() == rank;
            const QString where = QStringLiteral("rank %1").arg(rank);
            auto same = [&](int column, double expected, const char* what) {
                QVERIFY2(test::nearlyEqual(ranks->cell(row, column).number, expected),
                         qPrintable(QStringLiteral("%1 %2: %3, the reference %4")
                                        .arg(where, what)
                                        .arg(ranks->cell(row, column).number, 0, 'f', 6)
                                        .arg(expected, 0, 'f', 6)));
            };
            same(2, double(steps.size()), "steps");
            QVERIFY(!steps.empty());
            same(3, duration / double(steps.size()), "mean step time");
            same(4, busy / gpuTime, "GPU busy share (of the steps' GPU windows)");
            same(5, comm, "communication");
            same(6, exposed, "exposed communication");
            same(7, wait, "waited");
            same(8, transfer, "in transfer");
            same(9, straggles, "straggler in");
            // Who stands apart, from the reference's own figures.
            const nlohmann::json* o = nullptr;
            for (const auto& candidate : ref["outliers"])
                if (candidate["rank"].get<int64_t>() == rank) o = &candidate;
            QVERIFY(o);
            const TableCell& score = ranks->cell(row, ranks->column("outlier_score"));
            QCOMPARE(score.empty, (*o)["score"].is_null());
            if (!score.empty)
                QVERIFY2(std::fabs(score.number - (*o)["score"].get<double>()) < 1e-6,
                         qPrintable(QStringLiteral("%1: outlier score %2, the reference %3")
                                        .arg(where)
                                        .arg(score.number)
                                        .arg((*o)["score"].get<double>())));
            // The figure it stands apart in, only where it does (the table
            // shows the figure's label).
            const TableCell& figure = ranks->cell(row, ranks->column("outlier_figure"));
            const std::map<std::string, QString> labels = {
                {"step_time", "step time"}, {"busy_share", "GPU busy"}, {"wait", "wait"}};
            if ((*o)["figure"].is_null())
                QVERIFY(figure.empty);
            else
                QCOMPARE(figure.text, labels.at((*o)["figure"].get<std::string>()));
            const bool outlier = (*o)["outlier"].get<bool>();
            QCOMPARE(ranks->cell(row, ranks->column("outlier")).text,
                     score.empty ? QStringLiteral("unknown")
                     : outlier   ? QStringLiteral("yes")
                                 : QStringLiteral("no"));
            // The heat map marks the same ranks.
            const RankHeatMap* map = panel->heatMap();
            for (int m = 0; m < map->rankCount(); ++m)
                if (panel->document()->ranks[map->rankRow(m)].entry.rank == rank)
                    QCOMPARE(map->isOutlier(m), outlier);
        }
        // The Overview's account of the merged trace (which the timeline's
        // strip shows too): each GPU over its own rank's step, as the table
        // says (not over every rank's steps).
        const auto trace = window_->tracePage()->trace();
        QVERIFY(trace);
        const TimeAccount account = timeAccountOf(*trace, {});
        QCOMPARE(account.devices.size(), trace->gpuDevices.size());
        for (const GpuTimeAccount& a : account.devices) {
            QCOMPARE(a.denominator, Denominator::StepTime);
            QCOMPARE(a.steps, stepsPerRank);
            const int64_t rank = trace->ranks.at(trace->gpuDevices.at(size_t(a.device)).group).rank;
            for (int row = 0; row < ranks->rowCount(); ++row)
                if (int64_t(ranks->cell(row, 0).number) == rank)
                    QVERIFY2(test::nearlyEqual(ranks->cell(row, 4).number,
                                               double(a.busy()) / double(a.time)),
                             qPrintable(QStringLiteral("rank %1: Overview %2, table %3")
                                            .arg(rank)
                                            .arg(double(a.busy()) / double(a.time))
                                            .arg(ranks->cell(row, 4).number)));
        }
        const AnalysisTableModel* stragglers = panel->stragglersTable()->model();
        QCOMPARE(size_t(stragglers->rowCount()), ref["stragglers"].size());
        for (int row = 0; row < stragglers->rowCount(); ++row) {
            const auto& st = ref["stragglers"][size_t(row)];
            QCOMPARE(stragglers->cell(row, 0).number, double(st["step"].get<int64_t>()));
            QCOMPARE(stragglers->cell(row, 1).number, double(st["rank"].get<int64_t>()));
            // Points in time read from the job's first step.
            QCOMPARE(stragglers->cell(row, 3).number,
                     double(st["entered_ns"].get<int64_t>() - stragglers->origin()));
            QCOMPARE(stragglers->cell(row, 4).number, double(st["others_wait_ns"].get<int64_t>()));
            QCOMPARE(stragglers->cell(row, 6).number, double(st["longest_wait_ns"].get<int64_t>()));
            QCOMPARE(stragglers->cell(row, 7).number,
                     double(st["longest_wait_rank"].get<int64_t>()));
        }
    }

  private slots:
    void initTestCase() {
        QSettings().clear();
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->disableCacheForSession();
        window_->resize(1600, 1000);
        window_->show();
    }

    // A job of 1024 ranks (generated here: three steps each, ranks 17 and
    // 800 planted slow) on a 1366×768 screen: the busy strip folds into a
    // band of bounded height and the timeline keeps at least half the
    // window; the Ranks panel marks the slow ranks as its independent
    // reference (ranks_reference.py) and the planting say, sorts them
    // first and filters to them; a cell leads to that rank's step slice.
    void aThousandRanksFitOnALaptop() {
        QTemporaryDir dir;
        QStringList files;
        for (int r = 0; r < 1024; ++r) {
            const QString path = dir.filePath(QStringLiteral("rank%1.pt.trace.json").arg(r));
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(
                test::plantedRankOfLargeJob(r, 1024, r == 17 || r == 800)));
            files << path;
        }
        window_->resize(1366, 768);
        window_->openTrace(dir.path());
        QVERIFY(settle());
        const auto trace = window_->tracePage()->trace();
        QVERIFY(trace);
        QCOMPARE(trace->ranks.size(), size_t(1024));
        QCOMPARE(trace->gpuDevices.size(), size_t(1024));
        QApplication::processEvents();
        OverviewStrip* strip = window_->tracePage()->overview();
        QVERIFY(strip->folded());
        QVERIFY2(strip->height() <= OverviewStrip::kBandHeight + 6,
                 qPrintable(QString::number(strip->height())));
        QCOMPARE(strip->bandRows(), OverviewStrip::kBandHeight);
        // Every device in exactly one band row.
        size_t covered = 0;
        for (int row = 0; row < strip->bandRows(); ++row) {
            const auto [first, last] = strip->bandRowDevices(row);
            QCOMPARE(first, covered);
            covered = last;
        }
        QCOMPARE(covered, size_t(1024));
        // The timeline (its page: tracks, ruler and strip) keeps half the
        // window beside the panels' docks, and the tracks most of it.
        const QWidget* page = window_->tracePage();
        const QWidget* tracks = window_->tracePage()->timeline();
        QVERIFY2(page->height() * 2 >= window_->height() &&
                     tracks->height() * 3 >= page->height() * 2 - 60,
                 qPrintable(QStringLiteral("page %1, tracks %2, strip %3 of %4 px")
                                .arg(page->height())
                                .arg(tracks->height())
                                .arg(strip->height())
                                .arg(window_->height())));
        // The strip's band as drawn: the slow ranks' rows are no darker
        // than the others' (every GPU busy in its all-reduce); it paints.
        QVERIFY(!strip->grab().toImage().isNull());

        RanksPanel* panel = window_->ranks();
        QVERIFY(panel->document());
        compareWithReference(panel, files, 3);
        if (QTest::currentTestFailed()) return;
        RankHeatMap* map = panel->heatMap();
        QCOMPARE(map->rankCount(), 1024);
        std::vector<int64_t> marked;
        for (int r = 0; r < map->rankCount(); ++r)
            if (map->isOutlier(r))
                marked.push_back(panel->document()->ranks[map->rankRow(r)].entry.rank);
        QCOMPARE(marked, (std::vector<int64_t>{17, 800}));
        // Sorted by outlier score, they come first; filtered, they alone.
        panel->orderPicker()->setCurrentIndex(int(RankHeatMap::Order::Outlier));
        QVERIFY(map->isOutlier(0) && map->isOutlier(1) && !map->isOutlier(2));
        panel->outliersOnlyBox()->setChecked(true);
        QCOMPARE(map->rankCount(), 2);
        panel->outliersOnlyBox()->setChecked(false);
        panel->filterBox()->setText(QStringLiteral("rank 80"));  // 80, 800-809
        QCOMPARE(map->rankCount(), 11);
        panel->filterBox()->clear();
        panel->orderPicker()->setCurrentIndex(int(RankHeatMap::Order::Wait));
        // The longest waits first: a rank that waited for the slow ones.
        QVERIFY(!map->isOutlier(0));
        panel->orderPicker()->setCurrentIndex(int(RankHeatMap::Order::Rank));
        QCOMPARE(panel->document()->ranks[map->rankRow(0)].entry.rank, int64_t{0});
        // A cell leads to that rank's step: its step slice is selected.
        int row800 = -1;
        for (int r = 0; r < map->rankCount(); ++r)
            if (panel->document()->ranks[map->rankRow(r)].entry.rank == 800) row800 = r;
        QVERIFY(row800 >= 0);
        QTest::mouseClick(map, Qt::LeftButton, {}, map->cellRect(row800, 1).center());
        QApplication::processEvents();
        const uint32_t selected = window_->tracePage()->state()->selectedSlice();
        QVERIFY(selected != kNone);
        const uint32_t process = trace->tracks[trace->trackOfSlice(selected)].process;
        QCOMPARE(trace->ranks[trace->processes[process].group].rank, int64_t{800});
        QCOMPARE(std::string(trace->str(trace->slices[selected].name)),
                 std::string("ProfilerStep#2"));

        // Beyond one machine: the same job four times over, 4096 ranks, as a
        // fleet table (summaries only, as the fleet tool writes them): the
        // Ranks panel works from it and marks the 8 planted slow ranks.
        std::vector<RankRow> rows;
        std::vector<RankEntry> entries;
        for (int64_t k = 0; k < 4; ++k)
            for (const RankRow& r : panel->document()->ranks) {
                RankRow copy = r;
                copy.entry.rank += 1024 * k;
                rows.push_back(copy);
                entries.push_back(copy.entry);
            }
        const RankComparison comparison = compareRanks(entries);
        for (size_t i = 0; i < rows.size(); ++i)
            rows[i].entry = entries[i];
        const QString fleet = dir.filePath(QStringLiteral("job4096.fleet.json"));
        {
            QFile f(fleet);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(ranksJson(rows, comparison)));
        }
        window_->openTrace(fleet);
        QApplication::processEvents();
        QVERIFY(window_->lastError().isEmpty());
        QCOMPARE(panel->document()->ranks.size(), size_t(4096));
        QCOMPARE(map->rankCount(), 4096);
        marked.clear();
        for (int r = 0; r < map->rankCount(); ++r)
            if (map->isOutlier(r))
                marked.push_back(panel->document()->ranks[map->rankRow(r)].entry.rank);
        QCOMPARE(marked, (std::vector<int64_t>{17, 800, 1041, 1824, 2065, 2848, 3089, 3872}));
        QVERIFY(!map->grab().toImage().isNull());
        window_->resize(1600, 1000);
    }

    void aFolderOfRanksOpensSideBySide() {
        GAPSCOPE_REQUIRE_SHARED();
        window_->openTrace(dlrmFolder());
        QVERIFY(settle());
        const auto trace = window_->tracePage()->trace();
        QVERIFY(trace);
        QCOMPARE(trace->ranks.size(), size_t(8));
        QCOMPARE(trace->gpuDevices.size(), size_t(8));
        RanksPanel* panel = window_->ranks();
        QVERIFY(panel->document());
        QCOMPARE(panel->document()->ranks.size(), size_t(8));
        auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("ranksDock"));
        QVERIFY(dock && dock->isVisible());
        QVERIFY2(panel->summaryText().contains("Rank 7</b> entered the collective last"),
                 qPrintable(panel->summaryText()));
        // Its rows are the ranks in order; the straggler table names rank 7.
        QCOMPARE(panel->ranksTable()->visibleRows(), 8);
        QCOMPARE(panel->stragglersTable()->visibleRows(), 1);
        QCOMPARE(panel->stragglersTable()->model()->displayText(0, 1), QStringLiteral("7"));
        QStringList files;
        for (const QFileInfo& f : QDir(dlrmFolder()).entryInfoList(QDir::Files, QDir::Name))
            files << f.filePath();
        QCOMPARE(files.size(), 8);
        compareWithReference(panel, files);
        if (QTest::currentTestFailed()) return;
        QCOMPARE(panel->heatMap()->rankCount(), 8);
        QCOMPARE(panel->heatMap()->stepCount(), 1);
        // The heat map colours by step time: rank 1's step is the longest.
        double longest = 0;
        int longestRow = -1;
        for (int r = 0; r < 8; ++r) {
            const auto v = panel->heatMap()->value(r, 0);
            QVERIFY(v);
            if (*v > longest) {
                longest = *v;
                longestRow = r;
            }
        }
        QCOMPARE(longestRow, 1);
        // Colours relative to the median step (as every median of Gapscope:
        // of 8 durations the mean of the 4th and 5th, rounded down to the ns):
        // at or under it the lightest, +50 % the darkest.
        std::vector<double> durations;
        for (int r = 0; r < 8; ++r)
            durations.push_back(*panel->heatMap()->value(r, 0));
        std::sort(durations.begin(), durations.end());
        const double median = std::floor((durations[3] + durations[4]) / 2);
        for (int r = 0; r < 8; ++r) {
            const double v = *panel->heatMap()->value(r, 0);
            const double want = std::clamp((v - median) / (median / 2), 0.0, 1.0);
            QVERIFY(test::nearlyEqual(*panel->heatMap()->shade(r, 0), want));
        }
        // Waits: the straggler's is 0, the others' as the document says.
        panel->metricPicker()->setCurrentIndex(2);
        QCOMPARE(*panel->heatMap()->value(7, 0), 0.0);
        QCOMPARE(*panel->heatMap()->value(1, 0),
                 double(*panel->document()->ranks[1].entry.figures.steps[0].wait));

        // The timeline: a header per rank, then its processes; collapsible.
        const auto& rows = layout().rows();
        QVERIFY(!rows.empty());
        QCOMPARE(rows.front().kind, DisplayRow::Kind::RankHeader);
        int headers = 0;
        for (const DisplayRow& r : rows)
            headers += r.kind == DisplayRow::Kind::RankHeader;
        QCOMPARE(headers, 8);
        const size_t before = rows.size();
        window_->tracePage()->timeline()->setGpusOnTop(true);
        QCOMPARE(layout().rows().front().kind, DisplayRow::Kind::ProcessHeader);
        QCOMPARE(trace->processes[layout().rows().front().process].kind, ProcessKind::Gpu);
        window_->tracePage()->timeline()->setGpusOnTop(false);
        QCOMPARE(layout().rows().size(), before);
        const_cast<TimelineLayout&>(layout()).toggleRank(0);
        QVERIFY(layout().rows().size() < before);
        QVERIFY(layout().isRankCollapsed(0));
        const_cast<TimelineLayout&>(layout()).toggleRank(0);
        QCOMPARE(layout().rows().size(), before);

        // A cell frames that rank's step.
        const RankStep& step = panel->document()->ranks[3].entry.figures.steps[0];
        const QRect cell = panel->heatMap()->cellRect(3, 0);
        dock->raise();
        QApplication::processEvents();
        QTest::mouseClick(panel->heatMap(), Qt::LeftButton, {}, cell.center());
        QApplication::processEvents();
        const ViewState* state = window_->tracePage()->state();
        QVERIFY(state->selectedRange());
        QCOMPARE(state->selectedRange()->start, step.span.start);
        QCOMPARE(state->selectedRange()->end, step.span.end);
        QVERIFY(state->visible().start <= step.span.start && state->visible().end >= step.span.end);
    }

    // Aligned on step 10, every rank's step starts with rank 0's, in the
    // panel and on the timeline; Reload keeps the alignment.
    void alignedOnAStep() {
        GAPSCOPE_REQUIRE_SHARED();
        std::vector<std::string> files;
        for (const QString& name :
             QDir(dlrmFolder()).entryList({"*.json"}, QDir::Files, QDir::Name))
            files.push_back((dlrmFolder() + "/" + name).toStdString());
        QCOMPARE(files.size(), size_t{8});
        window_->openRanks(wholeFiles(files), dlrmFolder(), 10);
        QVERIFY(settle());
        const auto trace = window_->tracePage()->trace();
        QVERIFY(trace);
        const RanksDocument& doc = *window_->ranks()->document();
        QCOMPARE(doc.comparison.alignedOn, std::optional<int64_t>(10));
        const TimeNs start = doc.ranks[0].entry.figures.steps[0].span.start;
        for (size_t r = 0; r < doc.ranks.size(); ++r) {
            QCOMPARE(doc.ranks[r].entry.figures.steps[0].span.start, start);
            QCOMPARE(trace->ranks[r].offset, doc.ranks[r].entry.offset);
        }
        QVERIFY(window_->ranks()->summaryText().contains("aligned on step 10"));
        QCOMPARE(trace->alignedOnStep, std::optional<int64_t>(10));
        auto* ruler = window_->tracePage()->findChild<TimeRuler*>();
        QVERIFY(ruler);
        QCOMPARE(ruler->note(), QStringLiteral("ranks aligned on step 10"));
    }

    // A fleet table (the JSON of `gapscope-cli ranks`, as tools/fleet writes
    // it) opens in the Ranks panel alone; a cell opens that rank's trace.
    void aFleetTableOpensItsRanks() {
        GAPSCOPE_REQUIRE_SHARED();
        const QString fleet = dir_.filePath("job.fleet.json");
        QFile f(fleet);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(dlrmFleetTable());
        f.close();
        window_->openTrace(fleet);
        QApplication::processEvents();
        RanksPanel* panel = window_->ranks();
        QVERIFY(panel->document());
        QCOMPARE(panel->document()->ranks.size(), size_t(8));
        QVERIFY(window_->lastError().isEmpty());
        // A cell: that rank's trace opens on its own.
        panel->activate(2, 10);
        QVERIFY(settle());
        const auto trace = window_->tracePage()->trace();
        QVERIFY(trace);
        QVERIFY(trace->ranks.empty());
        QVERIFY(QString::fromStdString(trace->path).contains("worker2"));
        // A broken fleet table says where it is wrong and keeps what was open.
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"ranks": [{"rank": "two"}]})");
        f.close();
        window_->openTrace(fleet);
        QVERIFY2(window_->lastError().contains("ranks[0].rank: not an integer"),
                 qPrintable(window_->lastError()));
        QCOMPARE(window_->tracePage()->trace(), trace);
    }

    // A thousand ranks (the DLRM ranks' table copied 125 times, renumbered):
    // the heat map keeps a row per rank and scrolls to the last one.
    // A file that fails and a rank two files claim: said in a bar above the
    // timeline with its count, the list collapsed until asked for; no modal box.
    void rankWarningsAreABarNotADialog() {
        GAPSCOPE_REQUIRE_SHARED();
        const QString job = dir_.filePath("warned");
        QVERIFY(QDir().mkpath(job));
        const QStringList files = QDir(dlrmFolder()).entryList({"*.json"}, QDir::Files, QDir::Name);
        QCOMPARE(files.size(), 8);
        for (const QString& f : files)
            QVERIFY(QFile::copy(dlrmFolder() + "/" + f, job + "/" + f));
        QVERIFY(QFile::copy(dlrmFolder() + "/" + files[0], job + "/zz_again_" + files[0]));
        QFile broken(job + "/zz_broken.pt.trace.json");
        QVERIFY(broken.open(QIODevice::WriteOnly));
        broken.write("{\"traceEvents\": [{\"ph\": \"X\", \"ts\": 1,");
        broken.close();
        window_->openTrace(job);
        QVERIFY(settle());
        QVERIFY(QApplication::activeModalWidget() == nullptr);
        WarningsList* bar = window_->tracePage()->warnings();
        QVERIFY(bar->isVisible());
        QCOMPARE(bar->warnings().size(), qsizetype(2));
        QVERIFY2(bar->summaryText().contains("2 warnings"), qPrintable(bar->summaryText()));
        QVERIFY(bar->warnings().filter("zz_broken").size() == 1);
        QVERIFY(!bar->expanded());
        bar->setExpanded(true);
        QVERIFY(bar->expanded());
        // The timeline keeps most of the window.
        QVERIFY(bar->height() < window_->tracePage()->height() / 3);
        // Another trace without warnings: the bar goes.
        window_->openTrace(dlrmFolder());
        QVERIFY(settle());
        QVERIFY(!bar->isVisible());
    }

    void aThousandRanksScroll() {
        GAPSCOPE_REQUIRE_SHARED();
        QJsonObject doc = QJsonDocument::fromJson(dlrmFleetTable()).object();
        const QJsonArray eight = doc.value("ranks").toArray();
        QCOMPARE(eight.size(), 8);
        QJsonArray many;
        for (int i = 0; i < 1000; ++i) {
            QJsonObject rank = eight[i % 8].toObject();
            rank["rank"] = i;
            rank["host"] = QStringLiteral("node%1").arg(i % 12);
            many.append(rank);
        }
        doc["ranks"] = many;
        const QString fleet = dir_.filePath("big.fleet.json");
        QFile f(fleet);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(doc).toJson());
        f.close();
        window_->openTrace(fleet);
        QApplication::processEvents();
        RanksPanel* panel = window_->ranks();
        QVERIFY2(window_->lastError().isEmpty(), qPrintable(window_->lastError()));
        QCOMPARE(panel->document()->ranks.size(), size_t(1000));
        RankHeatMap* map = panel->heatMap();
        auto* scroll = qobject_cast<QScrollArea*>(map->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QTRY_VERIFY(scroll->verticalScrollBar()->maximum() > 0);
        QVERIFY(map->height() >= 1000 * 4);
        scroll->verticalScrollBar()->setValue(scroll->verticalScrollBar()->maximum());
        QApplication::processEvents();
        // The last row is inside the visible part of the map.
        const QRect seen(QPoint(0, scroll->verticalScrollBar()->value()),
                         scroll->viewport()->size());
        QVERIFY(seen.contains(map->cellRect(999, 0).center()));
        // By host, in natural order (node2 before node10), then by rank.
        panel->orderPicker()->setCurrentIndex(int(RankHeatMap::Order::Host));
        std::vector<std::pair<int, int>> expected;  // (node number, rank)
        for (int i = 0; i < 1000; ++i)
            expected.emplace_back(i % 12, i);
        std::sort(expected.begin(), expected.end());
        for (int row = 0; row < 1000; ++row)
            QCOMPARE(panel->document()->ranks[map->rankRow(row)].entry.rank,
                     int64_t(expected[size_t(row)].second));
        panel->orderPicker()->setCurrentIndex(int(RankHeatMap::Order::Rank));
    }

    void cleanupTestCase() { window_.reset(); }
};

GAPSCOPE_TEST_MAIN(TestRanksView)
#include "tst_ranks_view.moc"
