#pragma once
// Ranks × steps as a grid of coloured cells (the Ranks panel): one row per
// rank, one column per step number, the colour a figure of that rank's
// step (its time, its idle share, or how long it waited in the step's
// collective), darker for more, on a scale from the smallest to the largest
// cell. The straggler of a step is outlined; a rank that stands apart
// (analysis/rank_outliers.h, the Ranks table's "Outlier") is marked beside
// its label. The rows sort by rank, step time, busy share, wait, host or
// outlier score, and filter by rank or host text and to the outliers. Hover
// names the cell; a click or Enter activates it. Painted from the document
// alone: nothing trace-sized per paint; a label is drawn only where it
// fits (every n-th row at a thousand ranks).

#include <QWidget>
#include <memory>
#include <vector>

#include "report/ranks_report.h"

namespace gapscope::ui {

class RankHeatMap : public QWidget {
    Q_OBJECT
  public:
    enum class Metric { StepTime, IdleShare, Wait };
    // The rows' order: by rank; the longest mean step, the least busy, the
    // longest wait first; by host (then rank); the furthest outlier first.
    enum class Order { Rank, StepTime, Busy, Wait, Host, Outlier };

    explicit RankHeatMap(QWidget* parent = nullptr);
    void setDocument(std::shared_ptr<const RanksDocument> doc);
    void setMetric(Metric m);
    Metric metric() const { return metric_; }
    void setOrder(Order o);
    Order order() const { return order_; }
    // Only the ranks whose "rank N" or host contains `text` (any case), and
    // with `outliersOnly` only the outliers.
    void setFilter(const QString& text, bool outliersOnly);
    // Whether grid row `row`'s rank stands apart from the others.
    bool isOutlier(int row) const;

    // The grid: the rows (documents' rank rows that have steps) and columns.
    int rankCount() const { return static_cast<int>(rows_.size()); }
    int stepCount() const { return static_cast<int>(steps_.size()); }
    int64_t stepNumber(int column) const { return steps_.at(static_cast<size_t>(column)); }
    // Index into the document's ranks of grid row `row`.
    size_t rankRow(int row) const { return rows_.at(static_cast<size_t>(row)); }
    // The cell's value (ns or a share), or nullopt for a rank without that step.
    std::optional<double> value(int row, int column) const;
    // Where a cell's value falls on the colour scale, 0 (lightest) to 1.
    std::optional<double> shade(int row, int column) const;
    QRect cellRect(int row, int column) const;
    QString cellText(int row, int column) const;
    QSize sizeHint() const override;
    // Every rank's row: the scroll area around it scrolls instead of squashing
    // a thousand ranks into the dock's height.
    QSize minimumSizeHint() const override;

  signals:
    // A rank's step: its index in the document's ranks and the step number.
    void cellActivated(size_t rank, int64_t step);

  protected:
    void paintEvent(QPaintEvent*) override;
    void mouseMoveEvent(QMouseEvent*) override;
    void mousePressEvent(QMouseEvent*) override;
    void keyPressEvent(QKeyEvent*) override;
    bool event(QEvent*) override;

  private:
    const RankStep* stepOf(int row, int column) const;
    std::pair<int, int> cellAt(QPoint p) const;
    void rebuild();
    int cellWidth() const;
    int cellHeight() const;

    std::shared_ptr<const RanksDocument> doc_;
    Metric metric_ = Metric::StepTime;
    Order order_ = Order::Rank;
    QString filter_;
    bool outliersOnly_ = false;
    std::vector<RankOutlier> outliers_;  // by document rank row
    struct Keys {
        double stepTime, busy, wait;  // mean step, busy share (2: none), mean wait (-1: none)
        QString label, host;          // "rank N", its host
    };
    std::vector<Keys> keys_;                           // by document rank row
    std::vector<std::pair<int, int>> stragglerCells_;  // (row, column) outlined
    std::vector<size_t> rows_;                         // document rank rows shown
    std::vector<int64_t> steps_;                       // step numbers, ascending
    std::vector<std::vector<const RankStep*>> cells_;  // [row][column]
    double min_ = 0, max_ = 0;
    int current_ = -1;  // the focused cell: row * stepCount + column
    int labelWidth_ = 0;
};

}  // namespace gapscope::ui
