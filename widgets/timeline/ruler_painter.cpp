#include "timeline/ruler_painter.h"

#include <QCoreApplication>
#include <algorithm>

namespace gapscope::ui {

void paintRuler(QPainter& p, const RulerInputs& in) {
    const TimelineColors& c = in.colors;
    const QRect& r = in.area;
    p.save();
    p.fillRect(r, c.header);
    p.setPen(c.headerText);
    const TimeNs step = tickStep(in.axis, 90);
    p.drawText(QRect(r.left() + 6, r.top(), in.gutterWidth - 10, r.height()), Qt::AlignVCenter,
               QCoreApplication::translate("gapscope::ui::TimeRuler", "%1 visible")
                   .arg(formatDuration(in.axis.window().span(), step / 10)));
    const int left = r.left() + in.gutterWidth;
    p.setClipRect(QRect(left, r.top(), static_cast<int>(in.axis.width()), r.height()));
    for (const Tick& t : ticks(in.axis, in.origin, 90)) {
        const double x = left + in.axis.toX(t.time);
        if (t.major) {
            p.setPen(c.headerText);
            p.drawLine(QPointF(x, r.bottom() + 1 - 10), QPointF(x, r.bottom() + 1));
            p.drawText(QRectF(x + 3, r.top(), 120, r.height() - 6),
                       Qt::AlignVCenter | Qt::AlignLeft, formatOffset(t.time - in.origin, step));
        } else {
            p.setPen(c.grid.darker(200));
            p.drawLine(QPointF(x, r.bottom() + 1 - 4), QPointF(x, r.bottom() + 1));
        }
    }
    if (in.range) {
        const double a = left + in.axis.toX(in.range->start), b = left + in.axis.toX(in.range->end);
        p.fillRect(QRectF(a, r.top(), std::max(1.0, b - a), r.height()), c.rangeFill);
        p.setPen(c.selection);
        p.drawText(QRectF(a, r.top(), std::max(80.0, b - a), r.height()), Qt::AlignCenter,
                   formatDuration(in.range->span(), 1));
    }
    if (!in.note.isEmpty()) {
        const QFontMetrics fm = p.fontMetrics();
        const int w = fm.horizontalAdvance(in.note) + 12;
        const QRect box(r.right() - w - 4, r.top() + 3, w, r.height() - 6);
        p.fillRect(box, c.header);
        p.setPen(c.selection);
        p.drawRect(box.adjusted(0, 0, -1, -1));
        p.drawText(box, Qt::AlignCenter, in.note);
    }
    p.setClipping(false);
    p.setPen(c.grid.darker(250));
    p.drawLine(r.left(), r.bottom(), r.right(), r.bottom());
    p.restore();
}

}  // namespace gapscope::ui
