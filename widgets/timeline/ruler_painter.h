#pragma once
// Draws the time ruler above the tracks: the visible span in the gutter,
// major ticks with their offset from the origin, minor ticks, the selected
// range. Shared by the ruler widget and exported pictures.

#include <QPainter>
#include <QRect>
#include <optional>
#include <vector>

#include "timeline/ruler_labels.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_colors.h"

namespace gapscope::ui {

struct RulerInputs {
    QRect area;  // the whole ruler, gutter included
    int gutterWidth = 240;
    TimeAxis axis{TimeWindow{}, 1};  // over the track part (area minus gutter and margin)
    TimeNs origin = 0;               // tick labels are offsets from here
    std::optional<TimeWindow> range;
    TimelineColors colors;
    QString note;  // at the right end, over the ticks ("aligned on step 10")
    // The annotations' flags (drawn by paintAnnotations): the labels make
    // room for them.
    std::vector<RulerFlag> flags;
};

// The ruler's labels as paintRuler places them (for its test).
std::vector<RulerLabel> rulerLabels(const RulerInputs& in, const QFontMetricsF& fm);

void paintRuler(QPainter& p, const RulerInputs& in);

}  // namespace gapscope::ui
