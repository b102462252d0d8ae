#include "timeline/overview_strip.h"

#include <QHelpEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
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
    bandKey_.reset();  // (a new trace may live where the last one did)
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
    if (folded()) return {600, kBandHeight + 6};
    const int lanes = trace_ ? std::max<int>(1, static_cast<int>(trace_->gpuDevices.size())) : 1;
    return {600, lanes * kLaneHeight + 6};
}

int OverviewStrip::bandRows() const {
    if (!trace_) return 0;
    return static_cast<int>(std::min<size_t>(trace_->gpuDevices.size(), kBandHeight));
}

std::pair<size_t, size_t> OverviewStrip::bandRowDevices(int row) const {
    // The devices spread over the rows as evenly as whole devices allow.
    const size_t n = trace_ ? trace_->gpuDevices.size() : 0;
    const auto rows = static_cast<size_t>(std::max(1, bandRows()));
    const auto r = static_cast<size_t>(std::clamp(row, 0, bandRows() - 1));
    return {r * n / rows, (r + 1) * n / rows};
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
    if (folded())
        paintBand(p, w);
    else
        paintLanes(p, w, current);
    // The visible window.
    const TimeAxis axis(all, w);
    const TimeWindow v = state_->visible();
    const double a = gutter_ + axis.toX(v.start), b = gutter_ + axis.toX(v.end);
    p.setPen(QPen(c.selection, 1.5));
    p.setBrush(QColor(c.selection.red(), c.selection.green(), c.selection.blue(), 30));
    p.drawRect(QRectF(a, 1, std::max(2.0, b - a), height() - 3));
}

void OverviewStrip::paintLanes(QPainter& p, int w, bool current) {
    const TimelineColors c = TimelineColors::fromPalette(palette());
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
}

void OverviewStrip::paintBand(QPainter& p, int w) {
    const TimelineColors c = TimelineColors::fromPalette(palette());
    const int rows = bandRows();
    const int rowHeight = std::max(1, kBandHeight / std::max(1, rows));
    const QRect area(gutter_, 3, w, rows * rowHeight);
    p.fillRect(area, c.gapFill);
    // The gutter: how many devices, and the spread of their busy shares.
    std::optional<double> low, high;
    for (const Lane& lane : lanes_)
        if (lane.busy) {
            low = std::min(low.value_or(1.0), lane.busy->share);
            high = std::max(high.value_or(0.0), lane.busy->share);
        }
    const size_t devices = trace_->gpuDevices.size();
    const QString count = tr("%n GPUs", nullptr, static_cast<int>(devices));
    const QString spread = !low ? tr("busy …")
                           : *low == *high
                               ? tr("busy %1").arg(formatPercent(*low))
                               : tr("busy %1–%2").arg(formatPercent(*low), formatPercent(*high));
    const size_t fewest = devices / size_t(rows),
                 most = (devices + size_t(rows) - 1) / size_t(rows);
    const QString perRow = most == 1        ? tr("one row per GPU")
                           : fewest == most ? tr("one row per %1 GPUs").arg(most)
                                            : tr("one row per %1–%2 GPUs").arg(fewest).arg(most);
    p.setPen(c.gutterText);
    p.drawText(QRect(6, 3, gutter_ - 10, kBandHeight), Qt::AlignTop | Qt::AlignLeft,
               count + "\n" + spread + "\n" + perRow);
    if (lanes_.size() != trace_->gpuDevices.size() || w <= 0) return;
    // Idle is the gap shading as the lanes show it: its translucent fill
    // over the strip's background.
    const QColor wash = c.gapFill, ground = c.gutter;
    const double alpha = wash.alphaF();
    const QColor idle =
        QColor::fromRgbF(float(wash.redF() * alpha + ground.redF() * (1 - alpha)),
                         float(wash.greenF() * alpha + ground.greenF() * (1 - alpha)),
                         float(wash.blueF() * alpha + ground.blueF() * (1 - alpha)));
    const QColor busy = c.counterLine;
    const std::pair<QRgb, QRgb> inks{idle.rgb(), busy.rgb()};
    if (!bandKey_ || bandKey_->first != lanesKey_ || bandKey_->second != inks) {
        // Each pixel: the mean busy share of its devices in its column,
        // blended from the idle colour to the busy one.
        const int columns = static_cast<int>(lanes_.front().bins.size());
        bandImage_ = QImage(std::max(1, columns), rows, QImage::Format_ARGB32_Premultiplied);
        for (int r = 0; r < rows; ++r) {
            const auto [first, last] = bandRowDevices(r);
            auto* line = reinterpret_cast<QRgb*>(bandImage_.scanLine(r));
            for (int x = 0; x < columns; ++x) {
                double sum = 0;
                for (size_t d = first; d < last; ++d) {
                    const std::vector<double>& bins = lanes_[d].bins;
                    if (size_t(x) < bins.size()) sum += std::clamp(bins[size_t(x)], 0.0, 1.0);
                }
                const double u = last > first ? sum / double(last - first) : 0.0;
                auto mix = [&](int a, int b) { return int(std::lround(a + (b - a) * u)); };
                line[x] = qRgb(mix(idle.red(), busy.red()), mix(idle.green(), busy.green()),
                               mix(idle.blue(), busy.blue()));
            }
        }
        bandKey_ = std::pair(lanesKey_, inks);
    }
    // (Stretched while another width's bins are in; one device row per band row.)
    p.drawImage(area, bandImage_);
}

bool OverviewStrip::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip && folded()) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const int rows = bandRows();
        const int rowHeight = std::max(1, kBandHeight / std::max(1, rows));
        const int y = help->pos().y() - 3, x = help->pos().x() - gutter_;
        const int row = y >= 0 ? y / rowHeight : -1;
        if (row >= 0 && row < rows && x >= 0 && x < laneWidth()) {
            const auto [first, last] = bandRowDevices(row);
            QString text =
                last - first == 1
                    ? QString::fromStdString(trace_->gpuLabel(trace_->gpuDevices[first].index))
                    : tr("%1 … %2").arg(
                          QString::fromStdString(trace_->gpuLabel(trace_->gpuDevices[first].index)),
                          QString::fromStdString(
                              trace_->gpuLabel(trace_->gpuDevices[last - 1].index)));
            if (first < lanes_.size() && last - first == 1 && lanes_[first].busy)
                text += tr(": busy %1").arg(formatPercent(lanes_[first].busy->share));
            QToolTip::showText(help->globalPos(), text + "\n" + tr("Click to go there"), this);
            return true;
        }
    }
    return QWidget::event(e);
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
