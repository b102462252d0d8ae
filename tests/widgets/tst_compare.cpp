// Comparing two runs in the real window: opening a comparison (the
// candidate below the baseline), the timelines lined up on each run's
// median step and on a step picked in the panel, a kernel picked in the
// Compare panel framed in both timelines, swapping and closing; and the
// panel's figures and kernels equal `gapscope-cli diff`'s JSON to the ns
// (one engine for the gate and the panel), on a generated pair with a
// kernel made twice as slow (tests/tools/make_compare_pair.py, whose truth
// gives the steps) and, with ../shared, Kineto's ResNet50 pair.

#include <QComboBox>
#include <QDockWidget>
#include <QFileInfo>
#include <QLabel>
#include <QProcess>
#include <QProgressBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "compare/compare_controller.h"
#include "compare/compare_panel.h"
#include "compare/view_link.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "panels/analysis_table.h"
#include "panels/table_export.h"
#include "report/result_json.h"
#include "search/search_bar.h"
#include "support/cli_run.h"
#include "support/generator.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/time_ruler.h"
#include "trace_page.h"

using namespace gapscope;
using namespace gapscope::ui;
using nlohmann::json;

namespace {

json readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return json();
    return json::parse(f.readAll().toStdString(), nullptr, false);
}

// The truth's steps: start and end, in ns as the trace writes them.
struct TruthStep {
    int64_t start = 0, end = 0;
    int64_t length() const { return end - start; }
};

std::vector<TruthStep> truthSteps(const json& truth) {
    std::vector<TruthStep> out;
    for (const json& s : truth["steps"])
        out.push_back({s["start_ns"].get<int64_t>(), s["end_ns"].get<int64_t>()});
    return out;
}

// The step whose length is the median (an odd count of steps: one such).
size_t medianIndex(const std::vector<TruthStep>& steps) {
    std::vector<size_t> order(steps.size());
    for (size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return steps[a].length() < steps[b].length(); });
    return order[order.size() / 2];
}

}  // namespace

// Two JSON values equal, both shown when not.
#define JSON_EQUAL(a, b) \
    QVERIFY2((a) == (b), qPrintable(QString::fromStdString((a).dump() + " != " + (b).dump())))

