// ViewState (widgets/timeline/view_state.h): one signal per real change and
// none for no-op sets, the back/forward history (recorded jumps, coalesced
// gestures, forward cleared by a new navigation), reset, and the selected
// range kept normalised.

#include <QSignalSpy>
#include <QTest>

#include "support/suite_main.h"
#include "timeline/view_state.h"

using namespace gapscope;
using namespace gapscope::ui;
using History = ViewState::History;

namespace {

constexpr TimeWindow kBounds{1'000'000, 11'000'000};  // 10 ms

struct Spies {
    explicit Spies(ViewState& s)
        : visible(&s, &ViewState::visibleChanged),
          range(&s, &ViewState::selectedRangeChanged),
          slice(&s, &ViewState::selectedSliceChanged),
          history(&s, &ViewState::historyChanged) {}
    void clear() {
        visible.clear();
        range.clear();
        slice.clear();
        history.clear();
    }
    QSignalSpy visible, range, slice, history;
};

}  // namespace

namespace gapscope::ui {
inline char* toString(const TimeWindow& w) {
    return QTest::toString(QStringLiteral("[%1, %2]").arg(w.start).arg(w.end));
}
}  // namespace gapscope::ui

class TestViewState : public QObject {
    Q_OBJECT
  private slots:
    void resetFitsAllAndSignalsOnce() {
        ViewState s;
        Spies spy(s);
        s.reset(kBounds);
        QCOMPARE(s.bounds(), kBounds);
        QCOMPARE(s.visible(), kBounds);
        QCOMPARE(spy.visible.count(), 1);
        QCOMPARE(spy.visible.at(0).at(0).value<TimeWindow>(), kBounds);
        QCOMPARE(spy.range.count(), 1);
        QCOMPARE(spy.slice.count(), 1);
        QCOMPARE(spy.history.count(), 1);
    }

    // Several selected slices: the first stays primary; taking it out
    // promotes the next; a plain selection drops the others.
    void severalSlicesSelected() {
        ViewState v;
        v.reset({0, 1000});
        QSignalSpy changed(&v, &ViewState::selectedSliceChanged);
        v.toggleSliceInSelection(5);
        v.toggleSliceInSelection(7);
        v.toggleSliceInSelection(9);
        QCOMPARE(v.selectedSlices(), (std::vector<uint32_t>{5, 7, 9}));
        v.toggleSliceInSelection(7);
        QCOMPARE(v.selectedSlices(), (std::vector<uint32_t>{5, 9}));
        v.toggleSliceInSelection(5);
        QCOMPARE(v.selectedSlice(), 9u);
        QCOMPARE(v.selectedSlices(), std::vector<uint32_t>{9});
        v.toggleSliceInSelection(3);
        v.setSelectedSlice(9);  // same primary, but the others go
        QCOMPARE(v.selectedSlices(), std::vector<uint32_t>{9});
        QCOMPARE(changed.count(), 7);  // one per change above
        v.toggleSliceInSelection(9);
        QVERIFY(v.selectedSlices().empty());
    }

    void resetOfAnEmptyTraceKeepsAMinimalSpan() {
        ViewState s;
        s.reset({500, 500});
        QCOMPARE(s.visible().span(), ViewState::kMinSpan);
        QCOMPARE(s.visible().start, TimeNs(500));
    }

    void setVisibleSignalsOnlyRealChanges() {
        ViewState s;
        s.reset(kBounds);
        Spies spy(s);
        const TimeWindow w{2'000'000, 3'000'000};
        s.setVisible(w);
        QCOMPARE(spy.visible.count(), 1);
        QCOMPARE(spy.visible.at(0).at(0).value<TimeWindow>(), w);
        s.setVisible(w);
        QCOMPARE(spy.visible.count(), 1);
        s.setVisible(w, History::Record);
        QCOMPARE(spy.visible.count(), 1);
        // A window that clamps to the current one is no change either.
        s.setVisible(kBounds, History::Record);
        QCOMPARE(spy.visible.count(), 2);
        s.setVisible({0, 50'000'000}, History::Record);
        QCOMPARE(spy.visible.count(), 2);
        QCOMPARE(spy.range.count(), 0);
        QCOMPARE(spy.slice.count(), 0);
    }

