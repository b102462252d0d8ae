#pragma once
// Overview, shown first when a trace opens: per GPU the whole of its time
// (the time account: computation, exposed communication and memcpy, idle
// by cause) as a bar over the denominator it names, the step times, the
// input-pipeline verdict,
// peak memory, the top kernels and the top findings, each linking to its
// panel or to the timeline.

#include <memory>
#include <vector>

#include "analysis/gap_causes.h"
#include "analysis/gpu_time_account.h"
#include "analysis/time_breakdown.h"
#include "panels/analysis_panel.h"
#include "panels/result_rows.h"
#include "panels/table_export.h"

namespace gapscope::ui {

class LinkView;

class OverviewPanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit OverviewPanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Overview"); }
    QString dockName() const override { return QStringLiteral("overviewDock"); }
    LinkView* view() const { return view_; }
    // "Where the GPU time goes" as a table: per GPU the time account (the
    // summary's "gpus" table, in the same order) and the active span.
    TableSnapshot snapshot() const;
    std::vector<std::pair<std::string, TableSnapshot>> resultSnapshots() const override {
        return {{"gpus", snapshot()}};
    }

  signals:
    void panelRequested(const QString& dockName);

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    // The breakdown table as last shown: the account analysis's "gpus".
    struct Breakdown {
        ResultRows gpus;
        QString scope;
    };
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);

    LinkView* view_;
    std::shared_ptr<const Breakdown> breakdown_;
};

}  // namespace gapscope::ui
