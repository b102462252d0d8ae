// The timeline in the real main window, driven like a user would (offscreen):
// the bundled sample replaces the welcome page; W/S zoom, A/D pan, Ctrl+wheel
// zooms at the cursor, the wheel scrolls, 0 fits all; clicking a slice shows
// it in Details, double-click fits it; search steps through matches; Shift+drag
// selects a range; Back/Forward restore windows. Files that are not traces
// leave the window usable; a truncated trace opens with its report.

#include <zlib.h>

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QComboBox>
#include <QDir>
#include <QDockWidget>
#include <QFileDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QRadioButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QStatusBar>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QToolButton>
#include <QWheelEvent>
#include <functional>
#include <map>
#include <memory>

#include "export/export_files.h"
#include "export/image_export.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "panels/analysis_table.h"
#include "panels/details_panel.h"
#include "picture/gap_colours.h"
#include "search/search_bar.h"
#include "search/search_results.h"
#include "support/cli_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/key_bindings.h"
#include "timeline/overview_strip.h"
#include "timeline/time_ruler.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace gapscope::ui {
inline char* toString(const TimeWindow& w) {
    return QTest::toString(QStringLiteral("[%1, %2]").arg(w.start).arg(w.end));
}
}  // namespace gapscope::ui

namespace {

QByteArray gunzip(const QString& path) {
    QByteArray out;
    gzFile f = gzopen(QFile::encodeName(path).constData(), "rb");
    if (!f) return out;
    char buffer[1 << 16];
    int n = 0;
    while ((n = gzread(f, buffer, sizeof buffer)) > 0)
        out.append(buffer, n);
    gzclose(f);
    return out;
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

QString sliceName(const Trace& t, uint32_t slice) {
    const std::string_view name = t.str(t.slices[slice].name);
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

}  // namespace

class TestTimelineWidget : public QObject {
    Q_OBJECT

    std::unique_ptr<app::MainWindow> window_;
    QTemporaryDir cacheHome_;  // the index cache of this test run

    TracePage* page() const { return window_->tracePage(); }
    ViewState* state() const { return page()->state(); }
    TimelineView* view() const { return page()->timeline(); }
    const Trace& trace() const { return *page()->trace(); }
    QScrollBar* vbar() const { return view()->findChild<QScrollBar*>(); }
    QWidget* currentPage() const {
        QWidget* shown = qobject_cast<QStackedWidget*>(window_->centralWidget())->currentWidget();
        // The trace page sits in a splitter (a comparison's candidate below it).
        if (auto* pages = qobject_cast<QSplitter*>(shown)) return pages->widget(0);
        return shown;
    }
    QAction* action(const QString& text) const {
        for (QAction* a : window_->findChildren<QAction*>())
            if (a->text() == text) return a;
        return nullptr;
    }

    void open(const QString& path) {
        window_->openTrace(path);
        window_->loader()->wait();
        QApplication::processEvents();
    }

    // Widget x of time t, and the time at widget x.
    double xOf(TimeNs t) const { return TimelineView::kGutterWidth + view()->axis().toX(t); }
    TimeNs timeAt(double x) const { return view()->axis().toTime(x - TimelineView::kGutterWidth); }
    int trackAreaWidth() const { return static_cast<int>(view()->axis().width()); }

    // The visible part of a slice's on-screen extent, [x0, x1) in widget x.
    std::pair<double, double> extentOf(uint32_t slice) const {
        const Slice& s = trace().slices[slice];
        const TimeWindow w = state()->visible();
        return {xOf(std::max(s.start, w.start)), xOf(std::min(s.end(), w.end))};
    }

    // The centre of a slice on screen, from the layout and the axis alone.
    QPoint centreOf(uint32_t slice) const {
        const auto [x0, x1] = extentOf(slice);
        const int y = view()->layout().yOfSlice(slice) - vbar()->value();
        return {static_cast<int>(std::lround((x0 + x1) / 2)), y + TimelineLayout::kRowHeight / 2};
    }

    // The first slice whose row is on screen and whose visible part is
    // between minPx and maxPx wide.
    uint32_t findSlice(double minPx, double maxPx, const QString& name = {}) const {
        const Trace& t = trace();
        for (uint32_t i = 0; i < t.slices.size(); ++i) {
            if (!name.isEmpty() && sliceName(t, i) != name) continue;
            const int y = view()->layout().yOfSlice(i);
            if (y < 0) continue;
            const int top = y - vbar()->value();
            if (top < 0 || top + TimelineLayout::kRowHeight > view()->height()) continue;
            const Slice& s = t.slices[i];
            const TimeWindow w = state()->visible();
            if (s.end() <= w.start || s.start >= w.end) continue;
            const auto [x0, x1] = extentOf(i);
            if (x1 - x0 >= minPx && x1 - x0 <= maxPx) return i;
        }
        return kNone;
    }

    void wheel(QPoint pos, QPoint angleDelta, Qt::KeyboardModifiers modifiers) {
        QWheelEvent e(pos, view()->mapToGlobal(pos), QPoint(), angleDelta, Qt::NoButton, modifiers,
                      Qt::NoScrollPhase, false);
        QApplication::sendEvent(view(), &e);
    }

    // Zooms to the middle quarter of the trace, as a recorded jump.
    void zoomToMiddle() {
        const TimeWindow b = state()->bounds();
        const TimeNs q = b.span() / 8;
        state()->setVisible({b.start + 3 * q, b.end - 3 * q}, ViewState::History::Record);
    }

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QCoreApplication::setOrganizationName(QStringLiteral("GapscopeTests"));
        QCoreApplication::setApplicationName(QStringLiteral("tst_timeline_widget"));
        QSettings().clear();  // no geometry, recent files or threshold from earlier runs
        qputenv("XDG_CACHE_HOME", cacheHome_.path().toLocal8Bit());
        window_ = std::make_unique<app::MainWindow>();
        window_->setInteractive(false);
        window_->resize(1400, 700);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }

    void cleanupTestCase() { window_.reset(); }

    // Each test starts from the whole trace, nothing selected, no history.
    void init() {
        if (!page()->trace()) return;
        page()->setTrace(page()->trace());
        page()->search()->setQuery({}, false);
        window_->details()->clear();
        QApplication::processEvents();
    }

    void openingTheSampleShowsTheTracePage() {
        QVERIFY(currentPage() != page());
        open(test::samplePath());
        QVERIFY2(page()->trace(), qPrintable(window_->lastError()));
        QVERIFY(window_->lastError().isEmpty());
        QCOMPARE(currentPage(), page());
        QVERIFY(view()->isVisible());
        QVERIFY(!trace().slices.empty());
        QCOMPARE(state()->visible(), state()->bounds());
        QCOMPARE(state()->bounds().start, trace().spanStart);
        QVERIFY(window_->windowTitle().contains("h200_cnn_dataloader"));
        QVERIFY(view()->slicesInView() > 0);
    }

    void keysZoom() {
        const TimeWindow all = state()->visible();
        QTest::keyClick(view(), Qt::Key_W);
        const TimeWindow in = state()->visible();
        QVERIFY(in.span() < all.span());
        QVERIFY(std::abs(static_cast<double>(in.span()) - 0.8 * static_cast<double>(all.span())) <=
                2.0);
        QVERIFY(in.start >= all.start && in.end <= all.end);
        QTest::keyClick(view(), Qt::Key_W, Qt::ShiftModifier);  // faster
        const TimeWindow in2 = state()->visible();
        QVERIFY(std::abs(static_cast<double>(in2.span()) - 0.5 * static_cast<double>(in.span())) <=
                2.0);
        QTest::keyClick(view(), Qt::Key_S);
        QVERIFY(state()->visible().span() > in2.span());
        QVERIFY(std::abs(static_cast<double>(state()->visible().span()) -
                         1.25 * static_cast<double>(in2.span())) <= 2.0);
        // Zooming out stops at the whole trace.
        for (int i = 0; i < 20; ++i)
            QTest::keyClick(view(), Qt::Key_S, Qt::ShiftModifier);
        QCOMPARE(state()->visible(), state()->bounds());
    }

    void keysPan() {
        zoomToMiddle();
        const TimeWindow w = state()->visible();
        QTest::keyClick(view(), Qt::Key_D);
        QCOMPARE(state()->visible(), (TimeWindow{w.start + w.span() / 8, w.end + w.span() / 8}));
        QTest::keyClick(view(), Qt::Key_A);
        QCOMPARE(state()->visible(), w);
        QTest::keyClick(view(), Qt::Key_A, Qt::ShiftModifier);
        QCOMPARE(state()->visible(), (TimeWindow{w.start - w.span() / 2, w.end - w.span() / 2}));
        // Panning stops at the trace's start, keeping the span.
        for (int i = 0; i < 10; ++i)
            QTest::keyClick(view(), Qt::Key_A, Qt::ShiftModifier);
        QCOMPARE(state()->visible().start, state()->bounds().start);
        QCOMPARE(state()->visible().span(), w.span());
    }

    void zeroFitsAll() {
        zoomToMiddle();
        QTest::keyClick(view(), Qt::Key_W);
        QVERIFY(state()->visible() != state()->bounds());
        QTest::keyClick(view(), Qt::Key_0);
        QCOMPARE(state()->visible(), state()->bounds());
    }

    void ctrlWheelZoomsAtTheCursor_data() {
        QTest::addColumn<double>("fraction");  // of the track area, from the left
        QTest::newRow("left") << 0.1;
        QTest::newRow("middle") << 0.5;
        QTest::newRow("right") << 0.85;
    }
    void ctrlWheelZoomsAtTheCursor() {
        QFETCH(double, fraction);
        zoomToMiddle();
        const QPoint pos(TimelineView::kGutterWidth + static_cast<int>(fraction * trackAreaWidth()),
                         view()->height() / 2);
        const TimeNs under = timeAt(pos.x());
        const TimeNs before = state()->visible().span();
        wheel(pos, {0, 120}, Qt::ControlModifier);
        QVERIFY(state()->visible().span() < before);
        QVERIFY2(std::abs(xOf(under) - pos.x()) <= 2.0, qPrintable(QString::number(xOf(under))));
        wheel(pos, {0, 120}, Qt::ControlModifier);
        wheel(pos, {0, -360}, Qt::ControlModifier);
        QVERIFY(state()->visible().span() > before);
        QVERIFY2(std::abs(xOf(under) - pos.x()) <= 2.0, qPrintable(QString::number(xOf(under))));
    }

    void wheelScrollsRowsNotTime() {
        QVERIFY2(vbar()->maximum() > 0, "the sample's rows should not fit in the view");
        const TimeWindow w = state()->visible();
        QCOMPARE(vbar()->value(), 0);
        wheel({TimelineView::kGutterWidth + 100, 100}, {0, -120}, Qt::NoModifier);
        QVERIFY(vbar()->value() > 0);
        QCOMPARE(state()->visible(), w);
        const int scrolled = vbar()->value();
        wheel({TimelineView::kGutterWidth + 100, 100}, {0, 120}, Qt::NoModifier);
        QVERIFY(vbar()->value() < scrolled);
        QCOMPARE(state()->visible(), w);
        // Shift+wheel pans in time instead, keeping the span.
        zoomToMiddle();
        const TimeWindow middle = state()->visible();
        wheel({TimelineView::kGutterWidth + 100, 100}, {0, -120}, Qt::ShiftModifier);
        QVERIFY(state()->visible().start > middle.start);
        QCOMPARE(state()->visible().span(), middle.span());
    }

    void dragPans() {
        zoomToMiddle();
        const TimeWindow w = state()->visible();
        const QPoint from(TimelineView::kGutterWidth + trackAreaWidth() * 3 / 5, 60);
        const QPoint to = from - QPoint(200, 0);
        const TimeNs grabbed = timeAt(from.x());
        QTest::mousePress(view(), Qt::LeftButton, {}, from);
        QTest::mouseMove(view(), from - QPoint(100, 0));
        QTest::mouseMove(view(), to);
        QTest::mouseRelease(view(), Qt::LeftButton, {}, to);
        QCOMPARE(state()->visible().span(), w.span());
        QVERIFY(state()->visible().start > w.start);
        QVERIFY(std::abs(xOf(grabbed) - to.x()) <= 1.0);  // the grabbed time follows the cursor
        QCOMPARE(state()->selectedSlice(), kNone);
        QVERIFY(!state()->selectedRange());
    }

    void clickSelectsASlice() {
        const uint32_t slice = findSlice(12, 1e9);
        QVERIFY2(slice != kNone, "no slice wide enough to click at fit-all");
        const QPoint at = centreOf(slice);
        QCOMPARE(view()->sliceAt(at), slice);
        QTest::mouseClick(view(), Qt::LeftButton, {}, at);
        QCOMPARE(state()->selectedSlice(), slice);
        const QString details = window_->details()->plainText();
        QVERIFY2(details.contains(sliceName(trace(), slice)), qPrintable(details));
        QVERIFY(details.contains("Duration"));
        // Esc clears the selection, and Details with it.
        QTest::keyClick(view(), Qt::Key_Escape);
        QCOMPARE(state()->selectedSlice(), kNone);
        QVERIFY(window_->details()->plainText().isEmpty());
    }

    // The arrow keys walk a row and its nesting; M marks the selected
    // slice's span and unmarks it. The expected slices come from the
    // model's rows, scanned here.
    void arrowKeysWalkAndMMarks() {
        const Trace& t = trace();
        uint32_t from = kNone, parent = kNone;
        for (const Track& tr : t.tracks) {
            for (const Row& row : tr.rows) {
                if (row.depth == 0 || row.end - row.begin < 2) continue;
                const Slice& s = t.slices[row.begin];
                for (const Row& up : tr.rows) {
                    if (up.lane != row.lane || up.depth + 1 != row.depth) continue;
                    for (uint32_t i = up.begin; i < up.end; ++i)
                        if (t.slices[i].start <= s.start && t.slices[i].end() >= s.end())
                            parent = i;
                }
                if (parent != kNone) {
                    from = row.begin;
                    break;
                }
            }
            if (from != kNone) break;
        }
        QVERIFY2(from != kNone, "the sample has a nested row of two slices or more");
        state()->setSelectedSlice(from);
        view()->setFocus();
        QTest::keyClick(view(), Qt::Key_Right);
        QCOMPARE(state()->selectedSlice(), from + 1);
        QTest::keyClick(view(), Qt::Key_Left);
        QCOMPARE(state()->selectedSlice(), from);
        QTest::keyClick(view(), Qt::Key_Left);  // the row's first: it stays
        QCOMPARE(state()->selectedSlice(), from);
        QTest::keyClick(view(), Qt::Key_Up);
        QCOMPARE(state()->selectedSlice(), parent);
        const TimeWindow visible = state()->visible();
        QTest::keyClick(view(), Qt::Key_M);
        const Slice& p = t.slices[parent];
        QCOMPARE(state()->selectedRange(), std::optional<TimeWindow>(TimeWindow{p.start, p.end()}));
        QCOMPARE(state()->visible(), visible);  // marking does not move the view
        QTest::keyClick(view(), Qt::Key_M);
        QVERIFY(!state()->selectedRange());
        QCOMPARE(state()->selectedSlice(), parent);
        // `?` opens the keyboard sheet, made from the list of bindings.
        QTest::keyClick(view(), Qt::Key_Question);
        auto* sheet = window_->findChild<QMessageBox*>(QStringLiteral("keyboardSheet"));
        QVERIFY(sheet && sheet->isVisible() && !sheet->isModal());
        for (const ui::KeyBinding& k : ui::kKeyBindings)
            QVERIFY2(sheet->text().contains(QString::fromUtf8(k.keys).toHtmlEscaped()), k.keys);
        // It has the keyboard, and Esc closes it.
        QTRY_VERIFY(sheet->isActiveWindow());
        QTest::keyClick(QApplication::focusWidget(), Qt::Key_Escape);
        QTRY_VERIFY(!sheet->isVisible());
    }

    // A launch's flow leads from Details to its kernel, and the kernel's
    // back to the launch.
    void flowsAreFollowedFromDetails() {
        const Trace& t = trace();
        uint32_t launch = kNone, kernel = kNone;
        for (const Flow& f : t.flows) {
            if (f.from >= t.slices.size() || f.to >= t.slices.size()) continue;
            launch = f.from;
            kernel = f.to;
            break;
        }
        QVERIFY2(launch != kNone, "the sample has launch flows");
        state()->setSelectedSlice(launch);
        QApplication::processEvents();
        const QString name = sliceName(t, kernel), from = sliceName(t, launch);
        QVERIFY2(window_->details()->plainText().contains("→ " + name.left(20)),
                 qPrintable(window_->details()->plainText()));
        emit window_->details()->sliceActivated(kernel);
        QApplication::processEvents();
        QCOMPARE(state()->selectedSlice(), kernel);
        QVERIFY2(window_->details()->plainText().contains("← " + from.left(20)),
                 qPrintable(window_->details()->plainText()));
        emit window_->details()->sliceActivated(launch);
        QCOMPARE(state()->selectedSlice(), launch);
    }

    // Ctrl+click adds a slice to the selection and takes it out again;
    // Details sums the selected slices.
    void ctrlClickSelectsSeveral() {
        const uint32_t a = findSlice(12, 1e9);
        QVERIFY(a != kNone);
        uint32_t b = kNone;
        const Trace& t = trace();
        for (uint32_t i = a + 1; i < t.slices.size() && b == kNone; ++i) {
            const int y = view()->layout().yOfSlice(i);
            const auto [x0, x1] = extentOf(i);
            if (y >= vbar()->value() && y - vbar()->value() + 20 < view()->height() &&
                x1 - x0 >= 12 && view()->sliceAt(centreOf(i)) == i)
                b = i;
        }
        QVERIFY2(b != kNone, "a second slice wide enough to click");
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(a));
        QTest::mouseClick(view(), Qt::LeftButton, Qt::ControlModifier, centreOf(b));
        QCOMPARE(state()->selectedSlices(), (std::vector<uint32_t>{a, b}));
        QCOMPARE(state()->selectedSlice(), a);
        // Summed on the Details panel's worker.
        QTRY_VERIFY_WITH_TIMEOUT(window_->details()->plainText().contains("2 slices"), 10000);
        const QString details = window_->details()->plainText();
        const TimeNs total = t.slices[a].dur + t.slices[b].dur;
        QVERIFY2(details.contains(formatDuration(total, 1)), qPrintable(details));
        QTest::mouseClick(view(), Qt::LeftButton, Qt::ControlModifier, centreOf(b));
        QCOMPARE(state()->selectedSlices(), std::vector<uint32_t>{a});
        QVERIFY(window_->details()->plainText().contains("Duration"));
        // A plain click selects one again.
        QTest::mouseClick(view(), Qt::LeftButton, Qt::ControlModifier, centreOf(b));
        QTest::mouseClick(view(), Qt::LeftButton, {}, centreOf(b));
        QCOMPARE(state()->selectedSlices(), std::vector<uint32_t>{b});
    }

