#include "timeline/overview_strip.h"

#include <QMouseEvent>
#include <QPainter>
#include <algorithm>

#include "analysis/gpu_time_account.h"
#include "analysis/gpu_utilization.h"
#include "panels/analysis_session.h"
#include "panels/units.h"
#include "report/analysis_registry.h"
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

OverviewStrip::~OverviewStrip() = default;

void OverviewStrip::setTrace(std::shared_ptr<const Trace> trace) {
    if (binner_) binner_->cancelAll();
    trace_ = std::move(trace);
    if (indexed_ && indexed_->trace != trace_) indexed_.reset();
    lanes_.clear();
    lanesKey_ = {};
    asked_.reset();
    updateGeometry();
    setFixedHeight(sizeHint().height());
    update();
}

void OverviewStrip::setIndexed(std::shared_ptr<const IndexedTrace> indexed) {
    if (indexed && indexed->trace != trace_) return;  // of a trace no longer shown
    indexed_ = std::move(indexed);
    update();  // the key changed: the lanes are computed again, with the busy shares
}

std::vector<OverviewStrip::Lane> OverviewStrip::computeLanes(const Trace& trace,
                                                             const LanesKey& key,
                                                             const IndexedTrace* indexed,
                                                             const CancelToken* cancel) {
    // Each GPU's busy share as the registered `account` gives it over the
    // whole trace (the Overview's, remembered with the trace's results).
    std::map<int64_t, BusyShare> shares;
    if (indexed) {
        Scope scope;
        scope.index = indexed->index.get();
        scope.memo = indexed->memo.get();
        scope.cancel = cancel;
        const AnalysisResult account =
            computeAnalysis(*analysisRegistry().find("account"), trace, scope);
        if (const ResultTable* gpus = account.table("gpus"))
            for (size_t i = 0; i < gpus->rows.size(); ++i)
                if (const auto* share = std::get_if<double>(&gpus->at(i, "busy_share")))
                    shares[integerOr(gpus->at(i, "device"))] = {
                        *share, textOr(gpus->at(i, "of")) == denominatorName(Denominator::StepTime)
                                    ? Denominator::StepTime
                                    : Denominator::ActiveSpan};
    }
    std::vector<Lane> lanes;
    for (const GpuDevice& d : trace.gpuDevices) {
        if (cancel && cancel->isCancelled()) return {};
        std::optional<BusyShare> busy;
        if (const auto it = shares.find(d.index); it != shares.end()) busy = it->second;
        lanes.push_back({busy, utilizationBins(d, {key.bounds.start, key.bounds.end}, key.width)});
    }
    return lanes;
}

OverviewStrip::LanesKey OverviewStrip::wantedKey(int width) const {
    return {trace_.get(), indexed_.get(), std::max(0, width), state_->bounds()};
}

void OverviewStrip::requestLanes(const LanesKey& key) {
    if (asked_ && *asked_ == key) return;
    asked_ = key;
    if (!binner_) binner_ = std::make_unique<CoalescingRunner>();
    binner_->submit([this, trace = trace_, indexed = indexed_,
                     key](const CancelToken& cancel) -> std::function<void()> {
        auto lanes =
            std::make_shared<std::vector<Lane>>(computeLanes(*trace, key, indexed.get(), &cancel));
        if (cancel.isCancelled()) return {};
        return [this, lanes, key] {
            if (key.trace != trace_.get()) return;
            lanes_ = std::move(*lanes);
            const bool stepTime = std::any_of(lanes_.begin(), lanes_.end(), [](const Lane& l) {
                return l.busy && l.busy->denominator == Denominator::StepTime;
            });
            setToolTip(!stepTime
                           ? tr("GPU utilisation over the whole trace; busy is of each GPU's "
                                "active span. Click to go there.")
                           : tr("GPU utilisation over the whole trace; busy is of the step time "
                                "(the steps' GPU windows), as in the Overview. Click to go "
                                "there."));
            lanesKey_ = key;
            ++lanesFromWorker_;
            if (asked_ && *asked_ == key) asked_.reset();
            update();
        };
    });
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
    const int w = laneWidth();
    const TimeWindow all = state_->bounds();
    p.setPen(c.gutterText);
    if (trace_->gpuDevices.empty()) {
        p.drawText(rect().adjusted(6, 0, 0, 0), Qt::AlignVCenter,
                   tr("No GPU activity in this trace"));
        return;
    }
    const LanesKey wanted = wantedKey(w);
    if (!(lanesKey_ == wanted)) {
        // A grab() (screenshots, tests) wants the finished strip at once.
        const QPaintDevice* target = redirected(nullptr);
        if (target && target->devType() == QInternal::Pixmap) {
            lanes_ = computeLanes(*trace_, wanted, indexed_.get(), nullptr);
            lanesKey_ = wanted;
        } else {
            requestLanes(wanted);
        }
    }
    const bool current = lanesKey_ == wanted;
    int y = 3;
    for (size_t lane = 0; lane < trace_->gpuDevices.size(); ++lane) {
        const GpuDevice& d = trace_->gpuDevices[lane];
        p.setPen(c.gutterText);
        const QRect label(6, y, gutter_ - 10, kLaneHeight);
        p.fillRect(QRect(gutter_, y, w, kLaneHeight - 2), c.gapFill);
        if (lane >= lanes_.size()) {  // nothing computed yet for this trace
            p.drawText(label, Qt::AlignVCenter,
                       tr("%1 busy …").arg(QString::fromStdString(trace_->gpuLabel(d.index))));
            y += kLaneHeight;
            continue;
        }
        // The share of the step time (or the active span), as the Overview.
        const auto& busy = lanes_[lane].busy;
        const QString gpu = QString::fromStdString(trace_->gpuLabel(d.index));
        p.drawText(label, Qt::AlignVCenter,
                   busy        ? tr("%1 busy %2").arg(gpu, formatPercent(busy->share))
                   : !indexed_ ? tr("%1 busy …").arg(gpu)
                               : gpu);
        // The bins of another width are stretched until this width's arrive.
        const std::vector<double>& bins = lanes_[lane].bins;
        const double scale = current || w == 0 ? 1.0 : double(bins.size()) / double(w);
        for (int x = 0; x < w; ++x) {
            const auto i = static_cast<size_t>(double(x) * scale);
            if (i >= bins.size()) break;
            const double u = std::clamp(bins[i], 0.0, 1.0);
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
