// The timeline's coordinate maths (widgets/timeline/time_axis.h), row by
// row across zoom levels from a few nanoseconds to tens of seconds wide and
// widths from 1 to 4000 pixels: time <-> pixel, ruler ticks, labels, zoom,
// pan and clamping.

#include <QTest>
#include <cmath>

#include "support/suite_main.h"
#include "timeline/time_axis.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

constexpr qint64 kEpoch = 1'700'000'000'123'456'789;  // a Kineto-style absolute start (ns)

// The step before `step` in the 1, 2, 5 x 10^k sequence (0 for 1 ns).
TimeNs previousStep(TimeNs step) {
    TimeNs mantissa = step, scale = 1;
    while (mantissa % 10 == 0) {
        mantissa /= 10;
        scale *= 10;
    }
    if (mantissa == 1) return scale / 2;  // 10^k -> 5 x 10^(k-1); 1 -> 0
    return (mantissa == 2 ? 1 : 2) * scale;
}

bool isOneTwoFive(TimeNs step) {
    if (step <= 0) return false;
    while (step % 10 == 0)
        step /= 10;
    return step == 1 || step == 2 || step == 5;
}

// The zoom levels every geometric property is checked at.
void addZoomLevels() {
    QTest::addColumn<qint64>("start");
    QTest::addColumn<qint64>("span");
    QTest::addColumn<double>("width");
    const struct {
        const char* name;
        qint64 span;
    } spans[] = {{"7 ns", 7},           {"250 ns", 250},          {"13 us", 13'000},
                 {"3.3 ms", 3'300'000}, {"1.7 s", 1'700'000'000}, {"40 s", 40'000'000'000}};
    for (const auto& s : spans) {
        for (double width : {1.0, 37.0, 800.0, 1920.0, 4000.0}) {
            QTest::addRow("%s over %g px from 0", s.name, width) << qint64(0) << s.span << width;
            QTest::addRow("%s over %g px from epoch", s.name, width) << kEpoch << s.span << width;
        }
    }
}

}  // namespace

