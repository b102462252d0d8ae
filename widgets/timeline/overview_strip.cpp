#include "timeline/overview_strip.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

#include "analysis/gpu_utilization.h"
#include "timeline/timeline_colors.h"

namespace gapscope::ui {

namespace {
constexpr int kLaneHeight = 16;
}

OverviewStrip::OverviewStrip(ViewState* state, int gutterWidth, QWidget* parent)
    : QWidget(parent), state_(state), gutter_(gutterWidth) {
    connect(state_, &ViewState::visibleChanged, this, qOverload<>(&QWidget::update));
    setCursor(Qt::PointingHandCursor);
    setToolTip(tr("GPU utilisation over the whole trace; click to go there"));
}

void OverviewStrip::setTrace(std::shared_ptr<const Trace> trace) {
    trace_ = std::move(trace);
    lanes_.clear();
    lanesWidth_ = -1;
    updateGeometry();
    setFixedHeight(sizeHint().height());
    update();
}

const std::vector<OverviewStrip::Lane>& OverviewStrip::lanes(int width) {
    const TimeWindow all = state_->bounds();
    if (width == lanesWidth_ && all.start == lanesBounds_.start && all.end == lanesBounds_.end)
        return lanes_;
    lanes_.clear();
    for (const GpuDevice& d : trace_->gpuDevices)
        lanes_.push_back({busyPercentOfActiveSpan(d).value_or(0.0),
                          utilizationBins(d, {all.start, all.end}, std::max(0, width))});
    lanesWidth_ = width;
    lanesBounds_ = all;
    return lanes_;
}

QSize OverviewStrip::sizeHint() const {
    const int lanes = trace_ ? std::max<int>(1, static_cast<int>(trace_->gpuDevices.size())) : 1;
    return {600, lanes * kLaneHeight + 6};
}

void OverviewStrip::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const TimelineColors c = TimelineColors::fromPalette(palette());
    p.fillRect(rect(), c.gutter);
    if (!trace_) return;
    const int w = width() - gutter_ - rightMargin_;
    const TimeWindow all = state_->bounds();
    p.setPen(c.gutterText);
    if (trace_->gpuDevices.empty()) {
        p.drawText(rect().adjusted(6, 0, 0, 0), Qt::AlignVCenter,
                   tr("No GPU activity in this trace"));
        return;
    }
    int y = 3;
    const std::vector<Lane>& gpuLanes = lanes(w);
    for (size_t lane = 0; lane < gpuLanes.size(); ++lane) {
        const GpuDevice& d = trace_->gpuDevices[lane];
        const std::vector<double>& bins = gpuLanes[lane].bins;
        p.setPen(c.gutterText);
        p.drawText(QRect(6, y, gutter_ - 10, kLaneHeight), Qt::AlignVCenter,
                   tr("GPU %1 busy %2%").arg(d.index).arg(gpuLanes[lane].busyPercent, 0, 'f', 1));
        p.fillRect(QRect(gutter_, y, w, kLaneHeight - 2), c.gapFill);
        for (int x = 0; x < w; ++x) {
            const double u = std::clamp(bins[static_cast<size_t>(x)], 0.0, 1.0);
            if (u <= 0) continue;
            const int h = std::max(1, static_cast<int>(u * (kLaneHeight - 2)));
            p.fillRect(QRect(gutter_ + x, y + kLaneHeight - 2 - h, 1, h), c.counterLine);
        }
        y += kLaneHeight;
    }
    // The visible window.
    const TimeAxis axis(all, w);
    const TimeWindow v = state_->visible();
    const double a = gutter_ + axis.toX(v.start), b = gutter_ + axis.toX(v.end);
    p.setPen(QPen(c.selection, 1.5));
    p.setBrush(QColor(c.selection.red(), c.selection.green(), c.selection.blue(), 30));
    p.drawRect(QRectF(a, 1, std::max(2.0, b - a), height() - 3));
}

void OverviewStrip::navigate(double x) {
    if (!trace_) return;
    const TimeAxis axis(state_->bounds(), width() - gutter_ - rightMargin_);
    const TimeNs centre = axis.toTime(x - gutter_);
    const TimeWindow v = state_->visible();
    state_->setVisible({centre - v.span() / 2, centre - v.span() / 2 + v.span()},
                       ViewState::History::Record);
}

void OverviewStrip::mousePressEvent(QMouseEvent* e) {
    if (e->position().x() >= gutter_) navigate(e->position().x());
}

void OverviewStrip::mouseMoveEvent(QMouseEvent* e) {
    if (e->buttons() & Qt::LeftButton && e->position().x() >= gutter_) navigate(e->position().x());
}

}  // namespace gapscope::ui
