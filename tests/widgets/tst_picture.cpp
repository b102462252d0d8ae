// The exported picture through `gapscope-cli render`, as a user makes it:
// size and scale; the GPU's idle gaps shaded in their cause's colour where
// the generator planted an input stall; annotations from the sidecar drawn
// where they are and nowhere else (against the same render without them);
// SVG well-formed with the annotation text as text; bad arguments refused.

#include <QDir>
#include <QFile>
#include <QImage>
#include <QTemporaryDir>
#include <QTest>
#include <QXmlStreamReader>
#include <set>

#include "panels/cause_colors.h"
#include "picture/picture.h"
#include "report/annotations.h"
#include "support/cli_run.h"
#include "support/generator.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;
using namespace gapscope::test;
using gapscope::ui::causeColor;

namespace {

constexpr int kWidth = 1400;
constexpr int kGutter = ui::kPictureGutter;  // the picture's track labels

QImage load(const QString& path) {
    QImage image(path);
    return image.convertToFormat(QImage::Format_RGB32);
}

}  // namespace

class TestPicture : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    Generated gen_;
    Interval stall_{0, 0};

    QString rangeArg(Interval w) const { return QStringLiteral("%1:%2").arg(w.start).arg(w.end); }
    Interval window() const {  // the stall with as much again on both sides
        const TimeNs span = stall_.end - stall_.start;
        return {stall_.start - span, stall_.end + span};
    }
    double xOf(TimeNs t) const {
        const Interval w = window();
        return kGutter + double(t - w.start) * double(kWidth - kGutter) / double(w.end - w.start);
    }
    CliRun render(const QString& out, QStringList extra = {}) {
        QStringList args = {"render",  gen_.trace,         "--out",   out,
                            "--range", rangeArg(window()), "--width", QString::number(kWidth)};
        return runCli(args + extra);
    }
    void writeSidecar(const std::vector<Annotation>& notes) {
        const std::string error =
            gapscope::writeSidecar(sidecarPathFor(gen_.trace.toStdString()), notes, "stall.json");
        QVERIFY2(error.empty(), error.c_str());
    }

  private slots:
    void initTestCase() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        gen_ = generateTrace(dir_.path(), "stall.json",
                             {"--profile", "kineto", "--steps", "8", "--seed", "5"});
        QVERIFY2(gen_.error.isEmpty(), qPrintable(gen_.error));
        QCOMPARE(gen_.truth["input_stall_steps"].size(), size_t(1));
        const auto& s = gen_.truth["input_stall_steps"][0];
        stall_ = {s["start_ns"].get<TimeNs>(), s["end_ns"].get<TimeNs>()};
        QFile::remove(QString::fromStdString(sidecarPathFor(gen_.trace.toStdString())));
    }

    void scaleDoublesEveryDimension() {
        const QString one = dir_.filePath("one.png"), two = dir_.filePath("two.png");
        QCOMPARE(render(one).exitCode, 0);
        QCOMPARE(render(two, {"--scale", "2"}).exitCode, 0);
        const QImage a = load(one), b = load(two);
        QCOMPARE(a.width(), kWidth);
        QVERIFY(a.height() > 100);
        QCOMPARE(b.width(), 2 * a.width());
        QCOMPARE(b.height(), 2 * a.height());
        const QString fixed = dir_.filePath("fixed.png");
        QCOMPARE(render(fixed, {"--height", "300"}).exitCode, 0);
        QCOMPARE(load(fixed).height(), 300);
    }

    // In the middle of the planted stall the GPU waits for input: the
    // column there carries the input colour (the gap's header strip), and
    // with the shading off (a threshold longer than the trace) it does not.
    void theStallIsShadedAsWaitingForInput() {
        const QString shaded = dir_.filePath("shaded.png"), plain = dir_.filePath("plain.png");
        QCOMPARE(render(shaded).exitCode, 0);
        QCOMPARE(render(plain, {"--min-gap-us", "1000000000"}).exitCode, 0);
        const QRgb input = causeColor(GapCause::Input, false).rgb();
        auto carries = [&](const QImage& image, int x) {
            for (int y = 0; y < image.height() - 40; ++y)  // not the legend's swatches
                if (image.pixel(x, y) == input) return true;
            return false;
        };
        const int mid = static_cast<int>(xOf((stall_.start + stall_.end) / 2));
        QVERIFY(carries(load(shaded), mid));
        QVERIFY(!carries(load(plain), mid));
        // Where the GPU runs before the stall, no column is all idle input.
        const QImage image = load(shaded);
        int inputColumns = 0;
        for (int x = kGutter + 1; x < static_cast<int>(xOf(stall_.start)) - 2; ++x)
            inputColumns += carries(image, x);
        QVERIFY(inputColumns < static_cast<int>(xOf(stall_.start)) - kGutter - 3);
    }

    // A marker and a range note change the picture at their times only; the
    // marker's colour runs down its column. The ruler grows a lane for the
    // flags above its ticks: below it, the picture is the plain one moved
    // down by the lane.
    void annotationsAreDrawnWhereTheyAre() {
        const TimeNs span = stall_.end - stall_.start;
        Annotation marker;
        marker.kind = Annotation::Kind::Marker;
        marker.id = 1;
        marker.start = marker.end = stall_.start + span / 2;
        marker.text = "look here";
        marker.color = "#ff00ff";
        Annotation range;
        range.kind = Annotation::Kind::Range;
        range.id = 2;
        range.start = stall_.end + span / 4;
        range.end = stall_.end + span / 2;
        range.text = "after the stall";
        range.color = "#00c0c0";
        writeSidecar({marker, range});
        const QString with = dir_.filePath("with.png"), without = dir_.filePath("without.png");
        QCOMPARE(render(with).exitCode, 0);
        QCOMPARE(render(without, {"--no-annotations"}).exitCode, 0);
        const QImage a = load(with), b = load(without);
        QCOMPARE(a.width(), b.width());
        const int lane = a.height() - b.height();
        QVERIFY2(lane > 10 && lane < 40, qPrintable(QString::number(lane)));
        const int xm = static_cast<int>(xOf(marker.start));
        const int xr0 = static_cast<int>(xOf(range.start)), xr1 = static_cast<int>(xOf(range.end));
        int rulerTop = -1;  // the marker's flag starts at the ruler's top
        for (int y = 0; y < a.height() && rulerTop < 0; ++y)
            if (a.pixel(xm, y) == qRgb(255, 0, 255)) rulerTop = y;
        QVERIFY(rulerTop > 0);
        const int rulerBottom = rulerTop + lane + 28;
        // The plain picture's pixel under a's (x, y): below the flags' lane, moved down.
        auto plain = [&](int x, int y) {
            return y < rulerTop ? b.pixel(x, y) : b.pixel(x, std::max(rulerTop, y - lane));
        };
        int magenta = 0, changedInRange = 0, changedElsewhere = 0;
        for (int y = 0; y < a.height() - 40; ++y) {
            magenta += a.pixel(xm, y) == qRgb(255, 0, 255);
            const bool onRuler = y >= rulerTop && y < rulerBottom;
            const bool inLane = y >= rulerTop && y < rulerTop + lane;
            for (int x = 0; x < a.width(); ++x) {
                if (inLane || a.pixel(x, y) == plain(x, y)) continue;
                // Its line and flag; on the ruler, the tick label before it.
                const bool nearMarker = x >= xm - (onRuler ? 150 : 2) && x <= xm + 200;
                const bool besideRange = onRuler && x >= xr0 - 150 && x <= xr1 + 150;
                const bool inRange = x >= xr0 - 2 && x <= xr1 + 2;
                if (inRange && !nearMarker) ++changedInRange;
                if (!inRange && !nearMarker && !besideRange) ++changedElsewhere;
            }
        }
        QVERIFY2(magenta > 20, qPrintable(QString::number(magenta)));
        QVERIFY(changedInRange > (xr1 - xr0) * 20);
        QCOMPARE(changedElsewhere, 0);
        QFile::remove(QString::fromStdString(sidecarPathFor(gen_.trace.toStdString())));
    }

    void svgIsWellFormedWithTheTextAsText() {
        Annotation note;
        note.kind = Annotation::Kind::Range;
        note.id = 7;
        note.start = stall_.start;
        note.end = stall_.end;
        // With the C0 controls XML 1.0 forbids, as a hostile name may hold.
        note.text = "waits <for> data & more\x01\x07\x1b";
        writeSidecar({note});
        const QString out = dir_.filePath("picture.svg");
        const CliRun run = render(out);
        QVERIFY2(run.exitCode == 0, run.err.constData());
        QFile f(out);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray svg = f.readAll();
        QXmlStreamReader xml(svg);
        QStringList texts;
        bool inText = false;
        while (!xml.atEnd()) {
            xml.readNext();
            if (xml.isStartElement()) inText = xml.name() == QLatin1String("text");
            if (xml.isCharacters() && inText) texts << xml.text().toString();
            if (xml.isEndElement()) inText = false;
        }
        QVERIFY2(!xml.hasError(), qPrintable(xml.errorString()));
        QVERIFY2(texts.join('\n').contains(QStringLiteral("waits <for> data & more")),
                 qPrintable(texts.join(" | ").left(2000)));
        QVERIFY(texts.join('\n').contains(QStringLiteral("stall.json")));  // the title
        QFile::remove(QString::fromStdString(sidecarPathFor(gen_.trace.toStdString())));
    }

    void badArgumentsAreRefused_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<int>("exitCode");
        QTest::newRow("no --out") << QStringList{"render", "@TRACE"} << 1;
        QTest::newRow("other format") << QStringList{"render", "@TRACE", "--out", "x.jpg"} << 1;
        QTest::newRow("scale 3") << QStringList{"render", "@TRACE", "--out", "@OUT", "--scale", "3"}
                                 << 1;
        QTest::newRow("bad regex")
            << QStringList{"render", "@TRACE", "--out", "@OUT", "--tracks", "(unclosed"} << 1;
        QTest::newRow("no such track")
            << QStringList{"render", "@TRACE",   "--out",
                           "@OUT",   "--tracks", "nothing-is-called-this"}
            << 1;
        QTest::newRow("missing trace")
            << QStringList{"render", "/nonexistent/trace.json", "--out", "@OUT"} << 2;
    }

    void badArgumentsAreRefused() {
        QFETCH(QStringList, args);
        QFETCH(int, exitCode);
        const QString out = dir_.filePath("refused.png");
        QFile::remove(out);
        for (QString& a : args) {
            if (a == "@TRACE") a = gen_.trace;
            if (a == "@OUT") a = out;
        }
        const CliRun run = runCli(args);
        QCOMPARE(run.exitCode, exitCode);
        QVERIFY(!run.err.isEmpty());
        QVERIFY(!QFile::exists(out));  // nothing half-written
    }

    // 20000 px wide at 2x and 16000 px high would be 1.2 Gpx (5 GB): refused
    // with the size it would have, before anything is drawn or written.
    void hugePicturesAreRefusedWithTheirSize() {
        const QString out = dir_.filePath("huge.png");
        const CliRun run = runCli({"render", gen_.trace, "--out", out, "--width", "20000",
                                   "--height", "20000", "--scale", "2"});
        QCOMPARE(run.exitCode, 1);
        // (Rows stop at kPictureMaxHeight, whatever --height asks.)
        QVERIFY2(run.err.contains("would be 40000 × ") && run.err.contains("Mpx"),
                 run.err.constData());
        QVERIFY(!QFile::exists(out));
        const CliRun one = runCli({"render", gen_.trace, "--out", out, "--width", "20000",
                                   "--height", "20000", "--scale", "1"});  // 400 Mpx
        QCOMPARE(one.exitCode, 1);
        QVERIFY2(one.err.contains("would be 20000 × "), one.err.constData());
        const CliRun fits = runCli({"render", gen_.trace, "--out", out, "--width", "4000",
                                    "--height", "2000", "--scale", "2"});
        QVERIFY2(fits.exitCode == 0, fits.err.constData());
        QCOMPARE(load(out).size(), QSize(8000, 4000));
    }

    void tracksPickRows() {
        const QString all = dir_.filePath("all.png"), gpu = dir_.filePath("gpu.png"),
                      cpu = dir_.filePath("cpu.png");
        QCOMPARE(render(all).exitCode, 0);
        QCOMPARE(render(gpu, {"--tracks", "gpu"}).exitCode, 0);
        QCOMPARE(render(cpu, {"--tracks", "cpu"}).exitCode, 0);
        const int ha = load(all).height(), hg = load(gpu).height(), hc = load(cpu).height();
        QVERIFY(hg < ha);
        QVERIFY(hc < ha);
        // The rows add up: each picture has the same title, ruler and legend.
        const int fixed = hg + hc - ha;
        QVERIFY(fixed > 40 && fixed < 200);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestPicture)
#include "tst_picture.moc"
