#pragma once
// Pure coordinate maths of the timeline: time <-> pixel, adaptive ruler
// ticks and time formatting, zoom and pan of a window within bounds. No
// widgets here, so every function is tested row by row.

#include <QString>
#include <QStringList>
#include <cstdint>
#include <vector>

#include "util/types.h"

namespace gapscope::ui {

struct TimeWindow {
    TimeNs start = 0;
    TimeNs end = 1;
    TimeNs span() const { return end - start; }
    bool operator==(const TimeWindow&) const = default;
};

// The visible window mapped onto [0, width) pixels.
class TimeAxis {
  public:
    TimeAxis(TimeWindow window, double widthPx);
    double toX(TimeNs t) const { return (static_cast<double>(t - window_.start)) * scale_; }
    TimeNs toTime(double x) const;
    double pixelsPerNs() const { return scale_; }
    const TimeWindow& window() const { return window_; }
    double width() const { return width_; }

  private:
    TimeWindow window_;
    double width_;
    double scale_;  // pixels per ns
};

struct Tick {
    TimeNs time = 0;
    bool major = false;
};

// The tick step (1, 2 or 5 x 10^k ns) whose ticks are at least
// minSpacingPx apart on the axis.
TimeNs tickStep(const TimeAxis& axis, double minSpacingPx);

// Ticks of the visible window counted from `origin`: major (labelled) ones
// at multiples of tickStep(minSpacingPx), minor ones between them.
std::vector<Tick> ticks(const TimeAxis& axis, TimeNs origin, double minSpacingPx);

// "1.25 ms", "340 ns", "2.000 s": the unit follows the magnitude; decimals
// follow `resolution` (the smallest difference that must stay visible).
QString formatDuration(TimeNs ns, TimeNs resolution = 0);

// Ruler label of `t` relative to the trace start.
QString formatOffset(TimeNs relative, TimeNs step);

// The labels of the ruler's major ticks (their times, left to right, at
// multiples of `step` from `origin`): each tick's offset from the origin
// while those read apart ("20 ms", "40 ms"); zoomed in far from the origin,
// where each would repeat the same leading digits ("69500 µs", "70000 µs"),
// the first tick's offset and the others' distance from it ("69.5 ms",
// "+500 µs", "+1000 µs"), as Perfetto's ruler does.
QStringList tickLabels(const std::vector<TimeNs>& majors, TimeNs origin, TimeNs step);

// Zoom by `factor` (< 1 zooms in) keeping `anchor` at the same pixel,
// clamped to `bounds` and to a span of at least minSpan.
TimeWindow zoomAround(TimeWindow w, TimeNs anchor, double factor, TimeWindow bounds,
                      TimeNs minSpan);

// Shift by `delta`, staying inside `bounds` (the span is kept).
TimeWindow panBy(TimeWindow w, TimeNs delta, TimeWindow bounds);

// `w` clamped inside `bounds` with a span of at least minSpan.
TimeWindow clampWindow(TimeWindow w, TimeWindow bounds, TimeNs minSpan);

}  // namespace gapscope::ui