class TestTimeAxis : public QObject {
    Q_OBJECT
  private slots:
    void roundTrip_data() { addZoomLevels(); }
    void roundTrip() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(double, width);
        const TimeAxis axis({start, start + span}, width);
        QCOMPARE(axis.toX(start), 0.0);
        QVERIFY(std::abs(axis.toX(start + span) - width) < 1e-6);
        // time -> x -> time lands within half a pixel of where it started.
        for (int i = 0; i <= 16; ++i) {
            const TimeNs t = start + span * i / 16;
            const double x = axis.toX(t);
            QVERIFY2(std::abs(axis.toX(axis.toTime(x)) - x) <= 0.5,
                     qPrintable(QString("t=%1 x=%2 back=%3").arg(t).arg(x).arg(axis.toTime(x))));
        }
        // x -> time -> x: within half a pixel, or half a nanosecond when one
        // nanosecond covers more than a pixel.
        const double slack = std::max(0.5, 0.5 * axis.pixelsPerNs()) + 1e-9;
        for (int i = 0; i <= 16; ++i) {
            const double x = width * i / 16;
            QVERIFY2(std::abs(axis.toX(axis.toTime(x)) - x) <= slack,
                     qPrintable(QString("x=%1 t=%2").arg(x).arg(axis.toTime(x))));
        }
    }

    void tickStepIsOneTwoFive_data() { addZoomLevels(); }
    void tickStepIsOneTwoFive() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(double, width);
        const TimeAxis axis({start, start + span}, width);
        for (double minSpacing : {6.0, 40.0, 80.0, 150.0}) {
            const TimeNs step = tickStep(axis, minSpacing);
            QVERIFY2(isOneTwoFive(step), qPrintable(QString::number(step)));
            // Far enough apart, and the smallest such step.
            QVERIFY(static_cast<double>(step) * axis.pixelsPerNs() >= minSpacing - 1e-9);
            const TimeNs smaller = previousStep(step);
            if (smaller > 0)
                QVERIFY2(static_cast<double>(smaller) * axis.pixelsPerNs() < minSpacing,
                         qPrintable(QString("step %1 but %2 would do").arg(step).arg(smaller)));
        }
    }

    void ticksAreOrderedAndInside_data() { addZoomLevels(); }
    void ticksAreOrderedAndInside() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(double, width);
        const TimeAxis axis({start, start + span}, width);
        const TimeNs origin = start - 1'234'567;  // the trace start, left of the window
        const double minSpacing = 80;
        const TimeNs step = tickStep(axis, minSpacing);
        const std::vector<Tick> all = ticks(axis, origin, minSpacing);
        const Tick* lastMajor = nullptr;
        for (size_t i = 0; i < all.size(); ++i) {
            const Tick& t = all[i];
            QVERIFY2(t.time >= start && t.time <= start + span,
                     qPrintable(QString::number(t.time)));
            if (i > 0) {
                QVERIFY(t.time > all[i - 1].time);
                // Minor ticks are only drawn where they stay readable.
                QVERIFY(axis.toX(t.time) - axis.toX(all[i - 1].time) >= 6.0 - 1e-9);
            }
            if (t.major) {
                QCOMPARE((t.time - origin) % step, TimeNs(0));
                if (lastMajor)
                    QVERIFY(axis.toX(t.time) - axis.toX(lastMajor->time) >= minSpacing - 1e-9);
                lastMajor = &t;
            }
        }
        // A window a few label widths wide always has a labelled tick.
        if (width >= 3 * minSpacing) QVERIFY(lastMajor != nullptr);
    }

    void formatDuration_data() {
        QTest::addColumn<qint64>("ns");
        QTest::addColumn<qint64>("resolution");
        QTest::addColumn<QString>("expected");
        QTest::newRow("zero") << qint64(0) << qint64(0) << "0 ns";
        QTest::newRow("ns") << qint64(340) << qint64(0) << "340 ns";
        QTest::newRow("ns at 1 ns") << qint64(999) << qint64(1) << "999 ns";
        QTest::newRow("us default decimals") << qint64(1000) << qint64(0) << "1.00 µs";
        QTest::newRow("us at 1 ns") << qint64(1500) << qint64(1) << "1.500 µs";
        QTest::newRow("us at 250 ns") << qint64(1500) << qint64(250) << "1.5 µs";
        QTest::newRow("us at 1 us") << qint64(42'000) << qint64(1000) << "42 µs";
        QTest::newRow("ms default decimals") << qint64(1'250'000) << qint64(0) << "1.25 ms";
        QTest::newRow("ms at 1 ns") << qint64(12'345'678) << qint64(1) << "12.345678 ms";
        QTest::newRow("ms at 10 us") << qint64(12'345'678) << qint64(10'000) << "12.35 ms";
        QTest::newRow("s at 1 ms") << qint64(2'000'000'000) << qint64(1'000'000) << "2.000 s";
        QTest::newRow("s at 1 s") << qint64(7'000'000'000) << qint64(1'000'000'000) << "7 s";
        QTest::newRow("s default decimals") << qint64(90'500'000'000) << qint64(0) << "90.50 s";
        QTest::newRow("negative us") << qint64(-1500) << qint64(0) << "-1.50 µs";
        QTest::newRow("negative ms") << qint64(-3'000'000) << qint64(1000) << "-3.000 ms";
        // Rounding up to 1000 of a unit moves to the next unit.
        QTest::newRow("999999 ns at 1 us") << qint64(999'999) << qint64(1000) << "1.000 ms";
        QTest::newRow("999999999 ns default") << qint64(999'999'999) << qint64(0) << "1.00 s";
        QTest::newRow("999.4 us stays") << qint64(999'400) << qint64(1000) << "999 µs";
    }
    void formatDuration() {
        QFETCH(qint64, ns);
        QFETCH(qint64, resolution);
        QFETCH(QString, expected);
        QCOMPARE(gapscope::ui::formatDuration(ns, resolution), expected);
    }

    void formatOffset_data() {
        QTest::addColumn<qint64>("relative");
        QTest::addColumn<qint64>("step");
        QTest::addColumn<QString>("expected");
        QTest::newRow("ns step") << qint64(1200) << qint64(200) << "1200 ns";
        QTest::newRow("us step") << qint64(1'500'000) << qint64(500'000) << "1500 µs";
        QTest::newRow("ms step") << qint64(2'500'000'000) << qint64(500'000'000) << "2500 ms";
        QTest::newRow("s step") << qint64(2'000'000'000) << qint64(1'000'000'000) << "2 s";
        QTest::newRow("origin") << qint64(0) << qint64(1000) << "0 µs";
        QTest::newRow("left of origin") << qint64(-5000) << qint64(1000) << "-5 µs";
    }
    void formatOffset() {
        QFETCH(qint64, relative);
        QFETCH(qint64, step);
        QFETCH(QString, expected);
        QCOMPARE(gapscope::ui::formatOffset(relative, step), expected);
    }

    // All labels of one ruler share the unit of its step.
    void rulerLabelsShareAUnit_data() { addZoomLevels(); }
    void rulerLabelsShareAUnit() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(double, width);
        const TimeAxis axis({start, start + span}, width);
        const TimeNs step = tickStep(axis, 80);
        QString unit;
        for (const Tick& t : ticks(axis, start, 80)) {
            if (!t.major) continue;
            const QString label = gapscope::ui::formatOffset(t.time - start, step);
            const QString u = label.section(' ', -1);
            if (unit.isEmpty()) unit = u;
            QCOMPARE(u, unit);
        }
    }

    void zoomAround_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("span");
        QTest::addColumn<double>("anchorFraction");  // of the window
        QTest::addColumn<double>("factor");
        QTest::addColumn<double>("width");
        QTest::addColumn<bool>("anchorStays");  // false where the bounds push the window
        const qint64 bounds = 40'000'000'000;   // [kEpoch, kEpoch + 40 s]
        QTest::newRow("in, centre, 1 s")
            << kEpoch + 10'000'000'000 << qint64(1'000'000'000) << 0.5 << 0.8 << 1600.0 << true;
        QTest::newRow("in, left third")
            << kEpoch + 10'000'000'000 << qint64(1'000'000'000) << 0.33 << 0.5 << 1920.0 << true;
        QTest::newRow("out, right edge")
            << kEpoch + 10'000'000'000 << qint64(3'000'000) << 1.0 << 1.25 << 800.0 << true;
        QTest::newRow("in, us window")
            << kEpoch + 5'000'000'000 << qint64(20'000) << 0.7 << 0.85 << 4000.0 << true;
        QTest::newRow("in to the min span")
            << kEpoch + 5'000'000'000 << qint64(20'000) << 0.25 << 1e-6 << 1000.0 << true;
        QTest::newRow("in at the min span")
            << kEpoch + 5'000'000'000 << qint64(100) << 0.6 << 0.5 << 37.0 << true;
        QTest::newRow("one pixel")
            << kEpoch + 5'000'000'000 << qint64(5'000'000) << 0.5 << 0.8 << 1.0 << true;
        QTest::newRow("out past both bounds")
            << kEpoch + 1'000'000'000 << qint64(30'000'000'000) << 0.5 << 4.0 << 1600.0 << false;
        QTest::newRow("out at the left bound")
            << kEpoch << qint64(2'000'000'000) << 0.9 << 3.0 << 1600.0 << false;
        QTest::newRow("out at the right bound")
            << kEpoch + bounds - 2'000'000'000 << qint64(2'000'000'000) << 0.1 << 3.0 << 1600.0
            << false;
        QTest::newRow("anchor left of the window")
            << kEpoch + 10'000'000'000 << qint64(1'000'000) << -0.5 << 0.5 << 800.0 << true;
    }
    void zoomAround() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(double, anchorFraction);
        QFETCH(double, factor);
        QFETCH(double, width);
        QFETCH(bool, anchorStays);
        const TimeWindow bounds{kEpoch, kEpoch + 40'000'000'000};
        const TimeNs minSpan = 100;
        const TimeWindow w{start, start + span};
        const TimeNs anchor = start + std::llround(anchorFraction * static_cast<double>(span));
        const TimeWindow z = gapscope::ui::zoomAround(w, anchor, factor, bounds, minSpan);

        QVERIFY(z.start >= bounds.start && z.end <= bounds.end);
        QVERIFY(z.span() >= minSpan);
        if (factor < 1) QVERIFY(z.span() <= w.span());
        if (factor > 1) QVERIFY(z.span() >= w.span());
        const double expected = std::max(static_cast<double>(span) * factor, double(minSpan));
        if (anchorStays) QVERIFY(std::abs(static_cast<double>(z.span()) - expected) <= 2.0);
        if (anchorStays) {
            // An anchor outside the window acts as the nearest edge.
            const TimeNs a = std::clamp(anchor, w.start, w.end);
            const double before = TimeAxis(w, width).toX(a);
            const double after = TimeAxis(z, width).toX(a);
            QVERIFY2(std::abs(after - before) <= 1.0,
                     qPrintable(QString("anchor moved from %1 to %2 px").arg(before).arg(after)));
        }
    }

    void panBy_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("span");
        QTest::addColumn<qint64>("delta");
        QTest::addColumn<qint64>("expectedStart");  // bounds are [0, 1 s]
        QTest::newRow("right") << qint64(100'000) << qint64(50'000) << qint64(7'000)
                               << qint64(107'000);
        QTest::newRow("left") << qint64(100'000) << qint64(50'000) << qint64(-7'000)
                              << qint64(93'000);
        QTest::newRow("stops at start")
            << qint64(100'000) << qint64(50'000) << qint64(-500'000) << qint64(0);
        QTest::newRow("stops at end") << qint64(100'000) << qint64(50'000) << qint64(5'000'000'000)
                                      << qint64(1'000'000'000 - 50'000);
        QTest::newRow("whole trace stays")
            << qint64(0) << qint64(1'000'000'000) << qint64(3'000) << qint64(0);
        QTest::newRow("ns window") << qint64(500) << qint64(7) << qint64(1) << qint64(501);
    }
    void panBy() {
        QFETCH(qint64, start);
        QFETCH(qint64, span);
        QFETCH(qint64, delta);
        QFETCH(qint64, expectedStart);
        const TimeWindow bounds{0, 1'000'000'000};
        const TimeWindow p = gapscope::ui::panBy({start, start + span}, delta, bounds);
        QCOMPARE(p.span(), span);
        QCOMPARE(p.start, expectedStart);
        QVERIFY(p.start >= bounds.start && p.end <= bounds.end);
    }

    void clampWindow_data() {
        QTest::addColumn<qint64>("start");
        QTest::addColumn<qint64>("end");
        QTest::addColumn<qint64>("boundsStart");
        QTest::addColumn<qint64>("boundsEnd");
        QTest::addColumn<qint64>("expectedStart");
        QTest::addColumn<qint64>("expectedEnd");
        QTest::newRow("inside") << qint64(200) << qint64(800) << qint64(0) << qint64(1000)
                                << qint64(200) << qint64(800);
        QTest::newRow("wider than bounds") << qint64(-500) << qint64(5000) << qint64(0)
                                           << qint64(1000) << qint64(0) << qint64(1000);
        QTest::newRow("hangs off the left")
            << qint64(-300) << qint64(200) << qint64(0) << qint64(1000) << qint64(0) << qint64(500);
        QTest::newRow("hangs off the right") << qint64(900) << qint64(1300) << qint64(0)
                                             << qint64(1000) << qint64(600) << qint64(1000);
        QTest::newRow("below the min span") << qint64(400) << qint64(420) << qint64(0)
                                            << qint64(1000) << qint64(400) << qint64(500);
        QTest::newRow("min span at the end") << qint64(990) << qint64(995) << qint64(0)
                                             << qint64(1000) << qint64(900) << qint64(1000);
        QTest::newRow("bounds below the min span")
            << qint64(10) << qint64(20) << qint64(0) << qint64(60) << qint64(0) << qint64(60);
        QTest::newRow("epoch times") << kEpoch - 10 << kEpoch + 5'000 << kEpoch
                                     << kEpoch + 1'000'000 << kEpoch << kEpoch + 5'010;
    }
    void clampWindow() {
        QFETCH(qint64, start);
        QFETCH(qint64, end);
        QFETCH(qint64, boundsStart);
        QFETCH(qint64, boundsEnd);
        QFETCH(qint64, expectedStart);
        QFETCH(qint64, expectedEnd);
        const TimeWindow c =
            gapscope::ui::clampWindow({start, end}, {boundsStart, boundsEnd}, /*minSpan=*/100);
        QCOMPARE(c.start, expectedStart);
        QCOMPARE(c.end, expectedEnd);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestTimeAxis)
#include "tst_time_axis.moc"
