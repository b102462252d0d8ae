#include "panels/step_bars.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>

#include "panels/cause_colors.h"
#include "panels/units.h"

namespace gapscope::ui {

StepBars::StepBars(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(90);
    setMouseTracking(true);
}

void StepBars::setSteps(std::shared_ptr<const std::vector<StepReport>> reports) {
    if (reports == steps_) return;
    steps_ = std::move(reports);
    longest_ = 1;
    for (const StepReport& s : steps())
        longest_ = std::max(longest_, s.duration);
    update();
}

void StepBars::setCurrent(std::optional<int64_t> number) {
    current_ = number;
    update();
}

QRectF StepBars::plot() const {
    return QRectF(rect()).adjusted(4, 4, -4, -4);
}

int StepBars::stepAt(QPoint pos) const {
    const QRectF p = plot();
    if (steps().empty() || !p.contains(pos)) return -1;
    const double w = p.width() / static_cast<double>(steps().size());
    const int i = static_cast<int>((pos.x() - p.left()) / w);
    return std::clamp(i, 0, static_cast<int>(steps().size()) - 1);
}

void StepBars::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const QPalette pal = palette();
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    painter.fillRect(rect(), pal.color(QPalette::Base));
    const QRectF p = plot();
    if (steps().empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No steps"));
        return;
    }
    const double w = p.width() / static_cast<double>(steps().size());
    const double gap = w > 6 ? std::min(3.0, w * 0.15) : 0;
    for (size_t i = 0; i < steps().size(); ++i) {
        const StepReport& s = steps()[i];
        const double x = p.left() + static_cast<double>(i) * w;
        double y = p.bottom();
        auto segment = [&](TimeNs part, QColor color) {
            const double h = p.height() * static_cast<double>(part) / static_cast<double>(longest_);
            painter.fillRect(QRectF(x + gap / 2, y - h, w - gap, h), color);
            y -= h;
        };
        if (s.devices.empty()) {
            segment(s.duration, stepPartColor(StepPart::Cpu, dark));
        } else {
            for (size_t part = 0; part < kStepPartCount; ++part)
                segment(s.devices.front().part(StepPart(part)),
                        stepPartColor(StepPart(part), dark));
        }
        const QRectF bar(x + gap / 2, y, w - gap, p.bottom() - y);
        if (s.slow) {
            painter.setPen(QPen(pal.color(QPalette::Text), 1.5));
            const QPointF top(bar.center().x(), y - 2);
            painter.setBrush(pal.color(QPalette::Text));
            painter.drawPolygon(QPolygonF({top, top + QPointF(-4, -6), top + QPointF(4, -6)}));
        }
        if (current_ && s.step.number == *current_) {
            painter.setPen(QPen(pal.color(QPalette::Highlight), 2));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(bar.adjusted(-1, -1, 1, 1));
        }
    }
}

void StepBars::mousePressEvent(QMouseEvent* e) {
    const int i = stepAt(e->position().toPoint());
    if (i >= 0) emit stepClicked(steps()[static_cast<size_t>(i)].step.number);
}

bool StepBars::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    auto* help = static_cast<QHelpEvent*>(e);
    const int i = stepAt(help->pos());
    if (i < 0) {
        QToolTip::hideText();
        return true;
    }
    const StepReport& s = steps()[static_cast<size_t>(i)];
    QString text = tr("Step %1: %2").arg(s.step.number).arg(shortDuration(s.duration));
    if (s.slow && s.slowerBecause)
        text += tr(" — slow: %1 +%2").arg(stepPartLabel(*s.slowerBecause), shortDuration(s.grewBy));
    if (!s.devices.empty()) {
        for (size_t part = 0; part < kStepPartCount; ++part) {
            const TimeNs v = s.devices.front().part(StepPart(part));
            if (v > 0) text += "\n" + stepPartLabel(StepPart(part)) + ": " + shortDuration(v);
        }
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

}  // namespace gapscope::ui
