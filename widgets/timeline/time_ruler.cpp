#include "timeline/time_ruler.h"

#include <QPainter>

#include "timeline/timeline_colors.h"

namespace gapscope::ui {

TimeRuler::TimeRuler(ViewState* state, int gutterWidth, QWidget* parent)
    : QWidget(parent), state_(state), gutter_(gutterWidth) {
    setFixedHeight(28);
    connect(state_, &ViewState::visibleChanged, this, qOverload<>(&QWidget::update));
    connect(state_, &ViewState::selectedRangeChanged, this, qOverload<>(&QWidget::update));
}

void TimeRuler::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const TimelineColors c = TimelineColors::fromPalette(palette());
    p.fillRect(rect(), c.header);
    const TimeAxis axis(state_->visible(), width() - gutter_ - rightMargin_);
    p.setPen(c.headerText);
    const TimeNs step = tickStep(axis, 90);
    p.drawText(QRect(6, 0, gutter_ - 10, height()), Qt::AlignVCenter,
               tr("%1 visible").arg(formatDuration(state_->visible().span(), step / 10)));
    p.setClipRect(gutter_, 0, width() - gutter_ - rightMargin_, height());
    for (const Tick& t : ticks(axis, origin_, 90)) {
        const double x = gutter_ + axis.toX(t.time);
        if (t.major) {
            p.setPen(c.headerText);
            p.drawLine(QPointF(x, height() - 10), QPointF(x, height()));
            p.drawText(QRectF(x + 3, 0, 120, height() - 6), Qt::AlignVCenter | Qt::AlignLeft,
                       formatOffset(t.time - origin_, step));
        } else {
            p.setPen(c.grid.darker(200));
            p.drawLine(QPointF(x, height() - 4), QPointF(x, height()));
        }
    }
    if (const auto r = state_->selectedRange()) {
        const double a = gutter_ + axis.toX(r->start), b = gutter_ + axis.toX(r->end);
        p.fillRect(QRectF(a, 0, std::max(1.0, b - a), height()), c.rangeFill);
        p.setPen(c.selection);
        p.drawText(QRectF(a, 0, std::max(80.0, b - a), height()), Qt::AlignCenter,
                   formatDuration(r->span(), 1));
    }
    p.setPen(c.grid.darker(250));
    p.drawLine(0, height() - 1, width(), height() - 1);
}

}  // namespace gapscope::ui
