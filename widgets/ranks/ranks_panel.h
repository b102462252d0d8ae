#pragma once
// The Ranks panel: the ranks of a job side by side (a folder or several
// files opened at once, or a fleet table of tools/fleet). What it shows
// comes whole from the loader (each rank's figures from its own trace,
// analysis/rank_figures.h) or from the fleet JSON: a sentence per
// straggler, the heat map of ranks × steps (step time, idle share or wait),
// a table of the ranks with their totals, and the stragglers. A cell or a
// row frames that rank's step on the timeline; in a fleet table without
// the traces open, it opens the rank's trace when its file is reachable.

#include <QWidget>
#include <memory>

#include "index/interval_set.h"
#include "report/ranks_report.h"

class QCheckBox;
class QComboBox;
class QLineEdit;
class QLabel;
class QSplitter;

namespace gapscope::ui {

class AnalysisTable;
class RankHeatMap;

class RanksPanel : public QWidget {
    Q_OBJECT
  public:
    explicit RanksPanel(QWidget* parent = nullptr);
    // `withTrace`: the ranks are open in the timeline (times frame there);
    // else a fleet table on its own. Null clears the panel.
    void setDocument(std::shared_ptr<const RanksDocument> doc, bool withTrace);
    std::shared_ptr<const RanksDocument> document() const { return doc_; }
    QString summaryText() const;
    RankHeatMap* heatMap() const { return heatMap_; }
    AnalysisTable* ranksTable() const { return ranks_; }
    AnalysisTable* stragglersTable() const { return stragglers_; }
    QComboBox* metricPicker() const { return metric_; }
    QComboBox* orderPicker() const { return order_; }
    QLineEdit* filterBox() const { return filter_; }
    QCheckBox* outliersOnlyBox() const { return outliersOnly_; }
    // What a cell does (the heat map's and the tables' activations).
    void activate(size_t rankRow, int64_t step);

  signals:
    // A rank's step: its span, and the rank (the timeline shows its tracks).
    void frameRankStep(int64_t rank, gapscope::Interval range);
    void openTrace(const QString& path);

  private:
    void fillTables();

    std::shared_ptr<const RanksDocument> doc_;
    bool withTrace_ = false;
    QLabel* summary_;
    QComboBox* metric_;
    QComboBox* order_;
    QLineEdit* filter_;
    QCheckBox* outliersOnly_;
    RankHeatMap* heatMap_;
    QSplitter* split_;
    AnalysisTable* ranks_;
    AnalysisTable* stragglers_;
};

}  // namespace gapscope::ui
