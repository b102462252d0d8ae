#pragma once
// Trace Health: every check of what the import repaired, dropped or found
// missing, with its count and what it means for the numbers, and the first
// instances of each to click (analysis/trace_health.h; `gapscope-cli info`
// prints the same). About the whole trace, whatever the scope.

#include "panels/analysis_panel.h"

namespace gapscope::ui {

class AnalysisTable;

class HealthPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit HealthPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Health"); }
    QString dockName() const override { return QStringLiteral("healthDock"); }
    AnalysisTable* checks() const { return checks_; }
    AnalysisTable* instances() const { return instances_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"health", checks_}, {"health_instances", instances_}};
    }
    QString verdictText() const;
    AnalysisScope shownScope(const AnalysisScope&) const override { return {}; }

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);
    class QLabel* verdict_;
    AnalysisTable* checks_;
    AnalysisTable* instances_;
};

}  // namespace gapscope::ui
