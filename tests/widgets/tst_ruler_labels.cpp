// The ruler's texts never cover each other nor run off the ruler: tick
// labels, the selected range's duration, the note and annotation flags, at
// widths from a narrow dock to 4K and at zooms from nanoseconds to seconds
// (once "40 ms35.408911 60 ms", a flag over the 60 and 80 ms ticks, and a
// last label cut to "140 m").

#include <QApplication>
#include <QFont>
#include <QTest>

#include "support/suite_main.h"
#include "timeline/ruler_painter.h"

using namespace gapscope;
using namespace gapscope::ui;

class TestRulerLabels : public QObject {
    Q_OBJECT

    static RulerInputs ruler(int width, TimeWindow window) {
        RulerInputs in;
        in.area = QRect(0, 0, width, 28);
        in.gutterWidth = std::min(240, width / 4);
        in.axis = TimeAxis(window, width - in.gutterWidth);
        in.origin = 0;
        return in;
    }

    static void checkNoOverlap(const RulerInputs& in, const std::vector<RulerLabel>& labels,
                               const QString& where) {
        const double left = in.area.left() + in.gutterWidth;
        const double right = left + in.axis.width();
        for (size_t i = 0; i < labels.size(); ++i) {
            const QRectF& a = labels[i].rect;
            QVERIFY2(a.left() >= left - 0.5 && a.right() <= right + 0.5,
                     qPrintable(where + ": off the ruler: " + labels[i].text));
            for (size_t j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!a.intersects(labels[j].rect),
                         qPrintable(where + ": " + labels[i].text + " covers " + labels[j].text));
        }
    }

  private slots:
    void labelsNeverOverlap_data() {
        QTest::addColumn<int>("width");
        for (const int w : {300, 700, 1366, 1920, 3840})
            QTest::addRow("%d px", w) << w;
    }
    void labelsNeverOverlap() {
        QFETCH(int, width);
        const QFontMetricsF fm{QFont()};
        const TimeNs ms = 1'000'000;
        const std::vector<TimeWindow> zooms = {
            {0, 148 * ms}, {0, 2'300 * ms}, {12 * ms, 12 * ms + 37'000}, {5, 905}, {0, 141 * ms}};
        for (const TimeWindow w : zooms) {
            for (int variant = 0; variant < 4; ++variant) {
                RulerInputs in = ruler(width, w);
                const double left = in.gutterWidth;
                const auto xOf = [&](TimeNs t) { return left + in.axis.toX(t); };
                if (variant & 1)
                    in.range =
                        TimeWindow{w.start + w.span() / 3, w.start + w.span() / 3 + w.span() / 50};
                if (variant & 2) {
                    in.note = QStringLiteral("aligned on step 10");
                    // Two markers close together, a long one, and a note over a span.
                    in.flags = {
                        {xOf(w.start + w.span() * 4 / 10), xOf(w.start + w.span() * 4 / 10),
                         QStringLiteral("p 4: GPU waits for the DataLoader"), Qt::red, true},
                        {xOf(w.start + w.span() * 41 / 100), xOf(w.start + w.span() * 41 / 100),
                         QStringLiteral("second"), Qt::blue, true},
                        {xOf(w.start + w.span() * 6 / 10), xOf(w.start + w.span() * 8 / 10),
                         QStringLiteral("a range note"), Qt::green, false}};
                }
                const std::vector<RulerLabel> labels = rulerLabels(in, fm);
                const QString where = QStringLiteral("%1 px, [%2, %3) ns, variant %4")
                                          .arg(width)
                                          .arg(w.start)
                                          .arg(w.end)
                                          .arg(variant);
                checkNoOverlap(in, labels, where);
                if (QTest::currentTestFailed()) return;
                const auto count = [&](RulerLabel::Kind k) {
                    return std::count_if(labels.begin(), labels.end(),
                                         [&](const RulerLabel& l) { return l.kind == k; });
                };
                // Every flag is there (shortened at worst), and enough ticks to read.
                QCOMPARE(size_t(count(RulerLabel::Kind::Flag)), in.flags.size());
                // (A range's duration may take one tick's place.)
                if (width >= 700 && !(variant & 2))
                    QVERIFY2(count(RulerLabel::Kind::Tick) >= ((variant & 1) ? 2 : 3),
                             qPrintable(where));
                if (width >= 1366 && (variant & 1) && !(variant & 2))
                    QVERIFY2(count(RulerLabel::Kind::Range) == 1, qPrintable(where));
            }
        }
    }

