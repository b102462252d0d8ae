#pragma once
// Steps: each step's duration and breakdown (compute, exposed
// communication, exposed memcpy, idle by cause) as a table and a stacked
// bar chart, slow steps marked with why. Clicking a bar or a row sets the
// scope of every panel to that step ([ and ] go to the previous / next).
// Under a step scope the panel still lists every step, the current one
// outlined.

#include "panels/analysis_panel.h"

namespace gapscope::ui {

class AnalysisTable;
class StepBars;

class StepsPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit StepsPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Steps"); }
    QString dockName() const override { return QStringLiteral("stepsDock"); }
    AnalysisTable* table() const { return table_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"steps", table_}};
    }
    AnalysisScope shownScope(const AnalysisScope& scope) const override {
        return scope.kind == AnalysisScope::Kind::Step ? AnalysisScope{} : scope;
    }
    StepBars* bars() const { return bars_; }

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    struct Shown;  // rows, bars and summary of the steps of one scope

  private:
    void present(const std::shared_ptr<const Shown>& shown);
    void show(const Shown& shown, std::optional<int64_t> current);

    AnalysisTable* table_;
    StepBars* bars_;
    std::shared_ptr<const Shown> all_;  // every step of the trace, once computed
    const Trace* allOf_ = nullptr;
    class QLabel* summary_;
};

}  // namespace gapscope::ui