    void clickOnEmptySpaceClearsTheSelection() {
        state()->setSelectedSlice(0);
        // Below the last row there is nothing to hit.
        vbar()->setValue(vbar()->maximum());
        const QPoint empty(TimelineView::kGutterWidth + 50,
                           view()->layout().totalHeight() - vbar()->value() + 5);
        QVERIFY(empty.y() < view()->height());
        QTest::mouseClick(view(), Qt::LeftButton, {}, empty);
        QCOMPARE(state()->selectedSlice(), kNone);
    }

    void doubleClickFitsASlice() {
        // Wide enough to hit, narrow enough that fitting it is a real zoom.
        const uint32_t slice = findSlice(10, trackAreaWidth() / 5.0);
        QVERIFY(slice != kNone);
        const Slice s = trace().slices[slice];
        const QPoint at = centreOf(slice);
        QTest::mouseClick(view(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(view(), Qt::LeftButton, {}, at);
        QTest::mouseRelease(view(), Qt::LeftButton, {}, at);
        QCOMPARE(state()->selectedSlice(), slice);
        const TimeWindow v = state()->visible();
        QVERIFY(v.start <= s.start && v.end >= s.end());
        const TimeNs margin = std::max<TimeNs>(s.dur / 20, ViewState::kMinSpan / 2);
        QVERIFY2(v.span() <= std::max(s.dur + 2 * margin, ViewState::kMinSpan),
                 qPrintable(QString("%1 for a slice of %2").arg(v.span()).arg(s.dur)));
        QVERIFY(state()->canGoBack());
        // F fits the selection again after zooming away.
        QTest::keyClick(view(), Qt::Key_0);
        QTest::keyClick(view(), Qt::Key_F);
        QCOMPARE(state()->visible(), v);
    }

    void searchStepsThroughMatches() {
        SearchBar* search = page()->search();
        QSignalSpy activated(search, &SearchBar::matchActivated);
        search->setQuery(QStringLiteral("cudaLaunchKernel"), false);
        QVERIFY(search->searching());  // on a worker
        QTRY_VERIFY(!search->searching());
        const int n = search->matchCount();
        QVERIFY(n > 1);
        QCOMPARE(search->currentIndex(), -1);

        std::vector<uint32_t> seen;
        for (int expected : {0, 1, 2}) {
            search->next();
            QCOMPARE(search->currentIndex(), expected);
            QCOMPARE(activated.count(), expected + 1);
            const auto slice = activated.last().at(0).value<uint32_t>();
            seen.push_back(slice);
            QCOMPARE(state()->selectedSlice(), slice);
            QVERIFY(sliceName(trace(), slice).contains("cudaLaunchKernel"));
            // Brought into view, in time and vertically.
            const Slice& s = trace().slices[slice];
            QVERIFY(s.start >= state()->visible().start && s.end() <= state()->visible().end);
            const int top = view()->layout().yOfSlice(slice) - vbar()->value();
            QVERIFY(top >= 0 && top + TimelineLayout::kRowHeight <= view()->height());
            QVERIFY(window_->details()->plainText().contains("cudaLaunchKernel"));
        }
        // Matches come in time order.
        QVERIFY(trace().slices[seen[0]].start <= trace().slices[seen[1]].start);
        QVERIFY(trace().slices[seen[1]].start <= trace().slices[seen[2]].start);

        search->previous();
        QCOMPARE(search->currentIndex(), 1);
        QCOMPARE(state()->selectedSlice(), seen[1]);
        search->previous();
        search->previous();  // wraps to the last match
        QCOMPARE(search->currentIndex(), n - 1);
        search->next();  // and back to the first
        QCOMPARE(search->currentIndex(), 0);
        QCOMPARE(state()->selectedSlice(), seen[0]);

        // The List button lists every match (name, track, start, duration)
        // in the Search Results dock; a row frames and selects its slice.
        auto* list = search->findChild<QToolButton*>(QStringLiteral("searchList"));
        QVERIFY(list);
        list->click();
        auto* dock = window_->findChild<QDockWidget*>(QStringLiteral("searchDock"));
        QVERIFY(dock && dock->isVisible());
        auto* results = window_->findChild<ui::SearchResults*>(QStringLiteral("searchResults"));
        QVERIFY(results);
        ui::AnalysisTable* table = results->table();
        QCOMPARE(table->visibleRows(), n);
        QCOMPARE(results->headerText(),
                 QStringLiteral("%L1 slices named “cudaLaunchKernel”.").arg(n));
        const int name = table->model()->column("name");
        const int duration = table->model()->column("duration_ns");
        QVERIFY(name >= 0 && duration >= 0);
        // Sorted by duration, longest first: the first row is the longest match.
        table->view()->sortByColumn(duration, Qt::DescendingOrder);
        uint32_t longest = search->matches().front();
        for (const uint32_t m : search->matches())
            if (trace().slices[m].dur > trace().slices[longest].dur) longest = m;
        table->view()->setCurrentIndex(table->proxy()->index(0, name));
        QCOMPARE(trace().slices[state()->selectedSlice()].dur, trace().slices[longest].dur);
        QVERIFY(sliceName(trace(), state()->selectedSlice()).contains("cudaLaunchKernel"));
        const Slice& chosen = trace().slices[state()->selectedSlice()];
        QVERIFY(chosen.start >= state()->visible().start && chosen.end() <= state()->visible().end);

        search->setQuery(QStringLiteral("no such kernel name anywhere"), false);
        QTRY_VERIFY(!search->searching());
        QCOMPARE(search->matchCount(), 0);
        QCOMPARE(table->visibleRows(), 0);  // the list follows the search
        search->next();
        QCOMPARE(search->currentIndex(), -1);
        dock->hide();
    }

    void shiftDragSelectsARange_data() {
        QTest::addColumn<double>("from");  // fractions of the track area
        QTest::addColumn<double>("to");
        QTest::newRow("left to right") << 0.25 << 0.6;
        QTest::newRow("right to left") << 0.7 << 0.4;
    }
    void shiftDragSelectsARange() {
        QFETCH(double, from);
        QFETCH(double, to);
        const TimeWindow w = state()->visible();
        const int y = 40;
        const QPoint a(TimelineView::kGutterWidth + static_cast<int>(from * trackAreaWidth()), y);
        const QPoint b(TimelineView::kGutterWidth + static_cast<int>(to * trackAreaWidth()), y);
        QTest::mousePress(view(), Qt::LeftButton, Qt::ShiftModifier, a);
        QTest::mouseMove(view(), (a + b) / 2);
        QTest::mouseMove(view(), b);
        QTest::mouseRelease(view(), Qt::LeftButton, Qt::ShiftModifier, b);

        const auto range = state()->selectedRange();
        QVERIFY(range);
        QVERIFY(range->start < range->end);
        const double left = std::min(a.x(), b.x()), right = std::max(a.x(), b.x());
        QVERIFY(std::abs(xOf(range->start) - left) <= 1.0);
        QVERIFY(std::abs(xOf(range->end) - right) <= 1.0);
        QCOMPARE(state()->visible(), w);  // selecting does not pan
        // The summary is computed off the GUI thread: it arrives shortly,
        // for the final range.
        QTRY_VERIFY_WITH_TIMEOUT(!window_->details()->summarising(), 10000);
        const QString details = window_->details()->plainText();
        QVERIFY2(details.contains("Range " + formatDuration(range->span(), 1)),
                 qPrintable(details));
        // F fits the range.
        QTest::keyClick(view(), Qt::Key_F);
        QVERIFY(state()->visible().start <= range->start && state()->visible().end >= range->end);
        QVERIFY(state()->visible().span() < w.span());
    }

    // A repaint with nothing changed copies the last frame (Qt repaints the
    // whole window when a dock changes); anything the frame shows draws anew.
    void repaintsReuseTheLastFrameUntilItChanges() {
        zoomToMiddle();
        const QImage first = view()->grab().toImage();
        const uint64_t drawn = view()->framesDrawn();
        const QImage again = view()->grab().toImage();
        QCOMPARE(view()->framesDrawn(), drawn);
        QCOMPARE(again, first);
        // The copy is what a fresh draw gives (same font, same pixels).
        view()->setSearchNames({});
        QCOMPARE(view()->grab().toImage(), first);
        QCOMPARE(view()->framesDrawn(), drawn + 1);

        const auto redraws = [&](const char* what, const std::function<void()>& change) {
            const QImage before = view()->grab().toImage();
            const uint64_t n = view()->framesDrawn();
            change();
            const QImage after = view()->grab().toImage();
            QVERIFY2(view()->framesDrawn() == n + 1, what);
            QVERIFY2(after != before, what);
        };
        uint32_t slice = kNone;  // one in view
        for (const Track& track : trace().tracks) {
            for (const Row& row : track.rows) {
                const auto [lo, hi] =
                    trace().visibleInRow(row, state()->visible().start, state()->visible().end);
                if (lo < hi && slice == kNone) slice = lo;
            }
        }
        QVERIFY(slice != kNone);
        redraws("pan", [&] { QTest::keyClick(view(), Qt::Key_D); });
        redraws("selection", [&] { state()->setSelectedSlice(slice); });
        redraws("range", [&] {
            const TimeWindow w = state()->visible();
            state()->setSelectedRange(TimeWindow{w.start + w.span() / 4, w.start + w.span() / 2});
        });
        redraws("scroll", [&] { vbar()->setValue(vbar()->value() + 40); });
        redraws("gap threshold", [&] { view()->setGapThreshold(view()->gapThreshold() * 100); });
        redraws("size", [&] { view()->resize(view()->width() - 50, view()->height()); });
        std::vector<uint8_t> all(trace().strings.size(), 1);
        redraws("search", [&] { view()->setSearchNames(all); });
        view()->setGapThreshold(kDefaultGapThresholdNs);
        window_->resize(1400, 700);
        QApplication::processEvents();
    }

    // On screen, frames are drawn by a worker and the GUI thread only copies
    // them; the worker's frame is the one the GUI thread would draw.
    void onScreenFramesAreDrawnOffTheGuiThread() {
        zoomToMiddle();
        QTest::keyClick(view(), Qt::Key_D);
        const uint64_t offThread = view()->framesDrawnOffThread();
        view()->repaint();  // into the window's backing store
        QTRY_VERIFY(view()->frameIsCurrent());
        const uint64_t shownOffThread = view()->framesDrawnOffThread();
        QVERIFY(shownOffThread > offThread);  // (an older request's frame may come first)
        const uint64_t drawn = view()->framesDrawn();
        const QImage fromWorker = view()->grab().toImage();
        QCOMPARE(view()->framesDrawn(), drawn);  // a copy of the worker's frame
        view()->setSearchNames({});              // the same picture, drawn again here
        QCOMPARE(view()->grab().toImage(), fromWorker);
        QCOMPARE(view()->framesDrawn(), drawn + 1);
        QCOMPARE(view()->framesDrawnOffThread(), shownOffThread);
    }

    // The overview strip's utilisation bins (the busy union of the whole
    // trace) come from a worker on screen; they are the ones grab() computes
    // at once.
    void overviewStripBinsComeFromAWorker() {
        OverviewStrip* strip = page()->overview();
        const uint64_t before = strip->lanesFromWorker();
        window_->resize(window_->width() - 37, window_->height());  // a new width
        QApplication::processEvents();
        strip->repaint();  // into the window's backing store
        QTRY_VERIFY(strip->lanesCurrent());
        QVERIFY(strip->lanesFromWorker() > before);
        const QImage fromWorker = strip->grab().toImage();
        strip->setTrace(page()->trace());  // forgets the lanes
        QVERIFY(!strip->lanesCurrent());
        QCOMPARE(strip->grab().toImage(), fromWorker);  // computed here, at once
        QVERIFY(strip->lanesCurrent());
        window_->resize(1400, 700);
        QApplication::processEvents();
    }

    // File > Export Image draws what `gapscope-cli render` draws: the same
    // range, tracks and width give the same pixels (and the same SVG text).
    void exportImageIsTheCliPicture() {
        // The causes' colours, as the panels give them after a load (init()
        // gave the page the trace again, which forgets them).
        GapOptions o;
        o.minGapNs = view()->gapThreshold();
        view()->setGapCauseColors(ui::gapCauseColours(trace(), o, false));
        QVERIFY(!view()->gapCauseColors().empty());
        const TimeWindow b = state()->bounds();
        const TimeWindow range{b.start + b.span() / 5, b.end - b.span() / 5};
        state()->setSelectedRange(range);
        ui::ImageExport::Choice choice;
        choice.range = ui::ImageExport::Choice::Range::Selection;
        choice.tracks = QStringLiteral("gpu");
        choice.width = 1200;
        QTemporaryDir dir;
        const QString fromViewer = dir.filePath("viewer.png"), fromCli = dir.filePath("cli.png");
        QString error;
        QVERIFY2(window_->images()->exportTo(fromViewer, choice, &error), qPrintable(error));
        const test::CliRun run = test::runCli(
            {"render", test::samplePath(), "--out", fromCli, "--tracks", "gpu", "--width", "1200",
             "--range", QStringLiteral("%1:%2").arg(range.start).arg(range.end), "--no-cache"});
        QVERIFY2(run.exitCode == 0, run.err.constData());
        const QImage a(fromViewer), b2(fromCli);
        QCOMPARE(a.size(), b2.size());
        QCOMPARE(a.convertToFormat(QImage::Format_RGB32), b2.convertToFormat(QImage::Format_RGB32));
        choice.range = ui::ImageExport::Choice::Range::Visible;
        QVERIFY(!window_->images()->exportTo(dir.filePath("x.jpg"), choice, &error));
        QVERIFY(error.contains(".png or .svg"));
        QVERIFY(!QFile::exists(dir.filePath("x.jpg")));
        state()->setSelectedRange(std::nullopt);
    }

    // Edit > Copy Image puts the visible window's picture on the clipboard,
    // and File > Export Image's dialog writes what was chosen in it: both
    // the CLI's picture of the same range, tracks and width.
    void copyImageAndTheExportDialog() {
        GapOptions o;
        o.minGapNs = view()->gapThreshold();
        view()->setGapCauseColors(ui::gapCauseColours(trace(), o, false));
        window_->images()->setAnnotations({});
        QTemporaryDir dir;
        auto cliPicture = [&](TimeWindow range, const QString& tracks, int width) {
            const QString out = dir.filePath(QStringLiteral("cli-%1.png").arg(width));
            const test::CliRun run =
                test::runCli({"render", test::samplePath(), "--out", out, "--tracks", tracks,
                              "--width", QString::number(width), "--range",
                              QStringLiteral("%1:%2").arg(range.start).arg(range.end), "--no-cache",
                              "--no-annotations"});
            return run.exitCode == 0 ? QImage(out).convertToFormat(QImage::Format_RGB32) : QImage();
        };
        QSignalSpy finished(window_->images(), &ui::ImageExport::finished);
        window_->images()->copyAction()->trigger();
        QCOMPARE(finished.count(), 1);
        const QImage copied =
            QApplication::clipboard()->image().convertToFormat(QImage::Format_RGB32);
        QVERIFY(!copied.isNull());
        QCOMPARE(copied, cliPicture(state()->visible(), "all", view()->width()));

        // The dialog: the whole trace, GPU tracks, 900 px; then the file dialog.
        const QString path = dir.filePath("dialog.png");
        bool sawDialog = false, sawFiles = false;
        std::function<void()> drive = [&] {
            QWidget* modal = QApplication::activeModalWidget();
            if (auto* files = qobject_cast<QFileDialog*>(modal)) {
                sawFiles = true;
                files->selectFile(path);
                // selectFile() leaves the name alone while its edit has the
                // focus (as a person typing would): type it there too.
                if (auto* name = files->findChild<QLineEdit*>(QStringLiteral("fileNameEdit")))
                    name->setText(path);
                QMetaObject::invokeMethod(files, "accept");  // protected in QFileDialog
                return;
            }
            if (auto* dialog = qobject_cast<QDialog*>(modal); dialog && !sawDialog) {
                sawDialog = true;
                for (QRadioButton* r : dialog->findChildren<QRadioButton*>())
                    if (r->text() == QStringLiteral("The whole trace")) r->setChecked(true);
                auto* tracks = dialog->findChild<QComboBox*>();
                tracks->setCurrentIndex(tracks->findData(QStringLiteral("gpu")));
                dialog->findChild<QSpinBox*>()->setValue(900);
                dialog->accept();
            }
            QTimer::singleShot(20, drive);
        };
        QTimer::singleShot(20, drive);
        window_->images()->exportAction()->trigger();
        QVERIFY(sawDialog && sawFiles);
        QTRY_COMPARE_WITH_TIMEOUT(finished.count(), 2, 20000);  // drawn on a worker
        QCOMPARE(finished.last().first().toString(), QStringLiteral("Exported %1").arg(path));
        const QImage exported(path);
        QCOMPARE(exported.width(), 900);
        QCOMPARE(exported.convertToFormat(QImage::Format_RGB32),
                 cliPicture(state()->bounds(), "gpu", 900));
        // The next save dialog, of any export, opens where this one saved.
        QCOMPARE(ui::suggestedSavePath(QStringLiteral("kernels.csv")),
                 QDir(QFileInfo(path).absolutePath()).filePath(QStringLiteral("kernels.csv")));
    }

    // The ruler counts from the trace's start, or, as a person picks in its
    // context menu, from the start of the step under the pointer, the
    // selection's start or the point itself; the status bar's cursor time
    // counts as the ruler does.
    void theRulerCountsFromAChosenOrigin() {
        const Trace& t = trace();
        ui::TimeRuler* ruler = page()->ruler();
        QCOMPARE(ruler->origin(), t.spanStart);
        const Slice* step3 = nullptr;
        for (const Slice& s : t.slices)
            if (t.str(s.name) == "ProfilerStep#3") step3 = &s;
        QVERIFY(step3);
        const TimeNs inside = step3->start + step3->dur / 2;
        auto choice = [&](const QString& text) -> std::optional<TimeNs> {
            for (const auto& [label, origin] : ruler->originChoices(inside))
                if (label == text) return origin;
            return std::nullopt;
        };
        const QString fromStep = QStringLiteral("Count Time from the Start of Step 3");
        QTRY_VERIFY(choice(fromStep));  // once the index has the steps
        QCOMPARE(*choice(fromStep), step3->start);
        QCOMPARE(*choice(QStringLiteral("Count Time from Here")), inside);
        QVERIFY(!choice(QStringLiteral("Count Time from the Selection's Start")));
        QSignalSpy changed(ruler, &ui::TimeRuler::originChanged);
        ruler->setCountFrom(*choice(fromStep));
        QCOMPARE(ruler->origin(), step3->start);
        QCOMPARE(changed.count(), 1);
        state()->setSelectedRange(TimeWindow{step3->start + 1000, step3->start + 5000});
        QCOMPARE(*choice(QStringLiteral("Count Time from the Selection's Start")),
                 step3->start + 1000);
        // The cursor's time in the status bar is counted from the step's start.
        const QList<QLabel*> cursor = window_->statusBar()->findChildren<QLabel*>();
        QVERIFY(!cursor.isEmpty());
        emit view()->hoverTimeChanged(step3->start + 2'000'000, true);
        bool shown = false;
        for (const QLabel* l : cursor)
            shown |= l->text() == QStringLiteral("cursor 2.000000 ms");
        QVERIFY(shown);
        // The trace's start puts it back.
        ruler->setCountFrom(*choice(QStringLiteral("Count Time from the Trace's Start")));
        QCOMPARE(ruler->origin(), t.spanStart);
    }

    // A kernel's label on the timeline is its short name, as the tables
    // show it (Nsight's way); a copy and a CPU op keep their whole names.
    void kernelLabelsAreTheirShortNames() {
        const Trace& t = trace();
        ui::NameColors names;
        names.reset(&t, false);
        std::map<std::string, QString> label;
        for (uint32_t i = 0; i < t.slices.size(); ++i) {
            const Slice& s = t.slices[i];
            label.emplace(std::string(t.str(s.name)),
                          ui::sliceLabel(t, names, t.tracks[t.trackOfSlice(i)], s));
        }
        const std::pair<const char*, const char*> expected[] = {
            {"void cudnn::bn_bw_1C11_kernel_new<float, float, float2, 512, true, 1>(float, "
             "float, float, float, cudnnTensorStruct, float const*, cudnnTensorStruct, float "
             "const*, cudnnTensorStruct, float*, float const*, float*, float*, float const*, "
             "float const*, float)",
             "cudnn::bn_bw_1C11_kernel_new"},
            {"Memcpy HtoD (Pinned -> Device)", "Memcpy HtoD (Pinned -> Device)"},
            {"enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
             "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__"}};
        for (const auto& [name, shown] : expected) {
            QVERIFY2(label.count(name), name);
            QCOMPARE(label.at(name), QString::fromUtf8(shown));
        }
    }

    void backAndForwardRestoreWindows() {
        QAction* back = action(QStringLiteral("&Back"));
        QAction* forward = action(QStringLiteral("&Forward"));
        QVERIFY(back && forward);
        QVERIFY(!back->isEnabled());
        const TimeWindow all = state()->visible();
        QTest::keyClick(view(), Qt::Key_W);
        QTest::keyClick(view(), Qt::Key_W);  // one gesture: one entry
        const TimeWindow zoomed = state()->visible();
        const uint32_t slice = findSlice(10, trackAreaWidth() / 5.0);
        QVERIFY(slice != kNone);
        QTest::mouseDClick(view(), Qt::LeftButton, {}, centreOf(slice));
        QTest::mouseRelease(view(), Qt::LeftButton, {}, centreOf(slice));
        const TimeWindow fitted = state()->visible();
        QVERIFY(fitted != zoomed);
        QVERIFY(back->isEnabled());
        QVERIFY(!forward->isEnabled());

        back->trigger();
        QCOMPARE(state()->visible(), zoomed);
        QVERIFY(forward->isEnabled());
        back->trigger();
        QCOMPARE(state()->visible(), all);
        QVERIFY(!back->isEnabled());
        forward->trigger();
        QCOMPARE(state()->visible(), zoomed);
        forward->trigger();
        QCOMPARE(state()->visible(), fitted);
        QVERIFY(!forward->isEnabled());

        // A new navigation after Back drops the forward entries.
        back->trigger();
        QTest::keyClick(view(), Qt::Key_D);
        QVERIFY(!forward->isEnabled());
        back->trigger();
        QCOMPARE(state()->visible(), zoomed);
    }

    void openingANonTraceKeepsTheWindowUsable_data() {
        QTest::addColumn<QString>("fileName");
        QTest::addColumn<QByteArray>("bytes");  // empty with a name ending "missing": no file
        QTest::newRow("binary garbage")
            << "garbage.bin"
            << QByteArray::fromHex("7f454c4602010100fffe0000") + QByteArray(" not a trace");
        QTest::newRow("text") << "notes.json" << QByteArray("hello, this is not JSON at all\n");
        QTest::newRow("missing file") << "missing" << QByteArray();
    }
    void openingANonTraceKeepsTheWindowUsable() {
        QFETCH(QString, fileName);
        QFETCH(QByteArray, bytes);
        const auto before = page()->trace();
        const QString beforePath = window_->currentPath();
        QTemporaryDir dir;
        const QString path = dir.filePath(fileName);
        if (!bytes.isEmpty()) QVERIFY(writeFile(path, bytes));

        open(path);
        QVERIFY2(window_->lastError().contains(fileName), qPrintable(window_->lastError()));
        // The trace that was open stays open and works.
        QCOMPARE(page()->trace(), before);
        QCOMPARE(window_->currentPath(), beforePath);
        QCOMPARE(currentPage(), page());
        QVERIFY(!window_->loader()->isLoading());
        const TimeNs span = state()->visible().span();
        QTest::keyClick(view(), Qt::Key_W);
        QVERIFY(state()->visible().span() < span);
        // And the next good file opens, clearing the error.
        open(test::samplePath());
        QVERIFY(window_->lastError().isEmpty());
        QVERIFY(page()->trace() && page()->trace() != before);
    }

    void reopeningAnUnchangedTraceUsesTheIndexCache() {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("copy.pt.trace.json.gz"));
        QVERIFY(QFile::copy(test::samplePath(), path));
        QSignalSpy written(window_->loader(), &TraceLoader::cacheWritten);
        open(path);
        QVERIFY(!trace().fromCache);
        window_->loader()->waitForCacheWrite();
        QCOMPARE(written.size(), 1);
        QCOMPARE(written.at(0).at(1).toString(), QString());  // no error
        const size_t slices = trace().slices.size();

        open(path);
        QVERIFY(trace().fromCache);
        QCOMPARE(trace().slices.size(), slices);
        QVERIFY2(window_->statusBar()->currentMessage().contains("index cache"),
                 qPrintable(window_->statusBar()->currentMessage()));
        QVERIFY(view()->slicesInView() > 0);

        // Settings → Use the Index Cache, off: parsed again.
        QAction* use = action(QStringLiteral("Use the &Index Cache"));
        QVERIFY(use && use->isChecked());
        use->setChecked(false);
        open(path);
        QVERIFY(!trace().fromCache);
        use->setChecked(true);
    }

    void truncatedTraceOpensWithItsReport() {
        const QByteArray full = gunzip(test::samplePath());
        QVERIFY(full.size() > 100000);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("cut.pt.trace.json"));
        QVERIFY(writeFile(path, full.left(full.size() / 2)));
        const uint64_t fullEvents = trace().report.events;

        open(path);
        QVERIFY2(page()->trace(), qPrintable(window_->lastError()));
        QVERIFY(window_->lastError().isEmpty());
        QCOMPARE(currentPage(), page());
        QVERIFY(trace().report.truncated);
        QVERIFY(trace().report.events > 0 && trace().report.events < fullEvents);
        QVERIFY(!trace().slices.empty());
        // The page says so.
        bool banner = false;
        for (const QLabel* label : page()->findChildren<QLabel*>())
            banner |= label->isVisible() && label->text().contains("read only in part");
        QVERIFY(banner);
        QVERIFY(view()->slicesInView() > 0);
    }
};

GAPSCOPE_TEST_MAIN(TestTimelineWidget)
#include "tst_timeline_widget.moc"
