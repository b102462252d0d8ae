#include "panels/ops_panel.h"

#include <QVBoxLayout>

#include "analysis/op_stats.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

OpsPanel::OpsPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent), table_(new AnalysisTable(this)) {
    body()->addWidget(table_, 1);
    connect(table_, &AnalysisTable::activated, session, &AnalysisSession::navigate);
}

void OpsPanel::clearContents() {
    table_->model()->clearRows();
}

AnalysisPanel::Work OpsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                      AnalysisScope scope, TimeNs) {
    return [this, indexed, scope](const CancelToken& cancel) -> Show {
        const Trace& t = *indexed->trace;
        OpStatsOptions o;
        o.window = scope.hostWindow();
        o.index = indexed->index.get();
        o.cancel = &cancel;
        for (const Step& s : indexed->index->steps().steps)
            if (scope.holds(s)) o.stepTime += s.span.length();
        const auto ops = opStats(t, o);
        if (cancel.isCancelled()) return {};
        auto rows = std::make_shared<const ResultRows>(resultRows(opTable(t, ops), t.spanStart));
        return [this, rows] {
            table_->model()->setResult(*rows);
            table_->setDefaultSort(4, Qt::DescendingOrder);
        };
    };
}

}  // namespace gapscope::ui
