#pragma once
// Overview, shown first when a trace opens: per GPU the busy share and the
// idle time by cause as a bar, the step times, the input-pipeline verdict,
// peak memory, the top kernels and the top findings, each linking to its
// panel or to the timeline.

#include "panels/analysis_panel.h"

namespace gapscope::ui {

class LinkView;

class OverviewPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit OverviewPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Overview"); }
    QString dockName() const override { return QStringLiteral("overviewDock"); }
    LinkView* view() const { return view_; }

  signals:
    void panelRequested(const QString& dockName);

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  private:
    LinkView* view_;
    QString findings_;  // the top findings' HTML, of the whole trace
    const Trace* findingsOf_ = nullptr;
    TimeNs findingsThreshold_ = -1;
};

}  // namespace gapscope::ui
