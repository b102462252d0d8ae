#pragma once
// Memory: the curves of one device (allocated and reserved) on the
// timeline's time axis, its peak, the per-step peaks and the growth
// finding; the device (or any other counter series) picked from a list.
// Under the curve, what the largest allocating ops hold over time; beside
// it what is alive at the peak (or at a moment clicked on the curve) by op
// and one by one, the leak candidates and what is never freed. A row
// frames its op and its lifetime on the timeline.

#include "panels/analysis_panel.h"

class QComboBox;
class QLabel;
class QPushButton;
class QTabWidget;

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
    AnalysisTable* aliveByOp() const { return aliveByOp_; }
    AnalysisTable* aliveByPhase() const { return aliveByPhase_; }
    AnalysisTable* leftPerStep() const { return leftPerStep_; }
    AnalysisTable* alive() const { return alive_; }
    AnalysisTable* leaks() const { return leaks_; }
    AnalysisTable* neverFreed() const { return neverFreed_; }
    QTabWidget* tabs() const { return tabs_; }
    QString heldText() const;
    // What is alive is listed at this moment (none: each allocator's peak).
    void showAliveAt(std::optional<TimeNs> at);
    std::optional<TimeNs> aliveAt() const { return at_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"memory_per_step", perStep_},
                {"alive_by_op", aliveByOp_},
                {"alive_by_phase", aliveByPhase_},
                {"left_per_step", leftPerStep_},
                {"alive", alive_},
                {"leak_candidates", leaks_},
                {"never_freed", neverFreed_}};
    }
    AnalysisScope shownScope(const AnalysisScope&) const override { return {}; }
    // With --leaks, the largest 500 alive, at the moment listed.
    AnalysisOptions options() const override;

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
    QLabel* held_;
    QLabel* legend_;
    QPushButton* peak_;
    QTabWidget* tabs_;
    AnalysisTable* perStep_;
    AnalysisTable* aliveByOp_;
    AnalysisTable* aliveByPhase_;
    AnalysisTable* leftPerStep_;
    AnalysisTable* alive_;
    AnalysisTable* leaks_;
    AnalysisTable* neverFreed_;
    std::optional<TimeNs> at_;
    std::shared_ptr<const Shown> shown_;
};

}  // namespace gapscope::ui
