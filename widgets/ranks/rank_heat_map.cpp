#include "ranks/rank_heat_map.h"

#include <QHelpEvent>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include "analysis/distribution.h"
#include "analysis/rank_totals.h"
#include "io/rank_files.h"
#include "panels/units.h"

namespace gapscope::ui {

namespace {

constexpr int kHeaderHeight = 18;
constexpr int kLegendHeight = 22;
constexpr int kMinCell = 6;
constexpr int kMaxCellWidth = 56;
constexpr int kCellHeight = 16;
constexpr int kMarkWidth = 6;  // the outlier's mark, left of the cells

// Light (little) to dark (much): one hue, readable in both palettes.
QColor shadeColour(double t, bool dark) {
    t = std::clamp(t, 0.0, 1.0);
    const QColor lo = dark ? QColor(105, 88, 62) : QColor(255, 236, 204);
    const QColor hi = dark ? QColor(255, 150, 60) : QColor(191, 54, 12);
    return QColor::fromRgbF(static_cast<float>(lo.redF() + t * (hi.redF() - lo.redF())),
                            static_cast<float>(lo.greenF() + t * (hi.greenF() - lo.greenF())),
                            static_cast<float>(lo.blueF() + t * (hi.blueF() - lo.blueF())));
}

}  // namespace

RankHeatMap::RankHeatMap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAccessibleName(tr("ranks by steps"));
}

void RankHeatMap::setDocument(std::shared_ptr<const RanksDocument> doc) {
    doc_ = std::move(doc);
    current_ = -1;
    // What the orders and the filter read, once per document: who stands
    // apart (as the Ranks table has it), each rank's keys and words.
    outliers_.clear();
    keys_.clear();
    if (doc_) {
        outliers_ = rankOutliersOf(doc_->ranks);
        for (const RankRow& r : doc_->ranks) {
            const RankTotals t = rankTotals(r.entry.figures);
            const auto steps =
                static_cast<double>(std::max<size_t>(1, r.entry.figures.steps.size()));
            size_t waited = 0;
            for (const RankStep& st : r.entry.figures.steps)
                waited += st.wait.has_value();
            keys_.push_back({double(t.duration) / steps,
                             t.gpuTime > 0 ? double(t.busy) / double(t.gpuTime) : 2.0,
                             waited ? double(t.wait) / double(waited) : -1.0,
                             tr("rank %1").arg(r.entry.rank),
                             QString::fromStdString(r.entry.host)});
        }
    }
    rebuild();
}

void RankHeatMap::setMetric(Metric m) {
    metric_ = m;
    rebuild();
}

void RankHeatMap::setOrder(Order o) {
    order_ = o;
    current_ = -1;
    rebuild();
}

void RankHeatMap::setFilter(const QString& text, bool outliersOnly) {
    filter_ = text.trimmed();
    outliersOnly_ = outliersOnly;
    current_ = -1;
    rebuild();
}

bool RankHeatMap::isOutlier(int row) const {
    const size_t r = rankRow(row);
    return r < outliers_.size() && outliers_[r].outlier;
}

