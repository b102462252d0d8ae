#pragma once
// A search's matches as a list, as Perfetto's query results and Nsight's
// Events View show them: name, track, start and duration, sortable,
// filterable and exported as every table is; a row frames its slice. The
// first kMostListed matches in time are listed, and the header says when a
// search found more.

#include <QWidget>
#include <vector>

#include "model/trace.h"
#include "panels/nav_target.h"

class QLabel;

namespace gapscope::ui {

class AnalysisTable;

class SearchResults : public QWidget {
    Q_OBJECT
  public:
    static constexpr size_t kMostListed = 100'000;

    explicit SearchResults(QWidget* parent = nullptr);
    // `matches` in time order, of `query` over `trace` (null: none).
    void setMatches(const Trace* trace, const std::vector<uint32_t>& matches, const QString& query);
    AnalysisTable* table() const { return table_; }
    QString headerText() const;

  signals:
    void activated(const gapscope::ui::NavTarget& target);

  private:
    QLabel* header_;
    AnalysisTable* table_;
};

}  // namespace gapscope::ui
