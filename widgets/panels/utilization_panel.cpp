#include "panels/utilization_panel.h"

#include <QDoubleSpinBox>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollArea>
#include <algorithm>

#include "analysis/gpu_utilization.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_view.h"
#include "timeline/view_state.h"

namespace gapscope::ui {

namespace {
constexpr int kRowHeight = 40;      // the least a GPU's row gets
constexpr int kMaxRowHeight = 160;  // a single GPU does not stretch further
constexpr int kAxisHeight = 36;     // the time axis and the legend under the rows
constexpr int kMaxBuckets = 4000;
}  // namespace

UtilizationChart::UtilizationChart(QWidget* parent) : TimeAxisChart(parent) {
    setMouseTracking(true);
    setMinimumHeight(kRowHeight + kAxisHeight + 8);
}

QString UtilizationChart::rowLabel(size_t r) const {
    return r < static_cast<size_t>(labels_.size()) ? labels_[static_cast<qsizetype>(r)]
                                                   : tr("GPU %1").arg(rows_.at(r).first);
}

void UtilizationChart::setData(Interval window,
                               std::vector<std::pair<int, std::vector<double>>> rows,
                               QStringList labels, TimeNs origin, std::vector<double> means) {
    window_ = window;
    rows_ = std::move(rows);
    labels_ = std::move(labels);
    means_ = std::move(means);
    origin_ = origin;
    setMinimumHeight(static_cast<int>(rows_.size()) * kRowHeight + kAxisHeight + 8);
    update();
}

int UtilizationChart::rowHeight() const {
    if (rows_.empty()) return kRowHeight;
    const int shared = (height() - kAxisHeight - 8) / static_cast<int>(rows_.size());
    return std::clamp(shared, kRowHeight, kMaxRowHeight);
}

std::pair<int, int> UtilizationChart::at(QPoint p) const {
    const auto [x0, w] = plotSpan();
    const int row = (p.y() - 4) / rowHeight();
    if (rows_.empty() || row < 0 || row >= static_cast<int>(rows_.size()) || p.x() < x0 ||
        p.x() >= x0 + w)
        return {-1, -1};
    const auto& bins = rows_[static_cast<size_t>(row)].second;
    if (bins.empty()) return {-1, -1};
    const int i =
        static_cast<int>(static_cast<double>(p.x() - x0) / w * static_cast<double>(bins.size()));
    return {row, std::clamp(i, 0, static_cast<int>(bins.size()) - 1)};
}

Interval UtilizationChart::bucket(int i) const {
    const size_t n = rows_.empty() ? 1 : std::max<size_t>(1, rows_.front().second.size());
    const double per = static_cast<double>(window_.length()) / static_cast<double>(n);
    return {window_.start + static_cast<TimeNs>(per * i),
            window_.start + static_cast<TimeNs>(per * (i + 1))};
}

void UtilizationChart::paintEvent(QPaintEvent*) {
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    if (rows_.empty()) {
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(rect(), Qt::AlignCenter, tr("No GPU activity"));
        return;
    }
    const auto [x0, w] = plotSpan();
    const QColor busy = QColor(0x00, 0x9E, 0x73);
    const QFontMetricsF fm(font());
    const double scaleWidth = fm.horizontalAdvance(QStringLiteral("100 %")) + 6;
    const int rowH = rowHeight();
    for (size_t r = 0; r < rows_.size(); ++r) {
        const double top = 4 + static_cast<double>(r) * rowH, h = rowH - 8;
        const double labelWidth = x0 - 14 - scaleWidth;
        // The GPU, and its mean over the window under it where there is room.
        const bool withMean = r < means_.size() && h >= 2 * fm.height();
        p.setPen(pal.color(QPalette::Text));
        p.drawText(QRectF(4, top, labelWidth + 4, withMean ? h / 2 : h),
                   Qt::AlignRight | (withMean ? Qt::AlignBottom : Qt::AlignVCenter),
                   fm.elidedText(rowLabel(r), Qt::ElideMiddle, labelWidth));
        if (withMean)
            p.drawText(QRectF(4, top + h / 2, labelWidth + 4, h / 2), Qt::AlignRight | Qt::AlignTop,
                       fm.elidedText(tr("mean %1").arg(formatPercent(means_[r])), Qt::ElideRight,
                                     labelWidth));
        // Its scale: 0 and 100 % of the bucket busy, a line at half.
        p.setPen(pal.color(QPalette::PlaceholderText));
        p.drawText(QRectF(x0 - 4 - scaleWidth, top - 2, scaleWidth, fm.height()),
                   Qt::AlignRight | Qt::AlignTop, QStringLiteral("100 %"));
        p.drawText(QRectF(x0 - 4 - scaleWidth, top + h - fm.height() + 2, scaleWidth, fm.height()),
                   Qt::AlignRight | Qt::AlignBottom, QStringLiteral("0"));
        p.fillRect(QRectF(x0, top, w, h), pal.color(QPalette::AlternateBase));
        const auto& bins = rows_[r].second;
        const double bw = static_cast<double>(w) / static_cast<double>(bins.size());
        for (size_t i = 0; i < bins.size(); ++i) {
            const double v = std::clamp(bins[i], 0.0, 1.0);
            if (v <= 0) continue;
            p.fillRect(QRectF(x0 + bw * static_cast<double>(i), top + h * (1 - v),
                              std::max(bw, 1.0), h * v),
                       busy);
        }
        p.setPen(QPen(pal.color(QPalette::Mid), 1, Qt::DotLine));
        p.drawLine(QPointF(x0, top + h / 2), QPointF(x0 + w, top + h / 2));
        if (r < means_.size()) {
            // The mean over the window, across the row.
            const double y = top + h * (1 - std::clamp(means_[r], 0.0, 1.0));
            p.setPen(QPen(pal.color(QPalette::Text), 1, Qt::DashLine));
            p.drawLine(QPointF(x0, y), QPointF(x0 + w, y));
        }
    }
    // The time axis, counted from the trace's start as on the ruler above,
    // and the legend.
    const double axisTop = 4 + static_cast<double>(rows_.size()) * rowH - 4;
    const TimeAxis axis(TimeWindow{window_.start, window_.end}, w);
    const TimeNs step = tickStep(axis, 90);
    p.setPen(pal.color(QPalette::Text));
    p.drawLine(QPointF(x0, axisTop), QPointF(x0 + w, axisTop));
    double lastEnd = -1e9;
    for (const Tick& t : ticks(axis, origin_, 90)) {
        if (!t.major) continue;
        const double x = x0 + axis.toX(t.time);
        p.drawLine(QPointF(x, axisTop), QPointF(x, axisTop + 4));
        const QString label = formatOffset(t.time - origin_, step);
        QRectF r(x + 2, axisTop + 2, fm.horizontalAdvance(label), fm.height());
        if (r.right() > x0 + w) r.moveRight(x0 + w);
        if (r.left() < lastEnd + 4) continue;
        p.drawText(r, Qt::AlignLeft | Qt::AlignTop, label);
        lastEnd = r.right();
    }
    const double legendTop = axisTop + fm.height() + 4;
    const auto [hoverRow, hoverBucket] = mouse_ ? at(*mouse_) : std::pair{-1, -1};
    if (hoverRow < 0) {
        p.fillRect(QRectF(x0, legendTop + 3, 10, 10), busy);
        p.drawText(QRectF(x0 + 14, legendTop, w - 14, fm.height()), Qt::AlignLeft | Qt::AlignTop,
                   tr("the share of each bucket a GPU was busy (kernels, copies, memsets); "
                      "dashed: its mean over the window"));
    }
    if (hoverRow >= 0) {
        // In the legend's place: the bucket under the mouse.
        const Interval b = bucket(hoverBucket);
        p.drawText(QRectF(x0, legendTop, w, fm.height()), Qt::AlignLeft | Qt::AlignTop,
                   tr("%1, %2 – %3: busy %4")
                       .arg(rowLabel(static_cast<size_t>(hoverRow)))
                       .arg(shortDuration(b.start - origin_), shortDuration(b.end - origin_),
                            formatPercent(rows_[static_cast<size_t>(hoverRow)]
                                              .second[static_cast<size_t>(hoverBucket)])));
    }
}

void UtilizationChart::mouseMoveEvent(QMouseEvent* e) {
    mouse_ = e->position().toPoint();
    update();
}

void UtilizationChart::leaveEvent(QEvent*) {
    mouse_.reset();
    update();
}

void UtilizationChart::mousePressEvent(QMouseEvent* e) {
    const auto [row, i] = at(e->position().toPoint());
    if (row >= 0) emit bucketClicked(bucket(i));
}

UtilizationPanel::UtilizationPanel(AnalysisSession* session, ViewState* view, QWidget* parent)
    : AnalysisPanel(session, parent),
      view_(view),
      chart_(new UtilizationChart(this)),
      bucket_(new QDoubleSpinBox(this)),
      note_(new QLabel(this)) {
    bucket_->setDecimals(3);
    bucket_->setRange(0.001, 1e6);
    bucket_->setValue(1.0);
    bucket_->setSuffix(tr(" ms"));
    bucket_->setToolTip(tr("The width of each bucket of the chart"));
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Bucket:"), this));
    top->addWidget(bucket_);
    top->addWidget(note_, 1);
    body()->addLayout(top);
    // Scrolled when there are many GPUs: the chart's height never makes the
    // window taller than the screen.
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(chart_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    body()->addWidget(scroll, 1);
    connect(bucket_, &QDoubleSpinBox::valueChanged, this, &UtilizationPanel::refresh);
    // It follows the timeline's window, whatever the scope.
    connect(view_, &ViewState::visibleChanged, this, &UtilizationPanel::refresh);
    connect(chart_, &UtilizationChart::bucketClicked, session,
            [session](Interval b) { session->navigate(NavTarget::toRange(b)); });
    chart_->addActions(tableExportActions(chart_, [this] { return snapshot(); }));
    chart_->setContextMenuPolicy(Qt::ActionsContextMenu);
}

TableSnapshot UtilizationPanel::snapshot() const {
    TableSnapshot t;
    t.protect = protectedFilesOf(this);
    const auto trace = session()->trace();
    const size_t n = chart_->buckets();
    t.title = title().toStdString();
    if (!trace || n == 0) return t;
    const Interval w = chart_->window();
    QStringList means;
    for (size_t r = 0; r < chart_->means().size(); ++r)
        means << tr("%1 mean %2").arg(chart_->rowLabel(r), formatPercent(chart_->means()[r]));
    t.title = tr("GPU Utilisation (%1, from %2 to %3; %4)")
                  .arg(note_->text(), shortDuration(w.start - trace->spanStart),
                       shortDuration(w.end - trace->spanStart), means.join(QStringLiteral(", ")))
                  .toStdString();
    // The chart's buckets as a table: each GPU's busy share of each.
    ResultTable table;
    table.id = "utilization";
    table.title = t.title;
    table.columns = {{"start_ns", tr("Start").toStdString(), Unit::Time},
                     {"end_ns", tr("End").toStdString(), Unit::Time}};
    for (size_t r = 0; r < chart_->rows().size(); ++r)
        table.columns.push_back({"gpu_" + std::to_string(chart_->rows()[r].first) + "_busy",
                                 tr("%1 busy").arg(chart_->rowLabel(r)).toStdString(),
                                 Unit::Share});
    for (size_t i = 0; i < n; ++i) {
        const Interval b = chart_->bucket(static_cast<int>(i));
        ResultRow row;
        row.cells = {b.start, b.end};
        for (const auto& [device, bins] : chart_->rows())
            row.cells.push_back(bins[i]);
        row.ref.kind = ResultRef::Kind::Range;
        row.ref.range = b;
        table.rows.push_back(std::move(row));
    }
    auto model = std::make_shared<AnalysisTableModel>();
    model->setResult(resultRows(table, trace->spanStart));
    t.model = model.get();
    t.rows = allRows(*model);
    t.owned = std::move(model);
    return t;
}

void UtilizationPanel::clearContents() {
    chart_->setData({}, {}, {}, 0, {});
    note_->clear();
}

struct UtilizationPanel::Computed {
    Interval window;
    TimeNs origin = 0;  // the trace's start
    std::vector<std::pair<int, std::vector<double>>> rows;
    std::vector<double> means;  // each row's busy share of the window
    QStringList labels;
    QString note;
};

namespace {

// The visible window and the bucket asked for, read on the GUI thread.
struct UtilizationInputs {
    Interval window;
    TimeNs bucketNs = 0;
};

std::optional<UtilizationPanel::Computed> computeUtilization(const AnalysisPanel::Request& request,
                                                             const UtilizationInputs& in) {
    const TimeNs wanted =
        in.bucketNs > 0 ? (in.window.length() + in.bucketNs - 1) / in.bucketNs : 1;
    const int bins = static_cast<int>(std::clamp<TimeNs>(wanted, 1, kMaxBuckets));
    UtilizationPanel::Computed c;
    c.window = in.window;
    c.origin = request.trace().spanStart;
    for (const GpuDevice& d : request.trace().gpuDevices) {
        if (request.cancelled()) return std::nullopt;
        if (d.busy.empty()) continue;
        c.rows.push_back({d.index, utilizationBins(d, in.window, bins)});
        c.means.push_back(busyShareWithin(d, in.window).value_or(0));
        c.labels.push_back(QString::fromStdString(request.trace().gpuLabel(d.index)));
    }
    c.note =
        wanted > kMaxBuckets
            ? UtilizationPanel::tr("%1 buckets of %2 (wider than asked: at most %3 in the window)")
                  .arg(bins)
                  .arg(shortDuration(in.window.length() / bins))
                  .arg(kMaxBuckets)
            : UtilizationPanel::tr("%1 buckets in the visible window").arg(bins);
    return c;
}

}  // namespace

AnalysisPanel::Work UtilizationPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                              AnalysisScope scope, TimeNs threshold) {
    const TimeWindow v = view_->visible();
    const UtilizationInputs in{{v.start, v.end}, static_cast<TimeNs>(bucket_->value() * 1e6)};
    return computeThen(indexed, scope, threshold, in, &computeUtilization,
                       &UtilizationPanel::present);
}

void UtilizationPanel::present(const Computed& c) {
    chart_->setData(c.window, c.rows, c.labels, c.origin, c.means);
    note_->setText(c.note);
}

QString UtilizationPanel::scopeText() const {
    const TimeWindow v = view_->visible();
    return tr("Visible window (%1)").arg(shortDuration(v.end - v.start));
}

}  // namespace gapscope::ui
