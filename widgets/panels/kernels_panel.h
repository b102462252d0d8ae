#pragma once
// Kernels: the kernel statistics (Tensor Cores, launching op, launch
// parameters) and the copy / memset table of the scope. A kernel row
// highlights every occurrence on the timeline; Enter / Shift+Enter step
// through them.

#include "panels/analysis_panel.h"

namespace gapscope::ui {

class AnalysisTable;

class KernelsPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit KernelsPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Kernels"); }
    QString dockName() const override { return QStringLiteral("kernelsDock"); }
    AnalysisTable* kernels() const { return kernels_; }
    AnalysisTable* copies() const { return copies_; }
    std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const override {
        return {{"kernels", kernels_}, {"copies", copies_}};
    }

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  private:
    AnalysisTable* kernels_;
    AnalysisTable* copies_;

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);
};

}  // namespace gapscope::ui
