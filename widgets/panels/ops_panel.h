#pragma once
// Ops: the op statistics of the scope (count, inclusive, self and GPU time,
// share of the step time); sorted by GPU time, any column by a click. A row
// highlights the op's slices on the timeline.

#include "panels/analysis_panel.h"

namespace gapscope::ui {

class AnalysisTable;

class OpsPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit OpsPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Ops"); }
    QString dockName() const override { return QStringLiteral("opsDock"); }
    AnalysisTable* table() const { return table_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"ops", table_}};
    }

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  private:
    AnalysisTable* table_;

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);
};

}  // namespace gapscope::ui
