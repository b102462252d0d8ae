#include "bench_render.h"

#include <QBuffer>
#include <QGuiApplication>
#include <cstdio>

#include "analysis/analysis_index.h"
#include "bench_common.h"
#include "loader/loader.h"
#include "picture/picture.h"

namespace gapscope::bench {

void printRender(const std::vector<std::string>& files) {
    std::printf(
        "\n| file | load s | index ms | gap causes ms | draw (1600 px, every row) ms | PNG "
        "encode ms | render after the load ms | / load | SVG ms | picture px |\n"
        "|---|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string& path : files) {
        LoadOptions lo;
        lo.cache = nullptr;
        auto t0 = Clock::now();
        const LoadResult r = loadTrace(path, lo);
        const double loadS = seconds(t0, Clock::now());
        if (!r.trace) continue;
        ui::PictureSpec spec;
        spec.trace = r.trace;
        spec.range = {r.trace->spanStart, std::max(r.trace->spanEnd, r.trace->spanStart + 1)};
        spec.origin = r.trace->spanStart;
        spec.gapThreshold = kDefaultGapThresholdNs;
        spec.title = QStringLiteral("bench");
        spec.font = QGuiApplication::font();
        t0 = Clock::now();
        const AnalysisIndex index(*r.trace);
        const double indexMs = msSince(t0);
        t0 = Clock::now();
        GapOptions o;
        o.minGapNs = spec.gapThreshold;
        o.index = &index;
        spec.gapColours = ui::gapCauseColours(*r.trace, o, false);
        const double causesMs = msSince(t0);
        t0 = Clock::now();
        const QImage image = ui::renderPicture(spec);
        const double drawMs = msSince(t0);
        t0 = Clock::now();
        QByteArray png;
        QBuffer buffer(&png);
        buffer.open(QIODevice::WriteOnly);
        image.save(&buffer, "PNG");
        const double encodeMs = msSince(t0);
        t0 = Clock::now();
        const QByteArray svg = ui::renderSvg(spec);
        const double svgMs = msSince(t0);
        const double total = indexMs + causesMs + drawMs + encodeMs;
        std::printf(
            "| %s | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f %% | %.0f (%.1f MB) | "
            "%dx%d |\n",
            path.c_str(), loadS, indexMs, causesMs, drawMs, encodeMs, total,
            100.0 * total / (loadS * 1000), svgMs, double(svg.size()) / 1e6, image.width(),
            image.height());
        std::fflush(stdout);
    }
}

}  // namespace gapscope::bench
