// GPU idle-gap shading as drawn by paintTimeline, checked pixel by pixel
// against the planted gaps of a generated Kineto trace (../shared/tools/
// gen_trace.py --truth): inside every planted gap the GPU's stream rows and
// its header carry the warm gap wash; between the planted gaps (where the
// truth says the GPU is busy or idle for less than the threshold), and
// anywhere in CPU processes, the picture is the same as without gaps.

#include <QFile>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/gap_causes.h"
#include "analysis/idle_gaps.h"
#include "loader/loader.h"
#include "panels/cause_colors.h"
#include "render_support.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/timeline_colors.h"
#include "timeline/timeline_layout.h"
#include "timeline/timeline_painter.h"

using namespace gapscope;
using namespace gapscope::ui;
using json = nlohmann::json;

namespace {

constexpr TimeNs kThreshold = 100'000;  // 100 us, as --min-gap-us 100
constexpr int kGutter = 260;
constexpr double kMinGapPx = 12;  // the narrowest planted gap, on screen

}  // namespace

class TestRenderGaps : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;
    json truth_;
    std::shared_ptr<const Trace> trace_;
    TimelineLayout layout_;
    TimelineColors colors_;
    TimeWindow window_;
    int width_ = 0;
    std::vector<std::vector<Interval>> gaps_, noGaps_;
    QImage shaded_, plain_;

    QImage render(const std::vector<std::vector<Interval>>& gaps) const {
        test::RenderRequest r;
        r.trace = trace_.get();
        r.layout = &layout_;
        r.window = window_;
        r.gutter = kGutter;
        r.width = width_;
        r.gaps = &gaps;
        r.colors = colors_;
        return test::renderTimeline(r);
    }

    TimeAxis axis() const { return TimeAxis(window_, width_ - kGutter); }  // as trackAxis()
    double xOf(TimeNs t) const { return kGutter + axis().toX(t); }

    const GpuDevice* device(int index) const {
        for (const GpuDevice& d : trace_->gpuDevices)
            if (d.index == index) return &d;
        return nullptr;
    }

    // Display rows of the GPU streams of one device.
    std::vector<const DisplayRow*> streamRows(int device) const {
        std::vector<const DisplayRow*> out;
        for (const DisplayRow& r : layout_.rows()) {
            if (r.kind != DisplayRow::Kind::Slices) continue;
            if (trace_->processes[r.process].gpuDevice != device) continue;
            if (trace_->tracks[r.track].kind != TrackKind::GpuStream) continue;
            out.push_back(&r);
        }
        return out;
    }

    // Whether a slice of this row covers any of the pixel column [x - 1, x + 2).
    bool sliceNear(const DisplayRow& r, int x) const {
        const Row& row = trace_->tracks[r.track].rows[r.row];
        const auto [lo, hi] = trace_->visibleInRow(row, axis().toTime(x - 1 - kGutter),
                                                   axis().toTime(x + 2 - kGutter));
        return hi > lo;
    }

  private slots:
    void initTestCase() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        QVERIFY(dir_.isValid());
        const QString trace = dir_.filePath("gaps.json");
        const QString truth = dir_.filePath("gaps.truth.json");
        QProcess gen;
        gen.start(test::python(), {test::sharedDir() + "/tools/gen_trace.py", "--profile", "kineto",
                                   "--gpus", "2", "--steps", "4", "--seed", "11", "--min-gap-us",
                                   "100", "--out", trace, "--truth", truth, "--quiet"});
        QVERIFY(gen.waitForFinished(120000));
        QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());
        QFile tf(truth);
        QVERIFY(tf.open(QIODevice::ReadOnly));
        truth_ = json::parse(tf.readAll().toStdString());
        QCOMPARE(truth_["min_gap_us"].get<double>(), 100.0);

        LoadResult r = loadTrace(trace.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        trace_ = r.trace;
        QCOMPARE(trace_->gpuDevices.size(), size_t(2));
        layout_.setTrace(trace_);
        colors_ = TimelineColors::fromPalette(test::lightPalette());
        QVERIFY(!colors_.dark);
        window_ = {trace_->spanStart, trace_->spanEnd};

        // Wide enough that the narrowest planted gap covers kMinGapPx.
        TimeNs narrowest = INT64_MAX;
        for (const auto& [d, dev] : truth_["devices"].items()) {
            for (const json& g : dev["idle_gaps"])
                narrowest =
                    std::min(narrowest, g["end_ns"].get<TimeNs>() - g["start_ns"].get<TimeNs>());
        }
        QVERIFY(narrowest >= kThreshold && narrowest < INT64_MAX);
        const double px =
            kMinGapPx * static_cast<double>(window_.span()) / static_cast<double>(narrowest);
        width_ = kGutter + std::clamp(static_cast<int>(std::ceil(px)), 1000, 20000);

        gaps_ = idleGapsPerDevice(*trace_, kThreshold);  // what the viewer hands the painter
        noGaps_.assign(gaps_.size(), {});
        shaded_ = render(gaps_);
        plain_ = render(noGaps_);
        QCOMPARE(shaded_.size(), plain_.size());
    }

    void plantedGapsAreShaded() {
        int checkedGaps = 0, checkedPixels = 0;
        for (const auto& [key, dev] : truth_["devices"].items()) {
            const int index = std::stoi(key);
            const GpuDevice* d = device(index);
            QVERIFY2(d, key.c_str());
            const auto& mine = gaps_[static_cast<size_t>(d - trace_->gpuDevices.data())];
            std::set<TimeNs> borderline;
            for (const json& g : dev["borderline_gaps"])
                borderline.insert(g["start_ns"].get<TimeNs>());
            const auto rows = streamRows(index);
            QVERIFY(!rows.empty());

            for (const json& g : dev["idle_gaps"]) {
                const TimeNs start = g["start_ns"].get<TimeNs>(), end = g["end_ns"].get<TimeNs>();
                if (borderline.count(start)) continue;
                // The model finds the same gap (the painter is handed these).
                QVERIFY(std::any_of(mine.begin(), mine.end(), [&](const Interval& b) {
                    return b.start == start && b.end == end;
                }));
                QVERIFY2(
                    xOf(end) - xOf(start) >= kMinGapPx - 0.5,
                    qPrintable(QString("gap %1 is %2 px").arg(start).arg(xOf(end) - xOf(start))));
                const int x = static_cast<int>(std::floor(xOf(start + (end - start) / 2)));
                const QString where = QStringLiteral("GPU %1 gap at %2 ns").arg(index).arg(start);

                int rowsChecked = 0;
                for (const DisplayRow* r : rows) {
                    if (sliceNear(*r, x)) continue;  // only the background shows the wash
                    const int y = r->y + r->height / 2;
                    const QRgb s = shaded_.pixel(x, y), p = plain_.pixel(x, y);
                    QVERIFY2(s != p, qPrintable(where + ": not shaded, " + test::describe(s)));
                    QVERIFY2(qRed(s) - qBlue(s) > qRed(p) - qBlue(p),
                             qPrintable(where + ": " + test::describe(s) + " is not warmer than " +
                                        test::describe(p)));
                    ++rowsChecked;
                    ++checkedPixels;
                }
                QVERIFY2(rowsChecked > 0, qPrintable(where + ": every stream row is busy"));

                // The process header carries a marker along the gap too.
                for (uint32_t p = 0; p < trace_->processes.size(); ++p) {
                    if (trace_->processes[p].gpuDevice != index) continue;
                    const int y =
                        layout_.processExtent(p).first + TimelineLayout::kHeaderHeight - 2;
                    QVERIFY2(shaded_.pixel(x, y) != plain_.pixel(x, y),
                             qPrintable(where + ": no marker in the process header"));
                }
                ++checkedGaps;
            }
        }
        QVERIFY(checkedGaps >= 5);
        qInfo("%d planted gaps, %d pixels checked", checkedGaps, checkedPixels);
        // And the other way: every gap the viewer shades is a planted gap
        // (or one within 1 us of the threshold, which the truth lists apart).
        for (size_t i = 0; i < trace_->gpuDevices.size(); ++i) {
            const json& dev = truth_["devices"][std::to_string(trace_->gpuDevices[i].index)];
            for (const Interval& g : gaps_[i]) {
                auto same = [&](const json& t) {
                    return t["start_ns"].get<TimeNs>() == g.start &&
                           t["end_ns"].get<TimeNs>() == g.end;
                };
                const bool planted =
                    std::any_of(dev["idle_gaps"].begin(), dev["idle_gaps"].end(), same);
                const bool borderline =
                    std::any_of(dev["borderline_gaps"].begin(), dev["borderline_gaps"].end(), same);
                QVERIFY2(planted || borderline,
                         qPrintable(QStringLiteral("GPU %1: gap [%2, %3) is not in the truth")
                                        .arg(trace_->gpuDevices[i].index)
                                        .arg(g.start)
                                        .arg(g.end)));
            }
        }
    }

    void stretchesBetweenPlantedGapsAreNotShaded() {
        // From the truth alone: between two consecutive planted gaps (and
        // before the first, after the last) no gap of >= the threshold
        // exists, so nothing of the device's band may change there.
        int checked = 0;
        for (const auto& [key, dev] : truth_["devices"].items()) {
            const int index = std::stoi(key);
            std::vector<std::pair<int, int>> bands;
            for (uint32_t p = 0; p < trace_->processes.size(); ++p) {
                if (trace_->processes[p].gpuDevice != index) continue;
                const auto [top, bottom] = layout_.processExtent(p);
                bands.push_back({top, bottom});
            }
            QVERIFY(!bands.empty());
            std::vector<TimeNs> edges = {dev["span_start_ns"].get<TimeNs>()};
            for (const json& g : dev["idle_gaps"]) {
                edges.push_back(g["start_ns"].get<TimeNs>());
                edges.push_back(g["end_ns"].get<TimeNs>());
            }
            edges.push_back(dev["span_end_ns"].get<TimeNs>());
            std::vector<TimeNs> borderline;
            for (const json& g : dev["borderline_gaps"])
                borderline.push_back(g["start_ns"].get<TimeNs>());
            for (size_t i = 0; i + 1 < edges.size(); i += 2) {
                const TimeNs a = edges[i], b = edges[i + 1];
                if (xOf(b) - xOf(a) < 8) continue;  // too narrow to sample cleanly
                if (std::any_of(borderline.begin(), borderline.end(),
                                [&](TimeNs t) { return t >= a && t <= b; }))
                    continue;
                const int x = static_cast<int>(std::floor(xOf(a + (b - a) / 2)));
                for (const auto& [top, bottom] : bands) {
                    for (int y = top; y < bottom; ++y) {
                        QVERIFY2(shaded_.pixel(x, y) == plain_.pixel(x, y),
                                 qPrintable(QStringLiteral("GPU %1 between gaps at %2 ns, y %3: "
                                                           "%4 vs %5")
                                                .arg(index)
                                                .arg(a)
                                                .arg(y)
                                                .arg(test::describe(shaded_.pixel(x, y)),
                                                     test::describe(plain_.pixel(x, y)))));
                    }
                }
                ++checked;
            }
        }
        QVERIFY2(checked >= 4, qPrintable(QString::number(checked)));
    }

    // Folding sub-pixel slices into blocks loses none and invents none: at
    // the whole trace and two zooms, in every slice row, next to a pixel
    // column that a slice touches a pixel is painted (edges round to whole
    // pixels, so the column or a neighbour), and a column with no slice
    // within 3 pixels (a fold bridges gaps under 2) shows the background.
    void foldedRowsDrawEverySliceAndNothingElse() {
        for (const int zoom : {1, 10, 100}) {
            const TimeWindow saved = window_;
            const TimeNs span = window_.span() / zoom;
            window_ = {saved.start + (saved.span() - span) / 2,
                       saved.start + (saved.span() - span) / 2 + span};
            const QImage image = render(noGaps_);
            int painted = 0, empty = 0;
            for (const DisplayRow& r : layout_.rows()) {
                if (r.kind != DisplayRow::Kind::Slices) continue;
                const int y = r.y + r.height / 2;
                const QRgb background =
                    (r.track & 1) ? colors_.alternateBackground.rgb() : colors_.background.rgb();
                const Row& row = trace_->tracks[r.track].rows[r.row];
                for (int x = kGutter; x < width_; ++x) {
                    const TimeNs t0 = axis().toTime(x - kGutter);
                    const TimeNs t1 = axis().toTime(x + 1 - kGutter);
                    const auto [lo, hi] = trace_->visibleInRow(row, t0, t1 - 1);
                    const auto [nlo, nhi] = trace_->visibleInRow(
                        row, axis().toTime(x - 3 - kGutter), axis().toTime(x + 4 - kGutter));
                    const QRgb pixel = image.pixel(x, y);
                    if (hi > lo) {
                        const bool near = pixel != background ||
                                          image.pixel(x - 1, y) != background ||
                                          (x + 1 < width_ && image.pixel(x + 1, y) != background);
                        QVERIFY2(near,
                                 qPrintable(QStringLiteral("zoom 1/%1, track %2 row %3: slice %4 "
                                                           "not drawn at x %5")
                                                .arg(zoom)
                                                .arg(r.track)
                                                .arg(r.row)
                                                .arg(lo)
                                                .arg(x)));
                        ++painted;
                    } else if (nhi == nlo) {
                        QVERIFY2(pixel == background,
                                 qPrintable(QStringLiteral("zoom 1/%1, track %2 row %3: %4 at "
                                                           "x %5, where no slice is")
                                                .arg(zoom)
                                                .arg(r.track)
                                                .arg(r.row)
                                                .arg(test::describe(pixel))
                                                .arg(x)));
                        ++empty;
                    }
                }
            }
            window_ = saved;
            QVERIFY(painted > 1000 && empty > 1000);
            qInfo("zoom 1/%d: %d painted and %d empty columns checked", zoom, painted, empty);
        }
    }

    void cpuProcessesAreNeverShaded() {
        int rows = 0;
        for (uint32_t p = 0; p < trace_->processes.size(); ++p) {
            if (trace_->processes[p].kind == ProcessKind::Gpu) continue;
            const auto [top, bottom] = layout_.processExtent(p);
            for (int y = top; y < bottom; ++y, ++rows) {
                QVERIFY2(std::memcmp(shaded_.constScanLine(y), plain_.constScanLine(y),
                                     static_cast<size_t>(shaded_.bytesPerLine())) == 0,
                         qPrintable(QStringLiteral("process %1, y %2").arg(p).arg(y)));
            }
        }
        QVERIFY(rows > 0);
    }

    // The gaps of one device shade that device's band and nothing else.
    void gapsOfOneDeviceShadeOnlyThatDevice() {
        QVERIFY(gaps_.size() == 2 && !gaps_[0].empty() && !gaps_[1].empty());
        const std::vector<std::vector<Interval>> onlyFirst = {gaps_[0], {}};
        const QImage image = render(onlyFirst);
        const int first = trace_->gpuDevices[0].index, second = trace_->gpuDevices[1].index;
        int changedInFirst = 0;
        for (uint32_t p = 0; p < trace_->processes.size(); ++p) {
            const auto [top, bottom] = layout_.processExtent(p);
            for (int y = top; y < bottom; ++y) {
                const bool same = std::memcmp(image.constScanLine(y), plain_.constScanLine(y),
                                              static_cast<size_t>(image.bytesPerLine())) == 0;
                if (trace_->processes[p].gpuDevice == first) changedInFirst += same ? 0 : 1;
                if (trace_->processes[p].gpuDevice == second ||
                    trace_->processes[p].kind != ProcessKind::Gpu)
                    QVERIFY2(same, qPrintable(QStringLiteral("process %1, y %2").arg(p).arg(y)));
            }
        }
        QVERIFY(changedInFirst > 0);
    }

    // Coloured by cause: the header strip of each gap carries its cause's
    // colour, and the gaps inside the planted input stall are the input colour.
    void gapsCarryTheColourOfTheirCause() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator");
        const QString trace = dir_.filePath("stall.json");
        const QString truth = dir_.filePath("stall.truth.json");
        QProcess gen;
        gen.start(test::python(),
                  {test::sharedDir() + "/tools/gen_trace.py", "--profile", "kineto", "--steps", "8",
                   "--seed", "5", "--out", trace, "--truth", truth, "--quiet"});
        QVERIFY(gen.waitForFinished(120000));
        QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());
        QFile tf(truth);
        QVERIFY(tf.open(QIODevice::ReadOnly));
        const json t = json::parse(tf.readAll().toStdString());
        QCOMPARE(t["input_stall_steps"].size(), size_t(1));
        const json& stall = t["input_stall_steps"][0];
        const LoadResult r = loadTrace(trace.toStdString());
        QVERIFY(r.trace);
        TimelineLayout layout;
        layout.setTrace(r.trace);
        std::vector<std::vector<Interval>> gaps(r.trace->gpuDevices.size());
        std::vector<std::vector<QColor>> colors(r.trace->gpuDevices.size());
        GapOptions o;
        o.minGapNs = kThreshold;
        for (const DeviceGaps& d : gapsWithCauses(*r.trace, o)) {
            for (const CausedGap& g : d.gaps) {
                gaps[0].push_back(g.gap);
                colors[0].push_back(causeColor(g.cause, false));
            }
        }
        const Interval st{stall["start_ns"].get<TimeNs>(), stall["end_ns"].get<TimeNs>()};
        test::RenderRequest req;
        req.trace = r.trace.get();
        req.layout = &layout;
        req.window = {st.start - (st.end - st.start), st.end + (st.end - st.start)};
        req.gutter = kGutter;
        req.width = kGutter + 1200;
        req.gaps = &gaps;
        req.gapColors = &colors;
        req.colors = colors_;
        const QImage image = test::renderTimeline(req);
        const TimeAxis ax(req.window, req.width - kGutter);
        int inside = 0;
        for (size_t k = 0; k < gaps[0].size(); ++k) {
            const Interval& g = gaps[0][k];
            const double x0 = kGutter + ax.toX(std::max(g.start, req.window.start));
            const double x1 = kGutter + ax.toX(std::min(g.end, req.window.end));
            if (x1 - x0 < 3) continue;  // off screen or sub-pixel
            const int x = static_cast<int>((x0 + x1) / 2);
            for (uint32_t p = 0; p < r.trace->processes.size(); ++p) {
                if (r.trace->processes[p].gpuDevice < 0) continue;
                const int y = layout.processExtent(p).first + TimelineLayout::kHeaderHeight - 2;
                QCOMPARE(QColor(image.pixel(x, y)), colors[0][k]);
            }
            if (2 * (std::min(g.end, st.end) - std::max(g.start, st.start)) >= g.length()) {
                QCOMPARE(colors[0][k], causeColor(GapCause::Input, false));
                ++inside;
            }
        }
        QVERIFY2(inside > 0, "the planted stall leaves an input gap");
    }
};

GAPSCOPE_TEST_MAIN(TestRenderGaps)
#include "tst_render_gaps.moc"
