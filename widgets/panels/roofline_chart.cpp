#include "panels/roofline_chart.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>
#include <cmath>

namespace gapscope::ui {

namespace {

constexpr double kMaxRadius = 14, kMinRadius = 2.5;

QString decade(int e) {
    // 0.001 … 10000 as people write them.
    if (e >= 0) return QString::number(std::pow(10.0, e), 'f', 0);
    return QString::number(std::pow(10.0, e), 'f', -e);
}

}  // namespace

RooflineChart::RooflineChart(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setAccessibleName(tr("Roofline"));
}

void RooflineChart::setData(std::vector<RooflinePoint> points, std::optional<RooflineRoofs> roofs) {
    points_ = std::move(points);
    roofs_ = std::move(roofs);
    maxTime_ = 0;
    for (const RooflinePoint& p : points_)
        maxTime_ = std::max(maxTime_, p.time);
    // The largest drawn first so the small stay visible.
    largestFirst_.resize(points_.size());
    for (size_t i = 0; i < largestFirst_.size(); ++i)
        largestFirst_[i] = i;
    std::sort(largestFirst_.begin(), largestFirst_.end(),
              [&](size_t x, size_t y) { return points_[x].time > points_[y].time; });
    hovered_ = -1;
    update();
}

QPointF RooflineChart::Axes::at(double intensity, double tflops) const {
    const double lx = std::log10(std::max(intensity, 1e-12));
    const double ly = std::log10(std::max(tflops, 1e-12));
    return {plot.left() + (lx - x0) / (x1 - x0) * plot.width(),
            plot.bottom() - (ly - y0) / (y1 - y0) * plot.height()};
}

RooflineChart::Axes RooflineChart::axes() const {
    Axes a;
    const QFontMetrics fm(font());
    const double left = fm.horizontalAdvance(QStringLiteral("10000")) + 14;
    const double right = fm.horizontalAdvance(QStringLiteral("10000")) / 2.0 + 6;
    a.plot = QRectF(left, fm.height() + 6, std::max(10.0, width() - left - right),
                    std::max(10.0, height() - 2.0 * fm.height() - 22));
    // Decades that hold every point and roof, with a margin.
    double lo = 1e9, hi = -1e9, ylo = 1e9, yhi = -1e9;
    for (const RooflinePoint& p : points_) {
        if (p.intensity <= 0 || p.tflops <= 0) continue;
        lo = std::min(lo, std::log10(p.intensity));
        hi = std::max(hi, std::log10(p.intensity));
        ylo = std::min(ylo, std::log10(p.tflops));
        yhi = std::max(yhi, std::log10(p.tflops));
    }
    if (roofs_) {
        for (const auto& [name, peak] : roofs_->peaks) {
            yhi = std::max(yhi, std::log10(peak));
            if (roofs_->memoryTBps > 0) hi = std::max(hi, std::log10(peak / roofs_->memoryTBps));
        }
    }
    if (lo > hi) lo = -1, hi = 3;
    if (ylo > yhi) ylo = -1, yhi = 3;
    a.x0 = std::floor(lo - 0.3);
    a.x1 = std::ceil(hi + 0.3);
    a.y0 = std::floor(ylo - 0.3);
    a.y1 = std::ceil(yhi + 0.2);
    return a;
}

double RooflineChart::radius(TimeNs time) const {
    if (maxTime_ <= 0) return kMinRadius;
    // Area to scale with the time.
    return std::max(kMinRadius, kMaxRadius * std::sqrt(static_cast<double>(time) /
                                                       static_cast<double>(maxTime_)));
}

QPointF RooflineChart::centerOf(size_t i) const {
    return axes().at(points_[i].intensity, points_[i].tflops);
}

int RooflineChart::pointAt(QPointF pos) const {
    const Axes a = axes();
    int best = -1;
    double bestRadius = 1e9;
    for (size_t i = 0; i < points_.size(); ++i) {
        const RooflinePoint& p = points_[i];
        if (p.intensity <= 0 || p.tflops <= 0) continue;
        const double r = radius(p.time) + 2;
        const QPointF c = a.at(p.intensity, p.tflops);
        if (QLineF(c, pos).length() <= r && r < bestRadius) {
            best = static_cast<int>(i);
            bestRadius = r;
        }
    }
    return best;
}

void RooflineChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QColor text = pal.color(QPalette::Text);
    const QColor faint = pal.color(QPalette::PlaceholderText);
    if (points_.empty()) {
        p.setPen(faint);
        p.drawText(
            rect(), Qt::AlignCenter,
            tr("No op with FLOPs ran GPU work here (a profile of the ops' shapes gives them)"));
        return;
    }
    const Axes a = axes();
    const QFontMetrics fm(font());
    // The grid: a line per decade.
    QColor grid = faint;
    grid.setAlpha(60);
    for (int e = static_cast<int>(a.x0); e <= static_cast<int>(a.x1); ++e) {
        const double x = a.at(std::pow(10.0, e), 1).x();
        p.setPen(grid);
        p.drawLine(QPointF(x, a.plot.top()), QPointF(x, a.plot.bottom()));
        p.setPen(faint);
        p.drawText(QRectF(x - 40, a.plot.bottom() + 2, 80, fm.height()), Qt::AlignCenter,
                   decade(e));
    }
    for (int e = static_cast<int>(a.y0); e <= static_cast<int>(a.y1); ++e) {
        const double y = a.at(1, std::pow(10.0, e)).y();
        p.setPen(grid);
        p.drawLine(QPointF(a.plot.left(), y), QPointF(a.plot.right(), y));
        p.setPen(faint);
        p.drawText(QRectF(0, y - fm.height() / 2.0, a.plot.left() - 6, fm.height()),
                   Qt::AlignRight | Qt::AlignVCenter, decade(e));
    }
    p.setPen(faint);
    p.drawText(
        QRectF(a.plot.left(), a.plot.bottom() + fm.height() + 2, a.plot.width(), fm.height()),
        Qt::AlignCenter, tr("Arithmetic intensity (FLOPs per byte)"));
    p.drawText(
        QRectF(a.plot.left(), 0, a.plot.width(), fm.height() + 4), Qt::AlignLeft | Qt::AlignVCenter,
        roofs_ ? tr("TFLOP/s · roofs of %1").arg(roofs_->device)
               : tr("TFLOP/s · the GPU's roofs are unknown: Settings > GPU Peaks gives them"));
    p.setClipRect(a.plot);
    // The roofs: memory up to each compute roof, the highest solid.
    if (roofs_ && roofs_->memoryTBps > 0) {
        double top = 0;
        for (const auto& [name, peak] : roofs_->peaks)
            top = std::max(top, peak);
        for (const auto& [name, peak] : roofs_->peaks) {
            const double ridge = peak / roofs_->memoryTBps;
            const QPointF start = a.at(ridge, peak);
            const QPointF end = a.at(std::pow(10.0, a.x1), peak);
            p.setPen(QPen(text, peak == top ? 1.8 : 1, peak == top ? Qt::SolidLine : Qt::DashLine));
            p.drawLine(start, end);
            // Named at its ridge, where it leaves the memory roof: the
            // ridges are apart where the roofs are close.
            p.setPen(faint);
            p.drawText(QPointF(start.x() + 4, start.y() - 4), name);
        }
        const double ridgeTop = top / roofs_->memoryTBps;
        const double left = std::pow(10.0, a.x0);
        p.setPen(QPen(text, 1.8));
        p.drawLine(a.at(left, left * roofs_->memoryTBps), a.at(ridgeTop, top));
    }
    const QColor compute = pal.color(QPalette::Highlight);
    const QColor memory =
        QColor::fromHsv((compute.hue() + 150) % 360, std::max(140, compute.saturation()),
                        std::clamp(compute.value(), 150, 230));
    for (const size_t i : largestFirst_) {
        const RooflinePoint& pt = points_[i];
        if (pt.intensity <= 0 || pt.tflops <= 0) continue;
        QColor fill = pt.bound == RooflinePoint::Bound::Compute  ? compute
                      : pt.bound == RooflinePoint::Bound::Memory ? memory
                                                                 : faint;
        fill.setAlpha(static_cast<int>(i) == hovered_ ? 230 : 150);
        p.setBrush(fill);
        p.setPen(QPen(static_cast<int>(i) == hovered_ ? text : fill.darker(130), 1));
        const double r = radius(pt.time);
        p.drawEllipse(a.at(pt.intensity, pt.tflops), r, r);
    }
    p.setClipping(false);
    // The legend.
    const QString legend[] = {tr("compute-bound"), tr("memory-bound"), tr("no roof")};
    const QColor colours[] = {compute, memory, faint};
    double x = a.plot.right();
    for (int k = 2; k >= 0; --k) {
        x -= fm.horizontalAdvance(legend[k]) + 22;
        p.setBrush(colours[k]);
        p.setPen(Qt::NoPen);
        p.drawEllipse(QPointF(x + 6, fm.height() / 2.0 + 2), 5, 5);
        p.setPen(faint);
        p.drawText(QPointF(x + 14, fm.ascent() + 2), legend[k]);
    }
}

void RooflineChart::mouseMoveEvent(QMouseEvent* e) {
    const int now = pointAt(e->position());
    if (now != hovered_) {
        hovered_ = now;
        setCursor(now >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
        update();
    }
}

void RooflineChart::leaveEvent(QEvent*) {
    hovered_ = -1;
    update();
}

void RooflineChart::mousePressEvent(QMouseEvent* e) {
    const int i = pointAt(e->position());
    if (i >= 0 && e->button() == Qt::LeftButton) emit pointClicked(points_[size_t(i)].target);
}

bool RooflineChart::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(e);
        const int i = pointAt(help->pos());
        if (i >= 0) {
            const RooflinePoint& pt = points_[size_t(i)];
            QToolTip::showText(help->globalPos(),
                               QStringLiteral("<b>%1</b><br>%2")
                                   .arg(pt.label.toHtmlEscaped(), pt.detail.toHtmlEscaped()),
                               this);
        } else {
            QToolTip::hideText();
            e->ignore();
        }
        return true;
    }
    return QWidget::event(e);
}

}  // namespace gapscope::ui