class TestCompare : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;
    QString base_, slow_, ops_, renamed_, eager_, compiled_, fed_;
    json baseTruth_, slowTruth_, fedTruth_;
    std::unique_ptr<app::MainWindow> window_;

    CompareController* compare() const { return window_->comparison(); }

    // Until the comparison is shown (or a minute passes).
    bool waitForComparison() {
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 120000) {
            QApplication::processEvents(QEventLoop::AllEvents, 20);
            if (!window_->lastError().isEmpty()) return false;
            if (compare()->result() && !compare()->computing() && !window_->loader()->isLoading())
                return true;
        }
        return false;
    }

    bool open(const QString& base, const QString& now) {
        window_->openComparison(base, now);
        return waitForComparison();
    }

    bool generate(const QString& out, const QStringList& extra) {
        QProcess p;
        p.start(test::python(),
                QStringList{test::sourceDir() + "/tests/tools/make_compare_pair.py", out} + extra);
        return p.waitForFinished(60000) && p.exitCode() == 0;
    }

    // Clicks the row of `name` in a table (making it current) and waits
    // until it is framed (its slices are found on a worker).
    bool pickRow(const char* table, const QString& name) {
        AnalysisTable* rows = compare()->panel()->table(QString::fromLatin1(table));
        for (int i = 0; i < rows->visibleRows(); ++i) {
            if (rows->visibleRow(i).cells[0].text != name) continue;
            QSignalSpy framed(compare(), &CompareController::framed);
            rows->view()->setCurrentIndex(rows->proxy()->index(i, 0));
            return framed.wait(30000);
        }
        return false;
    }
    bool pickKernel(const QString& name) { return pickRow("kernels", name); }

    // The panel's table of that id as the CLI's JSON rows would be.
    json panelRows(const char* id) const {
        const AnalysisTable* t = compare()->panel()->table(QString::fromLatin1(id));
        return t && t->model()->result() ? resultRowsJson(*t->model()->result()) : json();
    }

  private slots:
    void initTestCase() {
        GAPSCOPE_REQUIRE_PYTHON("python3 makes the compared runs");
        QSettings().clear();
        QVERIFY(dir_.isValid());
        base_ = dir_.filePath("base.json");
        slow_ = dir_.filePath("slow.json");
        // Nine steps: one median step per run.
        QVERIFY(generate(base_, {"--seed", "11", "--steps", "9"}));
        QVERIFY(generate(slow_, {"--seed", "12", "--steps", "9", "--slow", "gemm_kernel"}));
        // Kernels launched from CPU ops; relu_kernel renamed in the second.
        ops_ = dir_.filePath("ops.json");
        renamed_ = dir_.filePath("renamed.json");
        QVERIFY(generate(ops_, {"--seed", "21", "--steps", "9", "--with-ops"}));
        QVERIFY(generate(renamed_, {"--seed", "22", "--steps", "9", "--with-ops", "--rename-kernel",
                                    "relu_kernel=relu_kernel_v2"}));
        // Named ranges around the launches; the second run compiled.
        eager_ = dir_.filePath("eager.json");
        compiled_ = dir_.filePath("compiled.json");
        QVERIFY(generate(eager_, {"--seed", "23", "--steps", "9", "--with-ops", "--scoped"}));
        QVERIFY(generate(compiled_,
                         {"--seed", "24", "--steps", "9", "--with-ops", "--scoped", "--compiled"}));
        // No input wait: steps of 4.5 ms against the base's 12.5 ms.
        fed_ = dir_.filePath("fed.json");
        QVERIFY(generate(fed_, {"--seed", "25", "--steps", "9", "--no-input-wait"}));
        fedTruth_ = readJson(dir_.filePath("fed.truth.json"));
        baseTruth_ = readJson(dir_.filePath("base.truth.json"));
        slowTruth_ = readJson(dir_.filePath("slow.truth.json"));
        QCOMPARE(truthSteps(baseTruth_).size(), size_t(9));
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->disableCacheForSession();
        window_->resize(1600, 1000);
        window_->show();
    }

    void opensBaseAboveAndCandidateBelow() {
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        QCOMPARE(window_->tracePage()->trace()->path, base_.toStdString());
        TracePage* candidate = compare()->candidatePage();
        QVERIFY(candidate->isVisible());
        QCOMPARE(candidate->trace()->path, slow_.toStdString());
        QVERIFY(candidate->mapTo(window_.get(), QPoint()).y() >
                window_->tracePage()->mapTo(window_.get(), QPoint()).y());
        QVERIFY(compare()->dock()->isVisible());
        QVERIFY(window_->windowTitle().contains(QStringLiteral("base.json vs slow.json")));
        QVERIFY(window_->tracePage()->runLabel()->text().contains(QStringLiteral("Base")));
        QVERIFY(candidate->runLabel()->text().contains(QStringLiteral("New")));
        // The verdict names the planted change: the slower kernel.
        const QString verdict = compare()->panel()->verdict()->text();
        QVERIFY2(verdict.contains(QStringLiteral("gemm_kernel")), qPrintable(verdict));
    }

    void linesUpOnEachRunsMedianStep() {
        QVERIFY(compare()->result());
        const auto bs = truthSteps(baseTruth_), ns = truthSteps(slowTruth_);
        const int64_t baseAt = bs[medianIndex(bs)].start, newAt = ns[medianIndex(ns)].start;
        const TimeWindow top = window_->tracePage()->state()->visible();
        const TimeWindow below = compare()->candidatePage()->state()->visible();
        // One zoom: the same span, each run's median step at the same place.
        QCOMPARE(below.span(), top.span());
        QCOMPARE(below.start - top.start, newAt - baseAt);
        QCOMPARE(window_->tracePage()->ruler()->origin(), baseAt);
        QCOMPARE(compare()->candidatePage()->ruler()->origin(), newAt);
        // The median steps are in view, the longer of the two whole.
        QVERIFY(top.start <= baseAt);
        QVERIFY(top.end >=
                baseAt + std::max(bs[medianIndex(bs)].length(), ns[medianIndex(ns)].length()));
        // A zoom in the lower timeline moves the upper one with it.
        compare()->candidatePage()->state()->zoomAt(newAt, 0.5);
        const TimeWindow b2 = compare()->candidatePage()->state()->visible();
        const TimeWindow t2 = window_->tracePage()->state()->visible();
        QCOMPARE(t2.span(), b2.span());
        QCOMPARE(b2.start - t2.start, newAt - baseAt);
    }

    void linesUpOnAStepPickedInThePanel() {
        QComboBox* choice = compare()->panel()->alignChoice();
        QVERIFY(choice->isEnabled());
        QCOMPARE(choice->count(), 1 + 9);  // the median, then each step
        choice->setCurrentIndex(1 + 3);    // the fourth step of each
        const auto bs = truthSteps(baseTruth_), ns = truthSteps(slowTruth_);
        QCOMPARE(compare()->alignment().offset(), ns[3].start - bs[3].start);
        const TimeWindow top = window_->tracePage()->state()->visible();
        const TimeWindow below = compare()->candidatePage()->state()->visible();
        QCOMPARE(below.start - top.start, ns[3].start - bs[3].start);
        QVERIFY(top.start <= bs[3].start && top.end >= bs[3].end);
        choice->setCurrentIndex(0);
        QCOMPARE(compare()->alignment().offset(),
                 ns[medianIndex(ns)].start - bs[medianIndex(bs)].start);
    }

    void aKernelPickedIsFramedInBoth() {
        QVERIFY(pickKernel(QStringLiteral("gemm_kernel")));
        const std::pair<TracePage*, const json*> runs[] = {
            {window_->tracePage(), &baseTruth_}, {compare()->candidatePage(), &slowTruth_}};
        for (const auto& [page, truth] : runs) {
            const auto trace = page->trace();
            const uint32_t s = page->state()->selectedSlice();
            QVERIFY(s != kNone);
            QCOMPARE(trace->str(trace->slices[s].name), std::string_view("gemm_kernel"));
            const TimeWindow v = page->state()->visible();
            QVERIFY(v.start <= trace->slices[s].start && v.end >= trace->slices[s].end());
            // Every instance is highlighted (the search steps through them).
            QTRY_VERIFY(!page->search()->searching());
            QCOMPARE(page->search()->matchCount(),
                     (*truth)["kernels"]["gemm_kernel"]["count"].get<int>());
        }
        // Each the first at or after the step the runs are lined up on.
        const auto bs = truthSteps(baseTruth_);
        const auto base = window_->tracePage()->trace();
        const Slice& picked = base->slices[window_->tracePage()->state()->selectedSlice()];
        QVERIFY(picked.start >= bs[medianIndex(bs)].start &&
                picked.start < bs[medianIndex(bs)].end);
    }

    // A renamed kernel picked: framed in BASE under its old name.
    void aRenamedKernelIsFramedInBoth() {
        QVERIFY2(open(ops_, renamed_), qPrintable(window_->lastError()));
        QVERIFY(pickKernel(QStringLiteral("relu_kernel_v2")));
        const std::pair<TracePage*, const char*> pages[] = {
            {window_->tracePage(), "relu_kernel"}, {compare()->candidatePage(), "relu_kernel_v2"}};
        for (const auto& [page, name] : pages) {
            const uint32_t s = page->state()->selectedSlice();
            QVERIFY(s != kNone);
            QCOMPARE(page->trace()->str(page->trace()->slices[s].name), std::string_view(name));
        }
    }

    // A scope picked: its range framed in both, though none of its kernels
    // kept its name; the Scopes tab shows only where a run has one.
    void aScopePickedIsFramedInBoth() {
        QTabWidget* tabs = compare()->panel()->tabs();
        const int scopesTab = tabs->indexOf(compare()->panel()->table(QStringLiteral("scopes")));
        QVERIFY(!tabs->isTabVisible(scopesTab));  // the renamed pair has no named range
        QVERIFY2(open(eager_, compiled_), qPrintable(window_->lastError()));
        QVERIFY(tabs->isTabVisible(scopesTab));
        QVERIFY(pickRow("scopes", QStringLiteral("## mlp ##")));
        for (TracePage* page : {window_->tracePage(), compare()->candidatePage()}) {
            const uint32_t s = page->state()->selectedSlice();
            QVERIFY(s != kNone);
            QCOMPARE(page->trace()->str(page->trace()->slices[s].name),
                     std::string_view("## mlp ##"));
        }
    }

    // Runs of very different speed, each timeline fitted to its lined-up
    // step: the step's start and end at the same place in both, also after
    // zooming either; back to one scale, one span.
    void eachTimelineFittedToItsStep() {
        QVERIFY2(open(base_, fed_), qPrintable(window_->lastError()));
        const auto bs = truthSteps(baseTruth_), fs = truthSteps(fedTruth_);
        const TruthStep b = bs[medianIndex(bs)], f = fs[medianIndex(fs)];
        QVERIFY(b.length() > 2 * f.length());
        ViewState* top = window_->tracePage()->state();
        ViewState* below = compare()->candidatePage()->state();
        QComboBox* scale = compare()->panel()->scaleChoice();
        QCOMPARE(scale->currentIndex(), 0);
        scale->setCurrentIndex(1);
        QVERIFY(compare()->fitted());
        // Where a time is across its timeline (0 left, 1 right).
        auto at = [](TimeWindow w, int64_t t) { return double(t - w.start) / double(w.span()); };
        auto linedUp = [&](const char* when) {
            const TimeWindow u = top->visible(), d = below->visible();
            for (const auto& [bt, ft] : {std::pair{b.start, f.start}, std::pair{b.end, f.end}})
                QVERIFY2(
                    std::abs(at(u, bt) - at(d, ft)) < 1e-5,
                    qPrintable(
                        QStringLiteral("%1: %2 vs %3").arg(when).arg(at(u, bt)).arg(at(d, ft))));
        };
        // Each step fills its timeline (with the fit's margin).
        const TimeWindow u = top->visible(), d = below->visible();
        QVERIFY(u.start <= b.start && u.end >= b.end && u.span() < b.length() * 6 / 5);
        QVERIFY(d.start <= f.start && d.end >= f.end && d.span() < f.length() * 6 / 5);
        linedUp("fitted");
        below->zoomAt(f.start + f.length() / 3, 0.25);
        QVERIFY(below->visible().span() < d.span());
        linedUp("the lower zoomed in");
        top->panBy(b.length() / 10);
        linedUp("the upper scrolled");
        QVERIFY(window_->tracePage()->ruler()->note().contains(QStringLiteral("fitted")));
        scale->setCurrentIndex(0);
        QVERIFY(!compare()->fitted());
        QCOMPARE(below->visible().span(), top->visible().span());
        QCOMPARE(below->visible().start - top->visible().start, f.start - b.start);
    }

    // A kernel picked in runs of very different speed: each instance (the
    // first in the lined-up step) is framed whole and fills most of its
    // timeline, the two lined up on their starts; at one scale, and still
    // when the timelines are then fitted.
    void aKernelIsFramedWholeInRunsOfDifferentSpeed() {
        QVERIFY2(open(base_, fed_), qPrintable(window_->lastError()));
        const auto bs = truthSteps(baseTruth_), fs = truthSteps(fedTruth_);
        const TruthStep steps[] = {bs[medianIndex(bs)], fs[medianIndex(fs)]};
        QVERIFY(pickKernel(QStringLiteral("softmax_kernel")));
        for (const bool fitted : {false, true}) {
            compare()->setFitted(fitted);  // the framed pair stays lined up
            TracePage* pages[] = {window_->tracePage(), compare()->candidatePage()};
            double left[2] = {};
            for (int run = 0; run < 2; ++run) {
                const auto trace = pages[run]->trace();
                const uint32_t id = pages[run]->state()->selectedSlice();
                QVERIFY(id != kNone);
                const Slice& k = trace->slices[id];
                QCOMPARE(trace->str(k.name), std::string_view("softmax_kernel"));
                QVERIFY(k.start >= steps[run].start && k.start < steps[run].end);
                const TimeWindow v = pages[run]->state()->visible();
                QVERIFY(v.start <= k.start && v.end >= k.end());
                // 0.5 ms kernels of about the same length: each most of its view.
                QVERIFY2(double(k.dur) > 0.8 * double(v.span()),
                         qPrintable(QStringLiteral("fitted %1, run %2: %3 ns of %4 ns")
                                        .arg(fitted)
                                        .arg(run)
                                        .arg(k.dur)
                                        .arg(v.span())));
                left[run] = double(k.start - v.start) / double(v.span());
            }
            QVERIFY(std::abs(left[0] - left[1]) < 1e-5);
        }
        compare()->setFitted(false);
        QCOMPARE(compare()->panel()->scaleChoice()->currentIndex(), 0);
    }

    // On a laptop's width the verdict is the first tab, so the tables have
    // the panel's width and no name or number is cut; wide, it is beside them.
    void theVerdictIsATabOnALaptop() {
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        ComparePanel* panel = compare()->panel();
        QVERIFY(panel->verdictBesideTables());
        window_->resize(1366, 768);
        QTRY_VERIFY(!panel->verdictBesideTables());
        QTabWidget* tabs = panel->tabs();
        QCOMPARE(tabs->tabText(0), QStringLiteral("Verdict"));
        AnalysisTable* kernels = panel->table(QStringLiteral("kernels"));
        tabs->setCurrentWidget(kernels);
        QTRY_VERIFY(kernels->isVisible());
        QApplication::processEvents();  // the columns follow the width
        const QFontMetrics metrics(kernels->view()->font());
        for (int c = 0; c < kernels->model()->columnCount(); ++c) {
            if (kernels->view()->isColumnHidden(c)) continue;
            for (int r = 0; r < kernels->model()->rowCount(); ++r) {
                const QString text = kernels->model()->displayText(r, c);
                QVERIFY2(metrics.horizontalAdvance(text) < kernels->view()->columnWidth(c),
                         qPrintable(QStringLiteral("column %1 cuts '%2'").arg(c).arg(text)));
            }
        }
        window_->resize(1600, 1000);
        QTRY_VERIFY(panel->verdictBesideTables());
        QVERIFY(tabs->indexOf(panel->table(QStringLiteral("metrics"))) == 0);
    }

    // The link's line both ways, and held within reach where it is steep:
    // a zero-length slice fitted against a long one, on times of 1e18 ns.
    void theLinkMapsBothWaysAndStaysInRange() {
        ViewState first, second;
        ViewLink link(&first, &second);
        const TimeNs t0 = 1'700'000'000'000'000'000;
        link.link({t0, t0 + 1'000'000}, {t0 + 5'000, t0 + 5'000 + 100'000}, {t0, t0 + 5'000, 0.1});
        first.setVisible({t0 + 200'000, t0 + 400'000});
        QCOMPARE(second.visible(), TimeWindow({t0 + 5'000 + 20'000, t0 + 5'000 + 40'000}));
        second.setVisible({t0 + 5'000 + 50'000, t0 + 5'000 + 60'000});
        QCOMPARE(first.visible(), TimeWindow({t0 + 500'000, t0 + 600'000}));
        // A line of slope 1e12 is held at 1e6: the bounds stay ordered and finite.
        link.link({t0, t0 + 1'000'000'000}, {t0, t0 + 1}, {t0, t0, 1e12});
        QCOMPARE(link.mapping().scale, 1e6);
        QVERIFY(second.bounds().start < second.bounds().end);
        QVERIFY(second.bounds().end <= TimeNs(4e18) && second.bounds().start >= TimeNs(-4e18));
        first.setVisible({t0, t0 + 1000});
        QCOMPARE(second.visible().start, t0);
    }

    // What a person does while things load: a second comparison asked for
    // before the first opened wins; a candidate that cannot load leaves no
    // half comparison; a new gap threshold keeps the step chosen.
    void theLastAskedComparisonWins() {
        window_->openComparison(base_, slow_);
        window_->openComparison(slow_, base_);
        QVERIFY2(waitForComparison(), qPrintable(window_->lastError()));
        QCOMPARE(window_->tracePage()->trace()->path, slow_.toStdString());
        QCOMPARE(compare()->candidatePage()->trace()->path, base_.toStdString());
        window_->compareWith(dir_.filePath("missing.json"));
        QTRY_VERIFY_WITH_TIMEOUT(!window_->lastError().isEmpty(), 30000);
        QVERIFY2(window_->lastError().contains(QStringLiteral("missing.json")),
                 qPrintable(window_->lastError()));
        QVERIFY(!compare()->comparing());
        QVERIFY(!compare()->dock()->isVisible());
        QVERIFY(!compare()->candidatePage()->isVisible());
        // Its load ended: no progress or cancel button is left up.
        QVERIFY(window_->findChild<QProgressBar*>()->isHidden());
        // A comparison asked for while the base loads is with that base.
        window_->openTrace(slow_);
        QVERIFY(window_->loader()->isLoading());
        window_->compareWith(base_);
        QVERIFY2(waitForComparison(), qPrintable(window_->lastError()));
        QCOMPARE(window_->tracePage()->trace()->path, slow_.toStdString());
        QCOMPARE(compare()->candidatePage()->trace()->path, base_.toStdString());
    }

    void aNewGapThresholdKeepsTheStepChosen() {
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        compare()->panel()->alignChoice()->setCurrentIndex(1 + 3);
        const TimeNs offset = compare()->alignment().offset();
        compare()->setGapThreshold(200'000);
        QVERIFY(waitForComparison());
        QCOMPARE(compare()->panel()->alignChoice()->currentIndex(), 1 + 3);
        QCOMPARE(compare()->alignment().offset(), offset);
        compare()->setGapThreshold(kDefaultGapThresholdNs);
        QVERIFY(waitForComparison());
    }

    void panelEqualsTheGate_data() {
        QTest::addColumn<QString>("base");
        QTest::addColumn<QString>("now");
        QTest::newRow("planted slow kernel") << base_ << slow_;
        QTest::newRow("a kernel renamed") << ops_ << renamed_;
        QTest::newRow("compiled, in named ranges") << eager_ << compiled_;
        const QString hta = test::sharedTraces() + QStringLiteral("/hta/tests/data/trace_diff/");
        QTest::newRow("hta trace_diff, named ranges")
            << hta + "control/control.json.gz" << hta + "test/test.json.gz";
        const QString samples = test::sharedTraces() + QStringLiteral("/kineto/tb_plugin/samples/");
        QTest::newRow("resnet50 workers 0 vs 4")
            << samples + "resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz"
            << samples + "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz";
    }

    void panelEqualsTheGate() {
        QFETCH(QString, base);
        QFETCH(QString, now);
        const QByteArray tag(QTest::currentDataTag());
        if (tag.startsWith("resnet") || tag.startsWith("hta")) GAPSCOPE_REQUIRE_SHARED();
        QVERIFY2(open(base, now), qPrintable(window_->lastError()));
        const test::CliRun r = test::runCli({"diff", base, now, "--format", "json", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        const json cli = json::parse(r.out.toStdString());
        QCOMPARE(QString::fromStdString(compare()->result()->verdict()),
                 QString::fromStdString(cli["verdict"].get<std::string>()));
        // Every table the panel shows is the CLI's, row by row, to the ns:
        // one registered comparison behind both.
        for (const char* id : {"metrics", "gpus", "kernels", "ops", "scopes", "advice", "steps"})
            JSON_EQUAL(panelRows(id), cli[id]);
        // The figures read as the CLI's headline metrics: percentages as
        // shares, in the same order.
        const json figures = panelRows("metrics");
        QVERIFY(!figures.empty());
        for (const json& f : figures)
            if (f["metric"] == "gpu_busy" && !f["base"].is_null())
                QVERIFY(f["base"].get<double>() <= 1.0 && f["unit"] == "share");
        // The kernels' totals, summed, are the kernel_total figure's.
        int64_t totalNew = 0;
        for (const json& k : cli["kernels"])
            totalNew += k["total_new_ns"].get<int64_t>();
        for (const json& f : figures)
            if (f["metric"] == "kernel_total") QCOMPARE(f["new"].get<int64_t>(), totalNew);
        const json scopes = panelRows("scopes");
        if (tag.startsWith("compiled") || tag.startsWith("hta")) QVERIFY(!scopes.empty());
    }

    // Two jobs of four ranks (a straggler planted in each, make_rank_set.py):
    // the panel's Ranks and Stragglers tables are the CLI's, and show.
    void twoJobsShowEachRankAndTheStragglers() {
        GAPSCOPE_REQUIRE_SHARED();
        QString error;
        auto job = [&](const QString& name, const QString& straggler, const QString& shift) {
            const QString out = dir_.filePath(name);
            const QStringList files =
                test::makeRankSet(out,
                                  {"--ranks", "4", "--steps", "4", "--same-seed", "--straggler",
                                   straggler, "--shift-us", shift},
                                  &error);
            return files.isEmpty() ? QString() : out;
        };
        const QString base = job("job-base", "2", "1500"), now = job("job-new", "1", "500");
        QVERIFY2(!base.isEmpty() && !now.isEmpty(), qPrintable(error));
        QVERIFY2(open(base, now), qPrintable(window_->lastError()));
        QVERIFY(compare()->result()->jobs());
        QTabWidget* tabs = compare()->panel()->tabs();
        AnalysisTable* ranks = compare()->panel()->table(QStringLiteral("ranks"));
        QVERIFY(tabs->isTabVisible(tabs->indexOf(ranks)));
        const test::CliRun r = test::runCli({"diff", base, now, "--format", "json", "--no-cache"});
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const json cli = json::parse(r.out.toStdString());
        JSON_EQUAL(panelRows("ranks"), cli["ranks"]);
        JSON_EQUAL(panelRows("stragglers"), cli["stragglers"]);
        QCOMPARE(panelRows("ranks").size(), size_t(4));
        // Back to two single traces: the job tables go.
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        QVERIFY(!tabs->isTabVisible(tabs->indexOf(ranks)));
    }

    void tablesExportInEveryFormat() {
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        AnalysisTable* kernels = compare()->panel()->table(QStringLiteral("kernels"));
        const test::CliRun r =
            test::runCli({"diff", base_, slow_, "--format", "json", "--no-cache"});
        const json cli = json::parse(r.out.toStdString());
        json gemm;
        for (const json& k : cli["kernels"])
            if (k["name"] == "gemm_kernel") gemm = k;
        QVERIFY(!gemm.is_null());
        const std::string total = std::to_string(gemm["total_new_ns"].get<int64_t>());
        for (const char* ext : {"csv", "md", "html", "json"}) {
            const QString path = dir_.filePath(QStringLiteral("kernels.") + ext);
            QString error;
            QVERIFY2(kernels->exportTo(path, &error), qPrintable(error));
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            const QByteArray text = f.readAll();
            // (Markdown escapes the underscore.)
            QVERIFY2(text.contains("gemm_kernel") || text.contains("gemm\\_kernel"), ext);
            // The machine formats carry the exact ns.
            if (std::string(ext) == "csv" || std::string(ext) == "json")
                QVERIFY2(text.contains(QByteArray::fromStdString(total)), ext);
        }
        // An export never replaces either run, whatever name leads to it.
        QString error;
        QVERIFY(!kernels->exportTo(slow_, &error));
        const QString link = dir_.filePath("link-to-slow.csv");
        QVERIFY(QFile::link(slow_, link));
        QVERIFY(!kernels->exportTo(link, &error));
        QVERIFY2(error.contains(QStringLiteral("link-to-slow.csv")), qPrintable(error));
    }

    // The comparison report: both pictures, the verdict and the tables.
    void writesAComparisonReport() {
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        QString error;
        const QString html = dir_.filePath("compare.html");
        QVERIFY2(compare()->exportReport(html, &error), qPrintable(error));
        QFile h(html);
        QVERIFY(h.open(QIODevice::ReadOnly));
        const QString page = QString::fromUtf8(h.readAll());
        QCOMPARE(page.count(QStringLiteral("<img src=\"data:image/png;base64,")), 2);
        QVERIFY(page.contains(QStringLiteral("Gapscope comparison: base.json vs slow.json")));
        const QString verdict =
            QString::fromStdString(compare()->result()->verdict()).toHtmlEscaped();
        QVERIFY(page.contains(verdict.left(40)));
        QVERIFY(page.contains(QStringLiteral("Kernels, changed most")));
        QVERIFY(page.contains(QStringLiteral("gemm_kernel")));
        const QString md = dir_.filePath("compare.md");
        QVERIFY2(compare()->exportReport(md, &error), qPrintable(error));
        QVERIFY(QFileInfo::exists(md + ".png") && QFileInfo::exists(md + ".2.png"));
        QVERIFY2(compare()->exportReport(dir_.filePath("compare.pdf"), &error), qPrintable(error));
        QVERIFY(QFileInfo(dir_.filePath("compare.pdf")).size() > 1000);
        // Never over a compared run, whatever name leads to it.
        const QString link = dir_.filePath("link-to-slow.html");
        QVERIFY(QFile::link(slow_, link));
        QVERIFY(!compare()->exportReport(link, &error));
        QVERIFY2(error.contains(QStringLiteral("compared run")), qPrintable(error));
        QVERIFY(!compare()->exportReport(dir_.filePath("compare.txt"), &error));
    }

    void swapsAndCloses() {
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        emit compare()->panel()->swapRequested();
        QVERIFY(waitForComparison());
        QCOMPARE(window_->tracePage()->trace()->path, slow_.toStdString());
        QCOMPARE(compare()->candidatePage()->trace()->path, base_.toStdString());
        emit compare()->panel()->closeRequested();
        QVERIFY(!compare()->comparing());
        QVERIFY(!compare()->candidatePage()->isVisible());
        QVERIFY(!compare()->dock()->isVisible());
        QVERIFY(window_->tracePage()->runLabel()->isHidden());
        QCOMPARE(window_->tracePage()->ruler()->origin(), window_->tracePage()->trace()->spanStart);
        // Another trace opened the ordinary way ends a comparison too.
        QVERIFY2(open(base_, slow_), qPrintable(window_->lastError()));
        window_->openTrace(base_);
        window_->loader()->wait();
        QApplication::processEvents();
        QVERIFY(!compare()->comparing());
    }
};

GAPSCOPE_TEST_MAIN(TestCompare)
#include "tst_compare.moc"
