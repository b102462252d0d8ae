#include "panels/ops_panel.h"

#include <QVBoxLayout>
#include <variant>

#include "panels/analysis_table.h"
#include "panels/result_rows.h"

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
    AnalysisResult r = request.compute("ops");
    if (request.cancelled() || !r.table("ops")) return std::nullopt;
    return OpsPanel::Computed{resultRows(*r.table("ops"), request.trace().spanStart)};
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