void RankHeatMap::rebuild() {
    rows_.clear();
    steps_.clear();
    cells_.clear();
    min_ = max_ = 0;
    stragglerCells_.clear();
    if (doc_) {
        std::set<int64_t> numbers;
        for (size_t i = 0; i < doc_->ranks.size(); ++i) {
            const RankEntry& e = doc_->ranks[i].entry;
            if (e.figures.steps.empty()) continue;
            if (outliersOnly_ && !outliers_[i].outlier) continue;
            if (!filter_.isEmpty() && !keys_[i].label.contains(filter_, Qt::CaseInsensitive) &&
                !keys_[i].host.contains(filter_, Qt::CaseInsensitive))
                continue;
            rows_.push_back(i);
            for (const RankStep& s : e.figures.steps)
                numbers.insert(s.number);
        }
        // Each order's key, then the rank: the same rows in the same order
        // whatever order they came in. (A share none, or no wait: last.)
        auto rankOf = [&](size_t i) { return doc_->ranks[i].entry.rank; };
        std::stable_sort(rows_.begin(), rows_.end(), [&](size_t a, size_t b) {
            const Keys &x = keys_[a], &y = keys_[b];
            switch (order_) {
                case Order::Rank:
                    break;
                case Order::StepTime:
                    if (x.stepTime != y.stepTime) return x.stepTime > y.stepTime;
                    break;
                case Order::Busy:
                    if (x.busy != y.busy) return x.busy < y.busy;
                    break;
                case Order::Wait:
                    if (x.wait != y.wait) return x.wait > y.wait;
                    break;
                case Order::Host: {
                    // Natural order: node2 before node10.
                    const std::string &p = doc_->ranks[a].entry.host,
                                      &q = doc_->ranks[b].entry.host;
                    if (p != q) return naturalLess(p, q);
                    break;
                }
                case Order::Outlier: {
                    // Those that stand apart first, then the furthest scores.
                    if (outliers_[a].outlier != outliers_[b].outlier) return outliers_[a].outlier;
                    const double p = std::fabs(outliers_[a].score.value_or(0.0));
                    const double q = std::fabs(outliers_[b].score.value_or(0.0));
                    if (p != q) return p > q;
                    break;
                }
            }
            return rankOf(a) < rankOf(b);
        });
        steps_.assign(numbers.begin(), numbers.end());
        for (const size_t i : rows_) {
            std::vector<const RankStep*> row(steps_.size(), nullptr);
            for (const RankStep& s : doc_->ranks[i].entry.figures.steps) {
                const auto at = std::lower_bound(steps_.begin(), steps_.end(), s.number);
                if (!row[static_cast<size_t>(at - steps_.begin())])
                    row[static_cast<size_t>(at - steps_.begin())] = &s;
            }
            cells_.push_back(std::move(row));
        }
        // The colour scale is relative to the median step: a step at or
        // under it is the lightest, one half as long again the darkest (a
        // 31.4-33.0 ms spread is a few percent, not white to red). A wait
        // is a share of the median step, an idle share is itself.
        std::vector<TimeNs> durations;
        for (int r = 0; r < rankCount(); ++r)
            for (int c = 0; c < stepCount(); ++c)
                if (const RankStep* s = stepOf(r, c)) durations.push_back(s->duration());
        // Core's median, as every other view's.
        const double median = durations.empty() ? 0 : double(medianOf(std::move(durations)));
        switch (metric_) {
            case Metric::StepTime:
                min_ = median;
                max_ = median * 1.5;
                break;
            case Metric::Wait:
                min_ = 0;
                max_ = median * 0.5;
                break;
            case Metric::IdleShare:
                min_ = 0;
                max_ = 1;
                break;
        }
        // The stragglers' cells, found once (not per paint).
        std::map<int64_t, std::vector<int>> rowsOfRank;
        for (int r = 0; r < rankCount(); ++r)
            rowsOfRank[doc_->ranks[rankRow(r)].entry.rank].push_back(r);
        for (const StepStraggler& st : doc_->comparison.stragglers) {
            const auto col = std::lower_bound(steps_.begin(), steps_.end(), st.step);
            const auto rows = rowsOfRank.find(st.rank);
            if (col == steps_.end() || *col != st.step || rows == rowsOfRank.end()) continue;
            for (const int r : rows->second)
                stragglerCells_.emplace_back(r, static_cast<int>(col - steps_.begin()));
        }
    }
    labelWidth_ = fontMetrics().horizontalAdvance(QStringLiteral("rank 00000")) + 8 + kMarkWidth;
    updateGeometry();
    update();
}

const RankStep* RankHeatMap::stepOf(int row, int column) const {
    if (row < 0 || column < 0 || row >= rankCount() || column >= stepCount()) return nullptr;
    return cells_[static_cast<size_t>(row)][static_cast<size_t>(column)];
}

std::optional<double> RankHeatMap::value(int row, int column) const {
    const RankStep* s = stepOf(row, column);
    if (!s) return std::nullopt;
    switch (metric_) {
        case Metric::StepTime:
            return static_cast<double>(s->duration());
        case Metric::IdleShare:
            if (s->duration() <= 0) return std::nullopt;
            return static_cast<double>(s->idle) / static_cast<double>(s->duration());
        case Metric::Wait:
            if (!s->wait) return std::nullopt;
            return static_cast<double>(*s->wait);
    }
    return std::nullopt;
}

std::optional<double> RankHeatMap::shade(int row, int column) const {
    const auto v = value(row, column);
    if (!v) return std::nullopt;
    const double span = max_ > min_ ? max_ - min_ : 1.0;
    return std::clamp((*v - min_) / span, 0.0, 1.0);
}

int RankHeatMap::cellWidth() const {
    if (stepCount() == 0) return kMinCell;
    const int room = (width() - labelWidth_ - 4) / stepCount();
    return std::clamp(room, kMinCell, kMaxCellWidth);
}

int RankHeatMap::cellHeight() const {
    return rankCount() > 64 ? kMinCell : kCellHeight;
}

QRect RankHeatMap::cellRect(int row, int column) const {
    return {labelWidth_ + column * cellWidth(), kHeaderHeight + row * cellHeight(), cellWidth(),
            cellHeight()};
}

