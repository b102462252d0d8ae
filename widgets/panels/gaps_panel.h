#pragma once
// Gaps: every GPU idle gap of at least the threshold in the scope, with its
// device, start, duration, cause and what the CPU was doing (the evidence),
// and the totals by cause with the legend of the timeline's shading.

#include "panels/analysis_panel.h"

namespace gapscope::ui {

class AnalysisTable;

class GapsPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit GapsPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Gaps"); }
    QString dockName() const override { return QStringLiteral("gapsDock"); }
    AnalysisTable* table() const { return table_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"gaps", table_}};
    }
    QString totalsText() const;

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);
    AnalysisTable* table_;
    class QLabel* totals_;
};

}  // namespace gapscope::ui
