#include "timeline/ruler_painter.h"

#include <QCoreApplication>
#include <algorithm>

namespace gapscope::ui {

namespace {

constexpr double kMinTickSpacingPx = 90;

}  // namespace

std::vector<RulerLabel> rulerLabels(const RulerInputs& in, const QFontMetricsF& fm) {
    const QRect& r = in.area;
    const int left = r.left() + in.gutterWidth;
    RulerLabelInputs li;
    li.left = left;
    li.right = left + in.axis.width();
    li.top = r.top();
    li.height = r.height();
    li.flags = in.flags;
    li.note = in.note;
    if (in.range) {
        li.range = {left + in.axis.toX(in.range->start), left + in.axis.toX(in.range->end)};
        // Four significant digits ("35.41 ms"); Details has it to the ns.
        li.rangeText =
            formatDuration(in.range->span(), std::max<TimeNs>(1, in.range->span() / 1000));
    }
    const TimeNs step = tickStep(in.axis, kMinTickSpacingPx);
    std::vector<TimeNs> majors;
    for (const Tick& t : ticks(in.axis, in.origin, kMinTickSpacingPx))
        if (t.major) majors.push_back(t.time);
    const QStringList texts = tickLabels(majors, in.origin, step);
    for (size_t i = 0; i < majors.size(); ++i)
        li.ticks.push_back({left + in.axis.toX(majors[i]), texts[static_cast<qsizetype>(i)]});
    return layoutRulerLabels(li, fm);
}

void paintRuler(QPainter& p, const RulerInputs& in) {
    const TimelineColors& c = in.colors;
    const QRect& r = in.area;
    p.save();
    p.fillRect(r, c.header);
    p.setPen(c.headerText);
    const TimeNs step = tickStep(in.axis, kMinTickSpacingPx);
    // Level with the tick labels (a ruler with flags has their lane on top).
    const int lane = std::min(r.height(), rulerHeight(QFontMetricsF(p.font()), false));
    p.drawText(QRect(r.left() + 6, r.bottom() + 1 - lane, in.gutterWidth - 10, lane),
               Qt::AlignVCenter,
               QCoreApplication::translate("gapscope::ui::TimeRuler", "%1 visible")
                   .arg(formatDuration(in.axis.window().span(), step / 10)));
    const int left = r.left() + in.gutterWidth;
    p.setClipRect(QRect(left, r.top(), static_cast<int>(in.axis.width()), r.height()));
    for (const Tick& t : ticks(in.axis, in.origin, kMinTickSpacingPx)) {
        const double x = left + in.axis.toX(t.time);
        p.setPen(t.major ? c.headerText : c.grid.darker(200));
        p.drawLine(QPointF(x, r.bottom() + 1 - (t.major ? 10 : 4)), QPointF(x, r.bottom() + 1));
    }
    if (in.range) {
        const double a = left + in.axis.toX(in.range->start), b = left + in.axis.toX(in.range->end);
        p.fillRect(QRectF(a, r.top(), std::max(1.0, b - a), r.height()), c.rangeFill);
    }
    for (const RulerLabel& l : rulerLabels(in, QFontMetricsF(p.font()))) {
        switch (l.kind) {
            case RulerLabel::Kind::Tick:
                p.setPen(c.headerText);
                p.drawText(l.rect, Qt::AlignVCenter | Qt::AlignLeft, l.text);
                break;
            case RulerLabel::Kind::Range:
                p.setPen(c.selection);
                p.drawText(l.rect, Qt::AlignCenter, l.text);
                break;
            case RulerLabel::Kind::Note:
                p.fillRect(l.rect, c.header);
                p.setPen(c.selection);
                p.drawRect(l.rect.adjusted(0, 0, -1, -1));
                p.drawText(l.rect, Qt::AlignCenter, l.text);
                break;
            case RulerLabel::Kind::Flag:
                break;  // paintAnnotations draws them
        }
    }
    p.setClipping(false);
    p.setPen(c.grid.darker(250));
    p.drawLine(r.left(), r.bottom(), r.right(), r.bottom());
    p.restore();
}

}  // namespace gapscope::ui
