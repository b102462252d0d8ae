#include "panels/step_bars.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "panels/cause_colors.h"
#include "panels/units.h"
#include "timeline/time_axis.h"

namespace gapscope::ui {

namespace {

// Where the bars go in a widget of `size`: a time axis on the left, the
// step numbers below, room above for the slow-step marks.
struct BarGeometry {
    QRectF plot;
    double width = 0;
    TimeNs longest = 1;

    BarGeometry(std::span<const StepReport> steps, QSize size) {
        for (const StepReport& s : steps)
            longest = std::max(longest, s.duration);
        const QFontMetricsF fm{QFont()};
        const double axis = fm.horizontalAdvance(QStringLiteral("888 ms")) + 10;
        plot = QRectF(QPointF(0, 0), QSizeF(size)).adjusted(axis, 10, -4, -(fm.height() + 4));
        width = steps.empty() ? 0 : plot.width() / static_cast<double>(steps.size());
    }
    double gap() const { return width > 6 ? std::min(3.0, width * 0.15) : 0; }
    double height(TimeNs part) const {
        return plot.height() * static_cast<double>(part) / static_cast<double>(longest);
    }
    // The whole stacked bar of steps[i].
    QRectF bar(std::span<const StepReport> steps, size_t i) const {
        const StepReport& s = steps[i];
        TimeNs total = 0;
        if (s.devices.empty()) {
            total = s.duration;
        } else {
            for (size_t part = 0; part < kStepPartCount; ++part)
                total += s.devices.front().tileParts().part(StepPart(part));
        }
        const double h = height(total);
        const double x = plot.left() + static_cast<double>(i) * width;
        return QRectF(x + gap() / 2, plot.bottom() - h, width - gap(), h);
    }
};

// A round step for the time axis (1, 2 or 5 × 10^k ns): about three lines.
TimeNs axisStep(TimeNs longest) {
    const TimeNs target = std::max<TimeNs>(1, longest / 3);
    TimeNs step = 1;
    while (step * 10 <= target)
        step *= 10;
    if (step * 5 <= target) return step * 5;
    if (step * 2 <= target) return step * 2;
    return step;
}

qint64 keyOf(const QPalette& palette) {
    return palette.cacheKey();
}

}  // namespace

StepBars::StepBars(QWidget* parent) : QWidget(parent) {
    setMinimumHeight(120);  // the axis labels, bars and step numbers
    setMouseTracking(true);
}

StepBars::Picture StepBars::draw(const Steps& reports, QSize size, qreal dpr, const QPalette& pal) {
    Picture out;
    out.of = reports.get();
    out.size = size;
    out.dpr = dpr;
    out.paletteKey = keyOf(pal);
    out.image = QImage(size * dpr, QImage::Format_RGB32);
    out.image.setDevicePixelRatio(dpr);
    QPainter painter(&out.image);
    const QRect all(QPoint(0, 0), size);
    painter.fillRect(all, pal.color(QPalette::Base));
    const std::span<const StepReport> steps =
        reports ? std::span<const StepReport>(*reports) : std::span<const StepReport>();
    if (steps.empty()) {
        painter.setPen(pal.color(QPalette::PlaceholderText));
        painter.drawText(all, Qt::AlignCenter, tr("No steps"));
        return out;
    }
    const bool dark = pal.color(QPalette::Window).lightness() < 128;
    const BarGeometry g(steps, size);
    const QFontMetricsF fm{QFont()};
    // The time axis: lines at round durations, labelled on the left.
    const TimeNs step = axisStep(g.longest);
    for (TimeNs t = 0; t <= g.longest; t += step) {
        const double y = g.plot.bottom() - g.height(t);
        painter.setPen(pal.color(QPalette::Mid));
        painter.drawLine(QPointF(g.plot.left() - 3, y), QPointF(g.plot.right(), y));
        painter.setPen(pal.color(QPalette::Text));
        painter.drawText(QRectF(0, y - fm.height() / 2, g.plot.left() - 6, fm.height()),
                         Qt::AlignRight | Qt::AlignVCenter, formatDuration(t, step));
    }
    // Step numbers under the bars (with the rank, ranks merged into one
    // trace), every n-th where they would crowd.
    auto label = [](const StepReport& s) {
        return s.rank ? QStringLiteral("%1 r%2").arg(s.step.number).arg(*s.rank)
                      : QString::number(s.step.number);
    };
    double widest = 0;
    for (const StepReport& s : steps)
        widest = std::max(widest, fm.horizontalAdvance(label(s)));
    const size_t every =
        std::max<size_t>(1, size_t(std::ceil((widest + 6) / std::max(1.0, g.width))));
    painter.setPen(pal.color(QPalette::Text));
    for (size_t i = 0; i < steps.size(); i += every) {
        const double x = g.plot.left() + (static_cast<double>(i) + 0.5) * g.width;
        painter.drawText(QRectF(x - widest, g.plot.bottom() + 2, 2 * widest, fm.height()),
                         Qt::AlignHCenter | Qt::AlignTop, label(steps[i]));
    }
    for (size_t i = 0; i < steps.size(); ++i) {
        const StepReport& s = steps[i];
        const QRectF bar = g.bar(steps, i);
        double y = g.plot.bottom();
        auto segment = [&](TimeNs part, QColor color) {
            if (part <= 0) return;
            // Every part that is there can be seen (at least 1.5 px), even
            // 0.2 ms of exposed copies in a 40 ms step.
            const double h = std::max(1.5, g.height(part));
            painter.fillRect(QRectF(bar.left(), std::max(g.plot.top(), y - h), bar.width(), h),
                             color);
            y -= h;
        };
        if (s.devices.empty()) {
            segment(s.duration, stepPartColor(StepPart::Cpu, dark));
        } else {
            for (size_t part = 0; part < kStepPartCount; ++part)
                segment(s.devices.front().tileParts().part(StepPart(part)),
                        stepPartColor(StepPart(part), dark));
        }
        if (s.slow) {
            painter.setPen(QPen(pal.color(QPalette::Text), 1.5));
            const QPointF top(bar.center().x(), bar.top() - 2);
            painter.setBrush(pal.color(QPalette::Text));
            painter.drawPolygon(QPolygonF({top, top + QPointF(-4, -6), top + QPointF(4, -6)}));
        }
    }
    return out;
}

bool StepBars::fits(const Picture& p) const {
    return !p.image.isNull() && p.of == steps_.get() && p.size == size() &&
           p.dpr == devicePixelRatioF() && p.paletteKey == keyOf(palette());
}

void StepBars::setSteps(Steps reports, Picture picture) {
    if (reports == steps_) return;
    steps_ = std::move(reports);
    if (fits(picture)) picture_ = std::move(picture);
    update();
}

void StepBars::setSteps(Steps reports) {
    setSteps(std::move(reports), Picture());
}

void StepBars::setCurrent(std::optional<int64_t> number) {
    if (number == current_) return;
    current_ = number;
    update();
}

int StepBars::stepAt(QPoint pos) const {
    const BarGeometry g(steps(), size());
    if (steps().empty() || !g.plot.contains(pos)) return -1;
    const int i = static_cast<int>((pos.x() - g.plot.left()) / g.width);
    return std::clamp(i, 0, static_cast<int>(steps().size()) - 1);
}

void StepBars::paintEvent(QPaintEvent*) {
    // The bars are kept as a picture: moving the current step (every scope
    // change) repaints the picture and one outline, not 1,000+ bars.
    if (!fits(picture_)) picture_ = draw(steps_, size(), devicePixelRatioF(), palette());
    QPainter painter(this);
    painter.drawImage(0, 0, picture_.image);
    if (!current_ || steps().empty()) return;
    for (size_t i = 0; i < steps().size(); ++i) {
        if (steps()[i].step.number != *current_) continue;
        painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(BarGeometry(steps(), size()).bar(steps(), i).adjusted(-1, -1, 1, 1));
        break;
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
    QString text = s.rank ? tr("Step %1 of rank %2: %3")
                                .arg(s.step.number)
                                .arg(*s.rank)
                                .arg(shortDuration(s.duration))
                          : tr("Step %1: %2").arg(s.step.number).arg(shortDuration(s.duration));
    if (s.slow && s.slowerBecause)
        text += tr(" — slow: %1 +%2").arg(stepPartLabel(*s.slowerBecause), shortDuration(s.grewBy));
    if (!s.devices.empty()) {
        for (size_t part = 0; part < kStepPartCount; ++part) {
            const TimeNs v = s.devices.front().tileParts().part(StepPart(part));
            if (v > 0) text += "\n" + stepPartLabel(StepPart(part)) + ": " + shortDuration(v);
        }
    }
    QToolTip::showText(help->globalPos(), text, this);
    return true;
}

}  // namespace gapscope::ui