    void setVisibleClampsToBoundsAndMinSpan() {
        ViewState s;
        s.reset(kBounds);
        s.setVisible({kBounds.end - 1000, kBounds.end + 5000});
        QCOMPARE(s.visible().end, kBounds.end);
        QCOMPARE(s.visible().span(), TimeNs(6000));
        s.setVisible({2'000'000, 2'000'010});
        QCOMPARE(s.visible(), (TimeWindow{2'000'000, 2'000'000 + ViewState::kMinSpan}));
    }

    // Wider bounds (a comparison reaching the other run's span): the window,
    // selection and history stay; narrower ones clamp the window, once.
    void setBoundsKeepsTheViewWhereItFits() {
        ViewState s;
        s.reset(kBounds);
        s.setVisible({2'000'000, 3'000'000}, History::Record);
        s.setSelectedSlice(7);
        Spies spy(s);
        s.setBounds({0, 20'000'000});
        QCOMPARE(s.bounds(), (TimeWindow{0, 20'000'000}));
        QCOMPARE(s.visible(), (TimeWindow{2'000'000, 3'000'000}));
        QCOMPARE(spy.visible.count(), 0);
        QCOMPARE(s.selectedSlice(), uint32_t{7});
        QVERIFY(s.canGoBack());
        // Scrolling past the old end is allowed now.
        s.setVisible({15'000'000, 16'000'000}, History::None);
        QCOMPARE(s.visible(), (TimeWindow{15'000'000, 16'000'000}));
        s.setBounds(kBounds);
        QCOMPARE(spy.visible.count(), 2);
        QVERIFY(s.visible().end <= kBounds.end && s.visible().span() == 1'000'000);
        QCOMPARE(spy.history.count(), 0);
    }

    void zoomPanAndFit() {
        ViewState s;
        s.reset(kBounds);
        const TimeNs mid = (kBounds.start + kBounds.end) / 2;
        s.zoomAt(mid, 0.5);
        QCOMPARE(s.visible(), (TimeWindow{3'500'000, 8'500'000}));
        s.panBy(1'000'000);
        QCOMPARE(s.visible(), (TimeWindow{4'500'000, 9'500'000}));
        s.panBy(100'000'000);  // stops at the end
        QCOMPARE(s.visible(), (TimeWindow{6'000'000, 11'000'000}));
        s.fit({2'000'000, 4'000'000});  // a 5 % margin either side
        QCOMPARE(s.visible(), (TimeWindow{1'900'000, 4'100'000}));
        s.fitAll();
        QCOMPARE(s.visible(), kBounds);
    }

    void selectedSliceSignalsOnlyRealChanges() {
        ViewState s;
        s.reset(kBounds);
        Spies spy(s);
        s.setSelectedSlice(kNone);
        QCOMPARE(spy.slice.count(), 0);
        s.setSelectedSlice(42);
        QCOMPARE(spy.slice.count(), 1);
        QCOMPARE(spy.slice.at(0).at(0).toUInt(), 42u);
        s.setSelectedSlice(42);
        QCOMPARE(spy.slice.count(), 1);
        s.setSelectedSlice(kNone);
        QCOMPARE(spy.slice.count(), 2);
        QCOMPARE(s.selectedSlice(), kNone);
        QCOMPARE(spy.visible.count() + spy.range.count() + spy.history.count(), 0);
    }

    void selectedRangeIsNormalisedAndSignalsOnlyRealChanges() {
        ViewState s;
        s.reset(kBounds);
        Spies spy(s);
        s.setSelectedRange(std::nullopt);
        QCOMPARE(spy.range.count(), 0);
        s.setSelectedRange(TimeWindow{5'000'000, 3'000'000});  // dragged right to left
        QCOMPARE(spy.range.count(), 1);
        QVERIFY(s.selectedRange());
        QCOMPARE(*s.selectedRange(), (TimeWindow{3'000'000, 5'000'000}));
        QVERIFY(s.selectedRange()->start <= s.selectedRange()->end);
        s.setSelectedRange(TimeWindow{3'000'000, 5'000'000});  // the same range, normalised
        QCOMPARE(spy.range.count(), 1);
        s.setSelectedRange(TimeWindow{3'000'000, 6'000'000});
        QCOMPARE(spy.range.count(), 2);
        s.setSelectedRange(std::nullopt);
        QCOMPARE(spy.range.count(), 3);
        QVERIFY(!s.selectedRange());
        QCOMPARE(spy.visible.count() + spy.slice.count() + spy.history.count(), 0);
    }

