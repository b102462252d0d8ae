#include "timeline/time_axis.h"

#include <algorithm>
#include <cmath>

#include "util/readable_units.h"

namespace gapscope::ui {

TimeAxis::TimeAxis(TimeWindow window, double widthPx)
    : window_(window), width_(std::max(1.0, widthPx)) {
    if (window_.end <= window_.start) window_.end = window_.start + 1;
    scale_ = width_ / static_cast<double>(window_.span());
}

TimeNs TimeAxis::toTime(double x) const {
    return window_.start + static_cast<TimeNs>(std::llround(x / scale_));
}

TimeNs tickStep(const TimeAxis& axis, double minSpacingPx) {
    const double minNs = minSpacingPx / axis.pixelsPerNs();
    TimeNs base = 1;
    for (int i = 0; i < 19; ++i) {
        for (TimeNs m : {1, 2, 5}) {
            const TimeNs step = base * m;
            if (static_cast<double>(step) >= minNs) return step;
        }
        if (base > INT64_MAX / 10) break;
        base *= 10;
    }
    return base;
}

std::vector<Tick> ticks(const TimeAxis& axis, TimeNs origin, double minSpacingPx) {
    // Labelled (major) ticks at least minSpacingPx apart; minor ticks divide
    // each major step in 5 (1x, 5x steps) or 4 (2x steps) when they fit.
    const TimeNs major = tickStep(axis, minSpacingPx);
    TimeNs lead = major;
    while (lead >= 10)
        lead /= 10;
    TimeNs minor = major / (lead == 2 ? 4 : 5);
    if (minor <= 0 || static_cast<double>(minor) * axis.pixelsPerNs() < 6.0) minor = major;
    const TimeWindow& w = axis.window();
    const TimeNs rel = w.start - origin;
    TimeNs first = (rel / minor) * minor;
    if (first > rel) first -= minor;
    std::vector<Tick> out;
    for (TimeNs r = first; origin + r <= w.end && out.size() < 20000; r += minor) {
        if (origin + r < w.start) continue;
        out.push_back({origin + r, r % major == 0});
    }
    return out;
}

// Core's one duration ladder (util/readable_units.h), as the ruler needs it.
QString formatDuration(TimeNs ns, TimeNs resolution) {
    return QString::fromStdString(readableDuration(ns, resolution));
}

QString formatOffset(TimeNs relative, TimeNs step) {
    return QString::fromStdString(readableOffset(relative, step));
}

QStringList tickLabels(const std::vector<TimeNs>& majors, TimeNs origin, TimeNs step) {
    // Offsets this many steps from the origin repeat two digits or more.
    constexpr TimeNs kRelativeFrom = 20;
    QStringList out;
    if (majors.empty()) return out;
    const TimeNs first = majors.front() - origin;
    const bool relative =
        step > 0 && (first >= kRelativeFrom * step || first <= -kRelativeFrom * step);
    for (const TimeNs t : majors) {
        if (!relative)
            out << formatOffset(t - origin, step);
        else if (t == majors.front())
            out << formatDuration(first, step);
        else
            out << QStringLiteral("+") + formatOffset(t - majors.front(), step);
    }
    return out;
}

TimeWindow clampWindow(TimeWindow w, TimeWindow bounds, TimeNs minSpan) {
    if (bounds.end <= bounds.start) bounds.end = bounds.start + 1;  // empty bounds: one ns
    const TimeNs boundSpan = std::max<TimeNs>(1, bounds.span());
    TimeNs span = std::clamp<TimeNs>(w.span(), std::min(minSpan, boundSpan), boundSpan);
    TimeNs start = std::clamp<TimeNs>(w.start, bounds.start, bounds.end - span);
    return {start, start + span};
}

TimeWindow zoomAround(TimeWindow w, TimeNs anchor, double factor, TimeWindow bounds,
                      TimeNs minSpan) {
    anchor = std::clamp(anchor, w.start, w.end);
    const double left = static_cast<double>(anchor - w.start) * factor;
    const double right = static_cast<double>(w.end - anchor) * factor;
    TimeWindow z{anchor - static_cast<TimeNs>(std::llround(left)),
                 anchor + static_cast<TimeNs>(std::llround(right))};
    if (z.span() < minSpan) {
        // Keep the anchor's relative position while enforcing the minimum.
        const double frac =
            w.span() > 0 ? static_cast<double>(anchor - w.start) / static_cast<double>(w.span())
                         : 0.5;
        z.start = anchor - static_cast<TimeNs>(std::llround(frac * static_cast<double>(minSpan)));
        z.end = z.start + minSpan;
    }
    return clampWindow(z, bounds, minSpan);
}

TimeWindow panBy(TimeWindow w, TimeNs delta, TimeWindow bounds) {
    return clampWindow({w.start + delta, w.end + delta}, bounds, 1);
}

}  // namespace gapscope::ui