    // A ruler with flags is a lane taller: the flags sit above the ticks, so
    // every tick label of the plain ruler stays, and nothing overlaps.
    void flagsHaveALaneOfTheirOwn() {
        const QFontMetricsF fm{QFont()};
        for (const int width : {700, 1366, 3840}) {
            const TimeWindow w{0, 148'000'000};
            RulerInputs plain = ruler(width, w);
            const auto ticksOf = [](const std::vector<RulerLabel>& labels) {
                QStringList out;
                for (const RulerLabel& l : labels)
                    if (l.kind == RulerLabel::Kind::Tick) out << l.text;
                return out;
            };
            const QStringList all = ticksOf(rulerLabels(plain, fm));
            RulerInputs flagged = plain;
            flagged.area.setHeight(rulerHeight(fm, true));
            QVERIFY(flagged.area.height() > plain.area.height());
            const double left = flagged.gutterWidth;
            // A flag over every tick.
            for (const RulerLabel& l : rulerLabels(plain, fm))
                if (l.kind == RulerLabel::Kind::Tick)
                    flagged.flags.push_back({l.rect.left() - 10, l.rect.left() - 10,
                                             QStringLiteral("a long note on this tick"), Qt::red,
                                             true});
            flagged.range = TimeWindow{40'000'000, 75'408'911};
            const std::vector<RulerLabel> labels = rulerLabels(flagged, fm);
            checkNoOverlap(flagged, labels, QStringLiteral("%1 px with flags").arg(width));
            QCOMPARE(ticksOf(labels).size() + 1 >= all.size(), true);  // the range may take one
            for (const RulerLabel& l : labels) {
                QVERIFY(l.rect.bottom() <= flagged.area.bottom() + 1);
                if (l.kind == RulerLabel::Kind::Flag) QVERIFY(l.rect.left() >= left - 0.5);
            }
            // Without the range, every tick of the plain ruler.
            flagged.range.reset();
            QCOMPARE(ticksOf(rulerLabels(flagged, fm)), all);
        }
    }

    // The range's duration to four significant digits, not to the nanosecond.
    void theRangeReadsShort() {
        const QFontMetricsF fm{QFont()};
        RulerInputs in = ruler(1366, {0, 148'000'000});
        in.range = TimeWindow{40'000'000, 75'408'911};
        const auto labels = rulerLabels(in, fm);
        const auto range = std::find_if(labels.begin(), labels.end(), [](const RulerLabel& l) {
            return l.kind == RulerLabel::Kind::Range;
        });
        QVERIFY(range != labels.end());
        QCOMPARE(range->text, QStringLiteral("35.41 ms"));
    }

    // A tick label near the right end moves left to stay whole.
    void theLastTickLabelIsWhole() {
        const QFontMetricsF fm{QFont()};
        const RulerInputs in = ruler(1366, {0, 141'000'000});
        const auto labels = rulerLabels(in, fm);
        QVERIFY(!labels.empty());
        const RulerLabel& last = labels.back();
        QCOMPARE(last.kind, RulerLabel::Kind::Tick);
        QCOMPARE(last.text, QStringLiteral("140 ms"));
        QVERIFY(last.rect.right() <= in.gutterWidth + in.axis.width() + 0.5);
    }

    // Zoomed in far from the origin, the ticks read as the first one's
    // offset and the others' distance from it (Perfetto's way), not as
    // absolute labels that repeat their leading digits; near the origin,
    // and zoomed out, each tick is its offset.
    void farFromTheOriginTicksReadAsOffsets() {
        const QFontMetricsF fm{QFont()};
        auto ticksOf = [&](TimeWindow w, TimeNs origin) {
            RulerInputs in = ruler(1366, w);
            in.origin = origin;
            QStringList out;
            for (const RulerLabel& l : rulerLabels(in, fm))
                if (l.kind == RulerLabel::Kind::Tick) out << l.text;
            return out;
        };
        const QStringList zoomed = ticksOf({69'300'000, 73'000'000}, 0);
        QVERIFY2(zoomed.size() >= 3, qPrintable(zoomed.join(" | ")));
        QCOMPARE(zoomed[0], QStringLiteral("69.5 ms"));
        QCOMPARE(zoomed[1], QStringLiteral("+500 µs"));
        QCOMPARE(zoomed[2], QStringLiteral("+1000 µs"));
        // The same window counted from a step that starts at 69 ms.
        const QStringList fromStep = ticksOf({69'300'000, 73'000'000}, 69'000'000);
        QCOMPARE(fromStep[0], QStringLiteral("500 µs"));
        QCOMPARE(fromStep[1], QStringLiteral("1000 µs"));
        // Before the origin the first offset is negative.
        const QStringList before = ticksOf({69'300'000, 73'000'000}, 200'000'000);
        QCOMPARE(before[0], QStringLiteral("-130.5 ms"));
        QCOMPARE(before[1], QStringLiteral("+500 µs"));
        // 35 ms in, at 500 µs a tick: already repeated digits.
        const QStringList step2 = ticksOf({34'800'000, 37'800'000}, 0);
        QCOMPARE(step2.mid(0, 2), QStringList({"35.0 ms", "+500 µs"}));
        // Zoomed out: every tick its offset.
        const QStringList whole = ticksOf({0, 148'000'000}, 0);
        QCOMPARE(whole.mid(0, 3), QStringList({"0 ms", "20 ms", "40 ms"}));
    }
};

GAPSCOPE_TEST_MAIN(TestRulerLabels)
#include "tst_ruler_labels.moc"
