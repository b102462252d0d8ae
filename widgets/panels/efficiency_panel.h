#pragma once
// Efficiency (gapscope-cli efficiency): its figures and tables as every
// registered analysis shows them, and first the roofline of its GPU with
// each op signature on it.

#include "panels/registry_panel.h"

namespace gapscope::ui {

class RooflineChart;

class EfficiencyPanel : public RegistryPanel {
    Q_OBJECT
  public:
    explicit EfficiencyPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString dockName() const override { return QStringLiteral("EfficiencyDock"); }
    RooflineChart* roofline() const { return roofline_; }

  protected:
    void presented(const std::vector<std::pair<std::string, ResultRows>>& tables) override;
    void clearContents() override;

  private:
    RooflineChart* roofline_;
};

}  // namespace gapscope::ui
