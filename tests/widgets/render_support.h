#pragma once
// Rendering a trace's timeline to an image for pixel tests, exactly as the
// widget paints it (paintTimeline), in a fixed light palette.

#include <QImage>
#include <QPalette>
#include <QString>
#include <vector>

#include "timeline/timeline_colors.h"
#include "timeline/timeline_layout.h"
#include "timeline/timeline_painter.h"

namespace gapscope::test {

QPalette lightPalette();
QString describe(QRgb c);  // "rgb(r, g, b)"

struct RenderRequest {
    const Trace* trace = nullptr;
    const ui::TimelineLayout* layout = nullptr;
    ui::TimeWindow window;
    int gutter = 260;
    int width = 1260;  // gutter included
    const std::vector<std::vector<Interval>>* gaps = nullptr;
    const std::vector<std::vector<QColor>>* gapColors = nullptr;  // by cause, parallel to gaps
    ui::TimelineColors colors;
};

QImage renderTimeline(const RenderRequest& request);

}  // namespace gapscope::test
