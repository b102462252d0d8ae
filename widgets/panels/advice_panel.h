#pragma once
// Advice: the findings of the scope's trace by severity, each with its
// sentence, its numbers and its evidence as links to the timeline.

#include <set>

#include "analysis/advice.h"
#include "panels/analysis_panel.h"
#include "panels/result_rows.h"
#include "panels/table_export.h"

namespace gapscope::ui {

class LinkView;

class AdvicePanel : public AnalysisPanel {
    Q_OBJECT
  public:
    explicit AdvicePanel(AnalysisSession* session, QWidget* parent = nullptr);
    QString title() const override { return tr("Advice"); }
    QString dockName() const override { return QStringLiteral("AdviceDock"); }
    LinkView* view() const { return view_; }
    // The findings as a table (severity, rule, GPU, finding, evidence), for
    // Copy All as Markdown and Export Table; no model before the first result.
    TableSnapshot snapshot() const;
    std::vector<std::pair<std::string, TableSnapshot>> resultSnapshots() const override {
        return {{"findings", snapshot()}};
    }

  protected:
    Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                 TimeNs gapThreshold) override;
    void clearContents() override;

  public:
    struct Computed;  // what its worker computes

  private:
    void present(const Computed& computed);
    LinkView* view_;
    QString cached_;  // advice is about the whole trace: computed once per trace and threshold
    std::shared_ptr<const std::vector<Finding>> findings_;  // what cached_ shows
    std::shared_ptr<const ResultRows> table_;               // the same as the registry's table
    const Trace* cachedOf_ = nullptr;
    TimeNs cachedThreshold_ = -1;
    std::set<size_t> expanded_;  // findings whose evidence is shown
    void toggleEvidence(size_t finding);
};

// The findings as HTML (shared with the Overview): one paragraph each, its
// figures and its action. With evidence: a count behind an "expand:N"
// link, and for the findings in `expanded` the evidence itself, slices
// grouped by name (one link to the longest of each, with how many).
QString findingsHtml(const Trace& trace, const std::vector<Finding>& findings, size_t most,
                     bool withEvidence, const std::set<size_t>& expanded = {});

}  // namespace gapscope::ui