QSize RankHeatMap::sizeHint() const {
    const int legend = 120 + fontMetrics().horizontalAdvance(QStringLiteral("000.00 ms")) + 12;
    return {labelWidth_ + std::max(std::max(1, stepCount()) * 32, legend) + 8,
            kHeaderHeight + std::max(1, rankCount()) * cellHeight() + kLegendHeight + 8};
}

QSize RankHeatMap::minimumSizeHint() const {
    return {labelWidth_ + std::max(1, stepCount()) * kMinCell + 8, sizeHint().height()};
}

QString RankHeatMap::cellText(int row, int column) const {
    const RankStep* s = stepOf(row, column);
    if (!s) return {};
    const RankRow& r = doc_->ranks[rankRow(row)];
    QString text = tr("rank %1, %2: %3, busy %4, idle %5")
                       .arg(r.entry.rank)
                       .arg(QString::fromStdString(s->name))
                       .arg(shortDuration(s->duration()))
                       .arg(shortDuration(s->busy))
                       .arg(shortDuration(s->idle));
    // Only a rank in the step's collective (the match the ranks waited in) has a wait.
    if (s->collectiveEnter && s->wait)
        text += tr("; waited %1 in %2, then %3 in transfer")
                    .arg(shortDuration(s->wait.value_or(0)))
                    .arg(QString::fromStdString(s->collectiveName).left(60))
                    .arg(shortDuration(s->transfer.value_or(0)));
    else if (s->collectiveEnter)
        text += tr("; not in the step's collective (first entered %1)")
                    .arg(QString::fromStdString(s->collectiveName).left(60));
    for (const StepStraggler& st : doc_->comparison.stragglers)
        if (st.step == s->number && st.rank == r.entry.rank)
            text += tr("; the straggler: the others waited %1").arg(shortDuration(st.othersWait));
    if (isOutlier(row)) {
        const RankOutlier& o = outliers_[rankRow(row)];
        const QString figure = o.figure == RankFigure::StepTime    ? tr("step time")
                               : o.figure == RankFigure::BusyShare ? tr("GPU busy")
                                                                   : tr("wait");
        text += tr("; stands apart in %1 (score %2)").arg(figure).arg(*o.score, 0, 'f', 1);
    }
    return text;
}

void RankHeatMap::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    const bool dark = palette().color(QPalette::Base).lightness() < 128;
    p.setPen(palette().color(QPalette::WindowText));
    const QFontMetrics fm = fontMetrics();
    if (rankCount() == 0) {
        p.drawText(rect(), Qt::AlignCenter,
                   doc_ && (outliersOnly_ || !filter_.isEmpty()) ? tr("No rank matches.")
                                                                 : tr("No rank has steps."));
        return;
    }
    const int cw = cellWidth(), ch = cellHeight();
    // Step numbers above their columns, as many as fit.
    const int every = std::max(1, fm.horizontalAdvance(QString::number(steps_.back())) / cw + 1);
    for (int c = 0; c < stepCount(); c += every)
        p.drawText(QRect(labelWidth_ + c * cw, 0, cw * every, kHeaderHeight),
                   Qt::AlignLeft | Qt::AlignVCenter,
                   QString::number(steps_[static_cast<size_t>(c)]));
    // Only the rows the paint exposes: the grid of a thousand ranks is a
    // scroll area's tall child.
    const int firstRow = std::clamp((event->rect().top() - kHeaderHeight) / ch - 1, 0, rankCount());
    const int lastRow =
        std::clamp((event->rect().bottom() - kHeaderHeight) / ch + 2, 0, rankCount());
    const int labelEvery = std::max(1, (fm.height() + ch - 1) / ch);
    for (int r = firstRow - firstRow % labelEvery; r < lastRow; r += labelEvery)
        p.drawText(QRect(0, kHeaderHeight + r * ch, labelWidth_ - 6 - kMarkWidth, ch * labelEvery),
                   Qt::AlignRight | Qt::AlignTop, keys_[rankRow(r)].label);
    // The outliers' marks: a bar left of their cells, at any row height.
    const QColor mark = palette().color(QPalette::Highlight);
    bool anyOutlier = false;
    for (int r = 0; r < rankCount(); ++r)
        if (isOutlier(r)) {
            anyOutlier = true;
            if (r >= firstRow && r < lastRow)
                p.fillRect(QRect(labelWidth_ - kMarkWidth, kHeaderHeight + r * ch, kMarkWidth - 2,
                                 std::max(1, ch - 1)),
                           mark);
        }
    for (int r = firstRow; r < lastRow; ++r) {
        for (int c = 0; c < stepCount(); ++c) {
            const QRect cell = cellRect(r, c).adjusted(0, 0, -1, -1);
            const auto v = shade(r, c);
            p.fillRect(cell, v ? shadeColour(*v, dark) : palette().color(QPalette::AlternateBase));
        }
    }
    // The stragglers, outlined.
    p.setPen(QPen(palette().color(QPalette::Highlight), 2));
    for (const auto& [r, c] : stragglerCells_)
        if (r >= firstRow && r < lastRow) p.drawRect(cellRect(r, c).adjusted(1, 1, -2, -2));
    if (current_ >= 0 && hasFocus()) {
        p.setPen(QPen(palette().color(QPalette::WindowText), 1, Qt::DotLine));
        p.drawRect(cellRect(current_ / stepCount(), current_ % stepCount()).adjusted(0, 0, -1, -1));
    }
    // The legend: the scale from the smallest to the largest cell.
    const int top = kHeaderHeight + rankCount() * ch + 6;
    const int w =
        std::max(20, std::min(120, width() - labelWidth_ - 20 -
                                       fm.horizontalAdvance(QStringLiteral("000.00 ms"))));
    for (int x = 0; x < w; ++x)
        p.fillRect(QRect(labelWidth_ + x, top, 1, 8),
                   shadeColour(double(x) / std::max(1, w - 1), dark));
    auto label = [&](double v) {
        return metric_ == Metric::IdleShare ? formatPercent(v)
                                            : shortDuration(static_cast<TimeNs>(v));
    };
    p.setPen(palette().color(QPalette::WindowText));
    // Both ends after the scale (a rank label's width is too narrow for
    // "median 17.80 ms").
    const QString low =
        metric_ == Metric::StepTime ? tr("median %1").arg(label(min_)) : label(min_);
    const QString high = metric_ == Metric::StepTime ? tr("+50 %: %1").arg(label(max_))
                         : metric_ == Metric::Wait
                             ? tr("%1 (half the median step)").arg(label(max_))
                             : label(max_);
    p.drawText(QRect(labelWidth_ + w + 6, top - 3, width() - labelWidth_ - w - 6, kLegendHeight),
               Qt::AlignLeft | Qt::AlignTop,
               low + QStringLiteral(" → ") + high + "   " +
                   tr("outlined: entered the collective last") +
                   (anyOutlier ? "   " + tr("marked: stands apart") : QString()));
}

