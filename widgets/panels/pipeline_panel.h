#pragma once
// Input pipeline: the verdict and its numbers, the tf.data stages (self
// time, share, calls) as a table with a share bar, the checks (prefetch,
// parallel map, cache), and the DataLoader's wait per step.

#include "panels/analysis_panel.h"

class QLabel;

class QTabWidget;

namespace gapscope::ui {

class AnalysisTable;

class PipelinePanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit PipelinePanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Input Pipeline"); }
    QString dockName() const override { return QStringLiteral("InputPipelineDock"); }
    QString verdictText() const;
    AnalysisTable* stages() const { return stages_; }
    AnalysisTable* perStep() const { return perStep_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"input_stages", stages_}, {"input_wait_per_step", perStep_}};
    }

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);
    QLabel* verdict_;
    AnalysisTable* stages_;
    AnalysisTable* perStep_;
    QTabWidget* tabs_;
};

}  // namespace gapscope::ui