    void recordedJumpsGoBackAndForward() {
        ViewState s;
        s.reset(kBounds);
        Spies spy(s);
        const TimeWindow a{2'000'000, 4'000'000}, b{6'000'000, 6'500'000};
        QVERIFY(!s.canGoBack());
        s.setVisible(a, History::Record);
        s.setVisible(b, History::Record);
        QCOMPARE(spy.history.count(), 2);
        QVERIFY(s.canGoBack());
        QVERIFY(!s.canGoForward());

        spy.clear();
        s.goBack();
        QCOMPARE(s.visible(), a);
        QCOMPARE(spy.visible.count(), 1);
        QCOMPARE(spy.history.count(), 1);
        QVERIFY(s.canGoForward());
        s.goBack();
        QCOMPARE(s.visible(), kBounds);
        QVERIFY(!s.canGoBack());
        s.goBack();  // nothing left: no change, no signal
        QCOMPARE(s.visible(), kBounds);
        QCOMPARE(spy.visible.count(), 2);
        QCOMPARE(spy.history.count(), 2);

        s.goForward();
        QCOMPARE(s.visible(), a);
        s.goForward();
        QCOMPARE(s.visible(), b);
        QVERIFY(!s.canGoForward());
        s.goForward();
        QCOMPARE(s.visible(), b);
        QCOMPARE(spy.visible.count(), 4);
    }

    void noneIsNotRecorded() {
        ViewState s;
        s.reset(kBounds);
        QSignalSpy history(&s, &ViewState::historyChanged);
        s.setVisible({2'000'000, 3'000'000}, History::None);
        QVERIFY(!s.canGoBack());
        QCOMPARE(history.count(), 0);
    }

    void newNavigationClearsForward_data() {
        QTest::addColumn<int>("how");
        QTest::newRow("recorded jump") << int(History::Record);
        QTest::newRow("coalesced gesture") << int(History::Coalesce);
    }
    void newNavigationClearsForward() {
        QFETCH(int, how);
        ViewState s;
        s.reset(kBounds);
        const TimeWindow a{2'000'000, 4'000'000}, b{6'000'000, 6'500'000}, c{8'000'000, 9'000'000};
        // Quick keyboard zooms, then Back, then another quick zoom: all
        // inside one gesture's time, as a user pressing keys would.
        qint64 now = 0;
        s.setClock([&] { return now; });
        s.setVisible(a, History::Coalesce);
        s.setVisible(b, History::Coalesce);
        s.goBack();
        QCOMPARE(s.visible(), kBounds);
        QVERIFY(s.canGoForward());
        s.setVisible(c, static_cast<History>(how));
        QVERIFY2(!s.canGoForward(), "a new navigation after Back must drop the forward entries");
        s.goForward();
        QCOMPARE(s.visible(), c);
        s.goBack();
        QCOMPARE(s.visible(), kBounds);  // where the new navigation started
    }

