#pragma once
// Memory: the curves of one device (allocated and reserved) on the
// timeline's time axis, its peak, the per-step peaks and the growth
// finding; the device (or any other counter series) picked from a list.

#include "panels/analysis_panel.h"

class QComboBox;
class QLabel;

namespace gapscope::ui {

class AnalysisTable;
class MemoryChart;
class ViewState;

class MemoryPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    MemoryPanel(AnalysisSession* session, ViewState* view, QWidget* parent = nullptr);
    QString title() const override { return tr("Memory"); }
    QString dockName() const override { return QStringLiteral("MemoryDock"); }
    MemoryChart* chart() const { return chart_; }
    QComboBox* curves() const { return curves_; }
    QString summaryText() const;
    AnalysisTable* perStep() const { return perStep_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"memory_per_step", perStep_}};
    }
    AnalysisScope shownScope(const AnalysisScope&) const override { return {}; }

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    struct Shown;  // what its worker computes: the curves to choose from

  private:
    void present(const std::shared_ptr<const Shown>& shown);
    void showCurve(int index);

    MemoryChart* chart_;
    QComboBox* curves_;
    QLabel* summary_;
    AnalysisTable* perStep_;
    std::shared_ptr<const Shown> shown_;
};

}  // namespace gapscope::ui