std::pair<int, int> RankHeatMap::cellAt(QPoint pos) const {
    if (pos.x() < labelWidth_ || pos.y() < kHeaderHeight) return {-1, -1};
    const int c = (pos.x() - labelWidth_) / cellWidth();
    const int r = (pos.y() - kHeaderHeight) / cellHeight();
    if (r >= rankCount() || c >= stepCount()) return {-1, -1};
    return {r, c};
}

bool RankHeatMap::event(QEvent* e) {
    if (e->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(e);
        const auto [r, c] = cellAt(help->pos());
        const QString text = r >= 0 ? cellText(r, c) : QString();
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this, cellRect(r, c));
        return true;
    }
    return QWidget::event(e);
}

void RankHeatMap::mouseMoveEvent(QMouseEvent* e) {
    const auto [r, c] = cellAt(e->position().toPoint());
    setCursor(r >= 0 && stepOf(r, c) ? Qt::PointingHandCursor : Qt::ArrowCursor);
}

void RankHeatMap::mousePressEvent(QMouseEvent* e) {
    const auto [r, c] = cellAt(e->position().toPoint());
    if (r < 0 || !stepOf(r, c)) return;
    current_ = r * stepCount() + c;
    update();
    emit cellActivated(rankRow(r), steps_[static_cast<size_t>(c)]);
}

void RankHeatMap::keyPressEvent(QKeyEvent* e) {
    if (rankCount() == 0 || stepCount() == 0) return QWidget::keyPressEvent(e);
    int r = current_ < 0 ? 0 : current_ / stepCount();
    int c = current_ < 0 ? 0 : current_ % stepCount();
    switch (e->key()) {
        case Qt::Key_Left:
            c = std::max(0, c - 1);
            break;
        case Qt::Key_Right:
            c = std::min(stepCount() - 1, c + 1);
            break;
        case Qt::Key_Up:
            r = std::max(0, r - 1);
            break;
        case Qt::Key_Down:
            r = std::min(rankCount() - 1, r + 1);
            break;
        case Qt::Key_Return:
        case Qt::Key_Enter:
            if (stepOf(r, c)) emit cellActivated(rankRow(r), steps_[static_cast<size_t>(c)]);
            return;
        default:
            return QWidget::keyPressEvent(e);
    }
    current_ = r * stepCount() + c;
    update();
}

}  // namespace gapscope::ui