    // Coalesced changes within kGestureGapMs of each other are one gesture;
    // a pause longer than that starts the next one. Both sides of the
    // window, on an injected clock (no reliance on how fast the test runs).
    void gestureWindowOnBothSides_data() {
        QTest::addColumn<qint64>("pauseMs");
        QTest::addColumn<int>("entries");
        QTest::newRow("no pause") << qint64(0) << 1;
        QTest::newRow("just inside") << ViewState::kGestureGapMs - 1 << 1;
        QTest::newRow("at the window") << ViewState::kGestureGapMs << 1;
        QTest::newRow("just outside") << ViewState::kGestureGapMs + 1 << 2;
        QTest::newRow("long pause") << qint64(60'000) << 2;
    }
    void gestureWindowOnBothSides() {
        QFETCH(qint64, pauseMs);
        QFETCH(int, entries);
        qint64 now = 1'000'000;
        ViewState s;
        s.setClock([&] { return now; });
        s.reset(kBounds);
        QSignalSpy history(&s, &ViewState::historyChanged);
        auto burst = [&] {  // three steps 10 ms apart, ending at `now`
            for (int i = 0; i < 3; ++i) {
                if (i) now += 10;
                s.zoomAt(5'000'000, 0.9);
            }
        };
        burst();
        const TimeWindow afterFirst = s.visible();
        now += pauseMs;  // from the last step of one burst to the first of the next
        burst();
        QCOMPARE(history.count(), entries);
        s.goBack();
        QCOMPARE(s.visible(), entries == 1 ? kBounds : afterFirst);
    }

    // However slow each step, steps closer than the window stay one gesture.
    void slowButSteadyGestureIsOneEntry() {
        qint64 now = 0;
        ViewState s;
        s.setClock([&] { return now; });
        s.reset(kBounds);
        for (int i = 0; i < 20; ++i) {
            s.panBy(10'000);
            now += ViewState::kGestureGapMs;  // 14 s in all
        }
        s.goBack();
        QCOMPARE(s.visible(), kBounds);
        QVERIFY(!s.canGoBack());
    }

    void coalescedBurstIsOneEntry() {
        qint64 now = 0;
        ViewState s;
        s.setClock([&] { return now; });
        s.reset(kBounds);
        QSignalSpy history(&s, &ViewState::historyChanged);
        QSignalSpy visible(&s, &ViewState::visibleChanged);
        // A wheel gesture: many small steps in quick succession.
        for (int i = 1; i <= 12; ++i)
            s.zoomAt(5'000'000, 0.9);
        QCOMPARE(visible.count(), 12);
        QCOMPARE(history.count(), 1);
        const TimeWindow zoomed = s.visible();
        s.goBack();
        QCOMPARE(s.visible(), kBounds);
        QVERIFY(!s.canGoBack());
        s.goForward();
        QCOMPARE(s.visible(), zoomed);
    }

    void recordedJumpSplitsGestures() {
        qint64 now = 0;
        ViewState s;
        s.setClock([&] { return now; });
        s.reset(kBounds);
        for (int i = 0; i < 5; ++i)
            s.zoomAt(6'000'000, 0.8);
        const TimeWindow first = s.visible();
        const TimeWindow jump{2'000'000, 2'500'000};
        s.setVisible(jump, History::Record);
        for (int i = 0; i < 5; ++i)
            s.zoomAt(2'200'000, 0.8);
        s.goBack();
        QCOMPARE(s.visible(), jump);
        s.goBack();
        QCOMPARE(s.visible(), first);
        s.goBack();
        QCOMPARE(s.visible(), kBounds);
        QVERIFY(!s.canGoBack());
    }

    void resetClearsSelectionAndHistory() {
        ViewState s;
        s.reset(kBounds);
        s.setVisible({2'000'000, 4'000'000}, History::Record);
        s.setVisible({2'500'000, 3'000'000}, History::Record);
        s.goBack();
        s.setSelectedSlice(7);
        s.setSelectedRange(TimeWindow{2'000'000, 2'100'000});
        QVERIFY(s.canGoBack() && s.canGoForward());

        const TimeWindow other{50, 90'000};
        s.reset(other);
        QCOMPARE(s.bounds(), other);
        QCOMPARE(s.visible(), other);
        QVERIFY(!s.canGoBack());
        QVERIFY(!s.canGoForward());
        QCOMPARE(s.selectedSlice(), kNone);
        QVERIFY(!s.selectedRange());
    }

    // The first gesture on a new trace is an entry of its own, even right
    // after a gesture on the previous one.
    void firstGestureAfterResetIsRecorded() {
        qint64 now = 0;
        ViewState s;
        s.setClock([&] { return now; });
        s.reset(kBounds);
        for (int i = 0; i < 3; ++i)
            s.zoomAt(3'000'000, 0.5);
        const TimeWindow other{50, 90'000};
        s.reset(other);
        s.zoomAt(40'000, 0.5);
        QVERIFY(s.canGoBack());
        s.goBack();
        QCOMPARE(s.visible(), other);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestViewState)
#include "tst_view_state.moc"
