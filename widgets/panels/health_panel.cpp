#include "panels/health_panel.h"

#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <variant>

#include "analysis/trace_health.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

HealthPanel::HealthPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent),
      verdict_(new QLabel(this)),
      checks_(new AnalysisTable(this)),
      instances_(new AnalysisTable(this)) {
    verdict_->setWordWrap(true);
    checks_->setAccessibleName(tr("health checks"));       // in export titles
    instances_->setAccessibleName(tr("first instances"));  // in export titles
    checks_->setHiddenColumns({"check"});
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(checks_);
    split->addWidget(instances_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 2);
    body()->addWidget(verdict_);
    body()->addWidget(split, 1);
    connect(checks_, &AnalysisTable::activated, session, &AnalysisSession::navigate);
    connect(instances_, &AnalysisTable::activated, session, &AnalysisSession::navigate);
}

QString HealthPanel::verdictText() const {
    return verdict_->text();
}

void HealthPanel::clearContents() {
    checks_->model()->clearRows();
    instances_->model()->clearRows();
    verdict_->clear();
}

struct HealthPanel::Computed {
    ResultRows checks, instances;
    QString verdict;
};

namespace {

std::optional<HealthPanel::Computed> computeHealth(const AnalysisPanel::Request& request,
                                                   const std::monostate&) {
    const AnalysisResult h = request.compute("health");
    if (request.cancelled() || !h.table("health")) return std::nullopt;
    const int64_t warnings = std::get<int64_t>(h.figures.at(0, "warnings"));
    const int64_t notes = std::get<int64_t>(h.figures.at(0, "notes"));
    const QString verdict =
        warnings == 1 ? HealthPanel::tr(
                            "One check found what makes figures lower bounds or "
                            "leaves events out; its row says what it means.")
        : warnings ? HealthPanel::tr(
                         "%1 checks found what makes figures lower bounds or "
                         "leaves events out; each row says what it means.")
                         .arg(warnings)
        : notes ? HealthPanel::tr(
                      "Nothing is missing; the import repaired or drew differently "
                      "what the checks below count, which changes no figure.")
                : HealthPanel::tr("Nothing was repaired, dropped or found missing.");
    const TimeNs origin = request.trace().spanStart;
    return HealthPanel::Computed{resultRows(*h.table("health"), origin),
                                 resultRows(*h.table("health_instances"), origin), verdict};
}

}  // namespace

AnalysisPanel::Work HealthPanel::prepare(std::shared_ptr<const IndexedTrace> indexed, AnalysisScope,
                                         TimeNs threshold) {
    // About the whole trace: the import is, whatever the scope.
    AnalysisScope whole;
    return computeThen(indexed, whole, threshold, std::monostate{}, &computeHealth,
                       &HealthPanel::present);
}

void HealthPanel::present(const Computed& c) {
    verdict_->setText(c.verdict);
    checks_->model()->setResult(c.checks);
    checks_->setDefaultSort(3, Qt::DescendingOrder);  // found first
    instances_->model()->setResult(c.instances);
    instances_->setDefaultSort(1, Qt::AscendingOrder);
}

}  // namespace gapscope::ui
