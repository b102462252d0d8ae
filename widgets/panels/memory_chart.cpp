#include "panels/memory_chart.h"

#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <algorithm>

#include "panels/units.h"
#include "timeline/counter_columns.h"
#include "timeline/timeline_view.h"

namespace gapscope::ui {

MemoryChart::MemoryChart(ViewState* state, QWidget* parent) : TimeAxisChart(parent), state_(state) {
    setMouseTracking(true);
    setMinimumHeight(100);
    connect(state_, &ViewState::visibleChanged, this, [this] { update(); });
}

void MemoryChart::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    allocated_ = reserved_ = kNone;
    peakTime_.reset();
    update();
}

void MemoryChart::setCurves(uint32_t allocated, uint32_t reserved, std::optional<TimeNs> peakTime,
                            double peakValue) {
    allocated_ = allocated;
    reserved_ = reserved;
    peakTime_ = peakTime;
    peakValue_ = peakValue;
    update();
}

void MemoryChart::setBand(std::shared_ptr<const HeldBand> band) {
    band_ = std::move(band);
    update();
}

void MemoryChart::setMoment(std::optional<TimeNs> t) {
    moment_ = t;
    update();
}

QColor MemoryChart::layerColor(size_t layer, size_t layers) {
    if (layer + 1 == layers) return QColor(150, 150, 150, 150);  // "other"
    // Hues a golden angle apart: neighbours differ.
    return QColor::fromHsv(static_cast<int>((30 + 137.5 * static_cast<double>(layer))) % 360, 150,
                           220, 170);
}

void MemoryChart::setCursor(std::optional<TimeNs> t) {
    cursor_ = t;
    update();
}

double MemoryChart::valueAt(uint32_t series, TimeNs t) const {
    const CounterSeries& cs = trace_->counters[series];
    const auto it = std::upper_bound(cs.ts.begin(), cs.ts.end(), t);
    if (it == cs.ts.begin()) return 0;
    return cs.values[static_cast<size_t>(it - cs.ts.begin()) - 1];
}

void MemoryChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const auto [x0, width] = plotSpan();
    const QRectF plot(x0, 8, width, height() - 24);
    if (!trace_ || allocated_ == kNone) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No memory curve"));
        return;
    }
    const TimeWindow w = state_->visible();
    const TimeAxis axis(w, width);
    double hi = trace_->counters[allocated_].extremes.overall().max;
    if (reserved_ != kNone) hi = std::max(hi, trace_->counters[reserved_].extremes.overall().max);
    hi = std::max(hi, 1.0);
    auto yOf = [&](double v) { return plot.bottom() - v / hi * plot.height(); };
    const QColor line = pal.color(QPalette::Highlight);
    // Axis labels: 0 and the top of the scale.
    p.setPen(pal.color(QPalette::PlaceholderText));
    p.drawText(QRectF(4, plot.top() - 6, x0 - 8, 14), Qt::AlignRight, formatBytes(hi));
    p.drawText(QRectF(4, plot.bottom() - 8, x0 - 8, 14), Qt::AlignRight, QStringLiteral("0"));
    p.drawLine(QPointF(x0, plot.bottom()), QPointF(plot.right(), plot.bottom()));
    auto curve = [&](uint32_t series, bool fill) {
        QPainterPath path;
        bool started = false;
        double prevY = plot.bottom();
        forEachCounterColumn(trace_->counters[series], axis, width, [&](int x, MinMax m) {
            const double y = yOf(m.max);
            if (!started) {
                path.moveTo(x0 + x, fill ? plot.bottom() : y);
                path.lineTo(x0 + x, y);
                started = true;
            } else {
                path.lineTo(x0 + x, prevY);
                path.lineTo(x0 + x, y);
            }
            prevY = y;
        });
        if (!started) return;
        if (fill) {
            path.lineTo(path.currentPosition().x(), plot.bottom());
            QColor f = line;
            f.setAlpha(70);
            p.fillPath(path, f);
        }
        p.setPen(QPen(fill ? line : pal.color(QPalette::Text), fill ? 1.5 : 1,
                      fill ? Qt::SolidLine : Qt::DashLine));
        p.drawPath(path);
    };
    if (reserved_ != kNone) curve(reserved_, false);
    curve(allocated_, true);
    // The band: each pixel column's value just after its last event (a
    // binary search per column and layer: the frame's cost is its width).
    if (band_ && !band_->ts.empty()) {
        const size_t layers = band_->names.size();
        std::vector<double> base(static_cast<size_t>(width) + 1, plot.bottom());
        for (size_t l = 0; l < layers; ++l) {
            QPolygonF top, bottom;
            for (int x = 0; x <= width; ++x) {
                const TimeNs at = axis.toTime(x);
                const auto it = std::upper_bound(band_->ts.begin(), band_->ts.end(), at);
                const double v =
                    it == band_->ts.begin()
                        ? 0
                        : static_cast<double>(
                              band_->bytes[l][static_cast<size_t>(it - band_->ts.begin()) - 1]);
                const double y = base[static_cast<size_t>(x)] - v / hi * plot.height();
                bottom.prepend(QPointF(x0 + x, base[static_cast<size_t>(x)]));
                top.append(QPointF(x0 + x, y));
                base[static_cast<size_t>(x)] = y;
            }
            QPolygonF area = top;
            area += bottom;
            p.setPen(Qt::NoPen);
            p.setBrush(layerColor(l, layers));
            p.drawPolygon(area);
        }
        p.setBrush(Qt::NoBrush);
    }
    if (moment_ && *moment_ >= w.start && *moment_ <= w.end) {
        const double x = x0 + axis.toX(*moment_);
        p.setPen(QPen(pal.color(QPalette::Highlight), 2));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    if (peakTime_ && *peakTime_ >= w.start && *peakTime_ <= w.end) {
        const double x = x0 + axis.toX(*peakTime_);
        const double y = yOf(peakValue_);
        p.setPen(QPen(pal.color(QPalette::Text), 1));
        p.setBrush(pal.color(QPalette::Text));
        p.drawEllipse(QPointF(x, y), 3, 3);
        p.drawText(
            QPointF(x + 6, std::max(plot.top() + 10, y + 4)),
            tr("peak %1 at %2")
                .arg(formatBytes(peakValue_), shortDuration(*peakTime_ - trace_->spanStart)));
    }
    if (cursor_ && *cursor_ >= w.start && *cursor_ <= w.end) {
        const double x = x0 + axis.toX(*cursor_);
        p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DotLine));
        p.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }
    if (mouse_ && mouse_->x() >= x0 && mouse_->x() < x0 + width) {
        const TimeNs t = axis.toTime(mouse_->x() - x0);
        QString text =
            tr("%1: allocated %2")
                .arg(shortDuration(t - trace_->spanStart), formatBytes(valueAt(allocated_, t)));
        if (reserved_ != kNone) text += tr(", reserved %1").arg(formatBytes(valueAt(reserved_, t)));
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(x0, height() - 16, width, 14), Qt::AlignLeft, text);
    }
}

void MemoryChart::mouseMoveEvent(QMouseEvent* e) {
    mouse_ = e->position().toPoint();
    update();
}

void MemoryChart::leaveEvent(QEvent*) {
    mouse_.reset();
    update();
}

void MemoryChart::mousePressEvent(QMouseEvent* e) {
    const auto [x0, w] = plotSpan();
    if (!trace_ || e->position().x() < x0) return;
    const TimeAxis axis(state_->visible(), w);
    emit timeClicked(axis.toTime(e->position().x() - x0));
}

}  // namespace gapscope::ui
