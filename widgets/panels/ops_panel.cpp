#include "panels/ops_panel.h"

#include <QVBoxLayout>
#include <variant>

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

struct OpsPanel::Computed {
    ResultRows ops;
};

namespace {

std::optional<OpsPanel::Computed> computeOps(const AnalysisPanel::Request& request,
                                             const std::monostate&) {
    const Trace& t = request.trace();
    OpStatsOptions o;
    o.window = request.scope.hostWindow();
    o.index = request.indexed->index.get();
    o.cancel = request.cancel;
    for (const Step& s : request.indexed->index->steps().steps)
        if (request.scope.holds(s)) o.stepTime += s.span.length();
    const auto ops = opStats(t, o);
    if (request.cancelled()) return std::nullopt;
    return OpsPanel::Computed{resultRows(opTable(t, ops), t.spanStart)};
}

}  // namespace

AnalysisPanel::Work OpsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                      AnalysisScope scope, TimeNs threshold) {
    return computeThen(indexed, scope, threshold, std::monostate{}, &computeOps,
                       &OpsPanel::present);
}

void OpsPanel::present(const Computed& c) {
    table_->model()->setResult(c.ops);
    table_->setDefaultSort(4, Qt::DescendingOrder);
}

}  // namespace gapscope::ui
