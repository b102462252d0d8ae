// Counter rows drawn by paintTimeline with hundreds of samples per pixel
// column: a single-sample spike and a single-sample dip anywhere in a column
// must show, and nothing else may change. (The previous painter looked at
// the first 64 samples of a column only; the spike here sits past them.)

#include <QTest>
#include <string>

#include "loader/loader.h"
#include "render_support.h"
#include "support/suite_main.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

constexpr int kGutter = 260;
constexpr int kTrackWidth = 1000;
constexpr int kSamples = 200'000;  // 200 per pixel column
constexpr int kSpikeAt = 123'170;  // the 170th sample of its column
constexpr int kDipAt = 160'150;    // inside the plateau [150'000, 170'000)

// One counter "mem" with a sample every µs: 10, a plateau of 500, and
// (optionally) one spike to 1000 and one dip to 0.
std::string counterTrace(bool withOutliers) {
    std::string json = "[";
    json.reserve(size_t(kSamples) * 64);
    for (int i = 0; i < kSamples; ++i) {
        int v = i >= 150'000 && i < 170'000 ? 500 : 10;
        if (withOutliers && i == kSpikeAt) v = 1000;
        if (withOutliers && i == kDipAt) v = 0;
        json += "{\"ph\":\"C\",\"name\":\"mem\",\"pid\":1,\"ts\":" + std::to_string(i) +
                ",\"args\":{\"v\":" + std::to_string(v) + "}},";
    }
    json.back() = ']';
    return json;
}

}  // namespace

class TestRenderCounters : public QObject {
    Q_OBJECT

    struct Rendered {
        std::shared_ptr<const Trace> trace;
        TimelineLayout layout;
        QImage image;
        const DisplayRow* row = nullptr;
    };

    void render(bool withOutliers, Rendered& out) {
        const LoadResult r = loadTraceFromBytes(counterTrace(withOutliers), "counter.json");
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        out.trace = r.trace;
        QCOMPARE(out.trace->counters.size(), size_t(1));
        QCOMPARE(out.trace->counters[0].values.size(), size_t(kSamples));
        out.layout.setTrace(out.trace);
        for (const DisplayRow& dr : out.layout.rows())
            if (dr.kind == DisplayRow::Kind::Counter) out.row = &dr;
        QVERIFY(out.row);
        test::RenderRequest req;
        req.trace = out.trace.get();
        req.layout = &out.layout;
        // Exactly 200 samples (200 µs) per column.
        req.window = {0, TimeNs(kSamples) * 1000};
        req.gutter = kGutter;
        req.width = kGutter + kTrackWidth;
        req.colors = TimelineColors::fromPalette(test::lightPalette());
        out.image = test::renderTimeline(req);
    }

    // The y of a value in the counter row (the painter's scale: 0 .. max).
    static int yOf(const DisplayRow& r, double v, double max) {
        const double top = r.y + 4, bottom = r.y + r.height - 2;
        return static_cast<int>(bottom - v / max * (bottom - top));
    }

  private slots:
    void spikesAndDipsInsideAColumnAreDrawn() {
        Rendered plain, outliers;
        render(false, plain);
        render(true, outliers);
        if (QTest::currentTestFailed()) return;
        const DisplayRow& r = *outliers.row;
        const int spikeX = kGutter + kSpikeAt / 200, dipX = kGutter + kDipAt / 200;
        // The spike reaches the top of the row in its column.
        const int spikeY = yOf(r, 900, 1000);
        QVERIFY2(
            outliers.image.pixel(spikeX, spikeY) != plain.image.pixel(spikeX, spikeY),
            qPrintable("spike column: " + test::describe(outliers.image.pixel(spikeX, spikeY))));
        // The dip shows as a line through the plateau's fill.
        const int dipY = yOf(r, 250, 1000);
        QVERIFY2(outliers.image.pixel(dipX, dipY) != plain.image.pixel(dipX, dipY),
                 qPrintable("dip column: " + test::describe(outliers.image.pixel(dipX, dipY))));
    }

    void everyColumnShowsItsExtremes() {
        // Against brute force: for every column of the outlier trace, the
        // painted envelope's top is at the column's maximum sample (or the
        // value in effect at its start), whatever the number of samples.
        Rendered rendered;
        render(true, rendered);
        if (QTest::currentTestFailed()) return;
        const DisplayRow& r = *rendered.row;
        const QColor line = TimelineColors::fromPalette(test::lightPalette()).counterLine;
        int checked = 0;
        for (int x = 1; x < kTrackWidth - 1; ++x) {
            // The samples of column x: [200 x, 200 x + 200).
            int top = 0;
            for (int i = 200 * x - 1; i < 200 * x + 200; ++i) {
                int v = i >= 150'000 && i < 170'000 ? 500 : 10;
                if (i == kSpikeAt) v = 1000;
                if (i == kDipAt) v = 0;
                top = std::max(top, v);
            }
            // Somewhere within 1 px of the envelope's top the line colour is drawn.
            const int y = yOf(r, top, 1000);
            bool found = false;
            for (int dy = -1; dy <= 1 && !found; ++dy) {
                const QColor c = rendered.image.pixelColor(kGutter + x, y + dy);
                found = std::abs(c.red() - line.red()) + std::abs(c.green() - line.green()) +
                            std::abs(c.blue() - line.blue()) <
                        120;
            }
            QVERIFY2(found, qPrintable(QStringLiteral("column %1: no line at y %2 (value %3)")
                                           .arg(x)
                                           .arg(y)
                                           .arg(top)));
            ++checked;
        }
        QCOMPARE(checked, kTrackWidth - 2);
    }
};

GAPSCOPE_TEST_MAIN(TestRenderCounters)
#include "tst_render_counters.moc"
