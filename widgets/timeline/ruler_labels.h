#pragma once
// Where the ruler's texts go, decided before anything is drawn, so that
// none covers another or runs off the ruler: annotation flags first (the
// person wrote them; a flag followed closely by another is shortened to
// end before it), then the note at the right end, then the selected
// range's duration (centred on the range, moved aside from a flag, or left
// out when there is no room: Details shows it), then the tick labels, each
// left out where it would touch one already placed (the last one is moved
// left to stay whole rather than cut at the edge). A ruler of rulerHeight()
// with flags puts them in a lane above the rest, so they cover no tick.

#include <QColor>
#include <QFontMetricsF>
#include <QRectF>
#include <QString>
#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace gapscope::ui {

struct RulerLabel {
    enum class Kind : uint8_t { Flag, Note, Range, Tick };
    Kind kind = Kind::Tick;
    QRectF rect;
    QString text;   // as drawn (a flag's maybe shortened)
    size_t source;  // Flag: the index of its flag; Tick: the index of its tick
};

struct RulerFlag {          // an annotation on the ruler
    double x0 = 0, x1 = 0;  // a marker: x1 == x0 (its flag runs right); a note: its span
    QString text;
    QColor colour;
    bool marker = false;
};

struct RulerTick {
    double x = 0;
    QString text;
};

struct RulerLabelInputs {
    double left = 0, right = 0;  // the track part of the ruler
    double top = 0, height = 28;
    std::vector<RulerFlag> flags;
    QString note;
    std::optional<std::pair<double, double>> range;  // x of its start and end
    QString rangeText;
    std::vector<RulerTick> ticks;  // the major ones, left to right
};

std::vector<RulerLabel> layoutRulerLabels(const RulerLabelInputs& in, const QFontMetricsF& fm);

// The height of the ruler's tick lane; a ruler with annotation flags is
// one flag taller (rulerHeight) and keeps them in a lane of their own.
inline double rulerLaneHeight(const QFontMetricsF& fm) {
    return std::max(28.0, fm.height() + 12);
}
inline int rulerHeight(const QFontMetricsF& fm, bool withFlags) {
    return static_cast<int>(std::ceil(rulerLaneHeight(fm) + (withFlags ? fm.height() + 3 : 0)));
}

// Padding inside a flag and beside a tick label, in px.
inline constexpr double kFlagPad = 5;
inline constexpr double kTickGap = 3;

}  // namespace gapscope::ui
