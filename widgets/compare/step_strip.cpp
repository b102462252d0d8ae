#include "compare/step_strip.h"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "panels/units.h"

namespace gapscope::ui {

namespace {
constexpr int kStripRow = 22;
constexpr int kStripGap = 6;
constexpr int kStripAxis = 18;
}  // namespace

StepStrip::StepStrip(QWidget* parent) : QWidget(parent) {
    setObjectName(QStringLiteral("stepStrip"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QColor StepStrip::runColour(int run, bool dark) {
    // Okabe-Ito blue and vermilion: apart for every common colour vision.
    if (run == 0) return dark ? QColor(86, 180, 233) : QColor(0, 114, 178);
    return dark ? QColor(240, 140, 60) : QColor(213, 94, 0);
}

void StepStrip::setRuns(StripRun base, StripRun now) {
    runs_[0] = std::move(base);
    runs_[1] = std::move(now);
    update();
}

void StepStrip::clear() {
    runs_[0] = runs_[1] = {};
    update();
}

QSize StepStrip::sizeHint() const {
    return {480, minimumSizeHint().height()};
}

QSize StepStrip::minimumSizeHint() const {
    return {240, 2 * kStripRow + kStripGap + kStripAxis + 4};
}

int StepStrip::rowTop(int run) const {
    return 2 + run * (kStripRow + kStripGap);
}

double StepStrip::Axis::x(double ns) const {
    const double f = to > from ? (ns - from) / (to - from) : 0.5;
    return left + f * (right - left);
}

StepStrip::Axis StepStrip::axis() const {
    Axis a;
    const QFontMetrics fm = fontMetrics();
    a.left = fm.horizontalAdvance(QStringLiteral("Base ")) + 8;
    a.right = width() - fm.horizontalAdvance(QStringLiteral("median 000.00 ms")) - 12;
    double lo = INFINITY, hi = -INFINITY;
    for (const StripRun& r : runs_)
        for (const TimeNs d : r.durations) {
            lo = std::min(lo, double(d));
            hi = std::max(hi, double(d));
        }
    if (!std::isfinite(lo)) return a;
    // A little room either side, and from zero when the steps are close to it.
    const double pad = std::max((hi - lo) * 0.05, hi * 0.01);
    a.from = lo - pad < hi * 0.2 ? 0 : lo - pad;
    a.to = hi + pad;
    return a;
}

void StepStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.setRenderHint(QPainter::Antialiasing);
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    const Axis a = axis();
    const QColor text = palette().color(QPalette::WindowText);
    QColor faint = text;
    faint.setAlpha(60);
    for (int run = 0; run < 2; ++run) {
        const StripRun& r = runs_[run];
        const int top = rowTop(run);
        const QColor colour = runColour(run, dark);
        p.setPen(text);
        p.drawText(QRect(0, top, a.left - 6, kStripRow), Qt::AlignVCenter | Qt::AlignRight,
                   r.label);
        p.setPen(faint);
        p.drawLine(QPointF(a.left, top + kStripRow / 2.0), QPointF(a.right, top + kStripRow / 2.0));
        if (r.durations.empty()) continue;
        if (r.p10 && r.p90) {
            QColor band = colour;
            band.setAlpha(50);
            const double x0 = a.x(double(*r.p10)), x1 = a.x(double(*r.p90));
            p.fillRect(QRectF(x0, top + 3, std::max(x1 - x0, 1.0), kStripRow - 6), band);
        }
        QColor tick = colour;
        tick.setAlpha(r.durations.size() > 200 ? 90 : 170);
        p.setPen(QPen(tick, 1.5));
        for (const TimeNs d : r.durations) {
            const double x = a.x(double(d));
            p.drawLine(QPointF(x, top + 6), QPointF(x, top + kStripRow - 6));
        }
        if (r.median) {
            const double x = a.x(*r.median);
            p.setPen(QPen(colour, 3));
            p.drawLine(QPointF(x, top + 1), QPointF(x, top + kStripRow - 1));
            p.setPen(text);
            p.drawText(QRect(a.right + 8, top, width() - a.right - 8, kStripRow),
                       Qt::AlignVCenter | Qt::AlignLeft,
                       tr("median %1").arg(shortDuration(TimeNs(std::llround(*r.median)))));
        }
    }
    // The axis: its ends and middle.
    const int y = rowTop(2);
    p.setPen(faint);
    p.drawLine(a.left, y, a.right, y);
    p.setPen(palette().color(QPalette::PlaceholderText));
    for (const double f : {0.0, 0.5, 1.0}) {
        const double ns = a.from + f * (a.to - a.from);
        const QString label = shortDuration(TimeNs(std::llround(ns)));
        const int w = fontMetrics().horizontalAdvance(label);
        const int x = static_cast<int>(a.x(ns)) - (f == 0 ? 0 : f == 1 ? w : w / 2);
        p.drawText(QRect(x, y + 2, w + 2, kStripAxis), Qt::AlignLeft | Qt::AlignTop, label);
    }
}

bool StepStrip::event(QEvent* e) {
    if (e->type() != QEvent::ToolTip) return QWidget::event(e);
    const QPoint at = static_cast<QHelpEvent*>(e)->pos();
    const Axis a = axis();
    for (int run = 0; run < 2; ++run) {
        const int top = rowTop(run);
        if (at.y() < top || at.y() >= top + kStripRow) continue;
        const StripRun& r = runs_[run];
        // The step nearest the pointer, within a few pixels.
        std::optional<size_t> nearest;
        double best = 5;
        for (size_t i = 0; i < r.durations.size(); ++i) {
            const double dx = std::abs(a.x(double(r.durations[i])) - at.x());
            if (dx < best) {
                best = dx;
                nearest = i;
            }
        }
        if (!nearest) break;
        QToolTip::showText(static_cast<QHelpEvent*>(e)->globalPos(),
                           tr("%1: step %2, %3")
                               .arg(r.label)
                               .arg(*nearest < r.numbers.size() ? r.numbers[*nearest] : 0)
                               .arg(shortDuration(r.durations[*nearest])),
                           this);
        return true;
    }
    QToolTip::hideText();
    e->ignore();
    return true;
}

}  // namespace gapscope::ui
