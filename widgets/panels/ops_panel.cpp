#include "panels/ops_panel.h"

#include <QVBoxLayout>

#include "analysis/op_stats.h"
#include "panels/analysis_table.h"

namespace gapscope::ui {

OpsPanel::OpsPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent), table_(new AnalysisTable(this)) {
    body()->addWidget(table_, 1);
    table_->model()->setColumns({{tr("Op"), CellKind::Text},
                                 {tr("Count"), CellKind::Count},
                                 {tr("Inclusive"), CellKind::Duration},
                                 {tr("Self"), CellKind::Duration},
                                 {tr("GPU"), CellKind::Duration},
                                 {tr("% step"), CellKind::Percent}});
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
        auto rows = std::make_shared<std::vector<TableRow>>();
        for (const OpStats& op : ops) {
            TableRow r;
            r.cells = {TableCell::ofText(QString::fromUtf8(t.str(op.name))),
                       TableCell::of(static_cast<double>(op.count)),
                       TableCell::of(static_cast<double>(op.inclusive)),
                       TableCell::of(static_cast<double>(op.self)),
                       TableCell::of(static_cast<double>(op.gpu)),
                       op.shareOfStepTime ? TableCell::of(*op.shareOfStepTime) : TableCell::none()};
            r.target.kind = NavTarget::Kind::Name;
            r.target.name = op.name;
            rows->push_back(std::move(r));
        }
        return [this, rows] {
            table_->model()->setRows(rows);
            table_->setDefaultSort(4, Qt::DescendingOrder);
        };
    };
}

}  // namespace gapscope::ui
