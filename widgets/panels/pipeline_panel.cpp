#include "panels/pipeline_panel.h"

#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>
#include <variant>

#include "analysis/input_pipeline.h"
#include "panels/analysis_table.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

PipelinePanel::PipelinePanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent),
      verdict_(new QLabel(this)),
      stages_(new AnalysisTable(this)),
      perStep_(new AnalysisTable(this)),
      tabs_(new QTabWidget(this)) {
    verdict_->setWordWrap(true);
    verdict_->setTextFormat(Qt::RichText);
    tabs_->setDocumentMode(true);
    tabs_->addTab(perStep_, tr("Wait per step"));
    tabs_->addTab(stages_, tr("tf.data stages"));
    stages_->setAccessibleName(tr("stages"));     // in export titles
    perStep_->setAccessibleName(tr("per step"));  // in export titles
    body()->addWidget(verdict_);
    body()->addWidget(tabs_, 1);
    connect(stages_, &AnalysisTable::activated, session, &AnalysisSession::navigate);
    connect(perStep_, &AnalysisTable::activated, this, [session](const NavTarget& t) {
        if (t.kind == NavTarget::Kind::Step) session->setStepScope(t.step);
    });
}

QString PipelinePanel::verdictText() const {
    return verdict_->text();
}

void PipelinePanel::clearContents() {
    verdict_->clear();
    stages_->model()->clearRows();
    perStep_->model()->clearRows();
}

struct PipelinePanel::Computed {
    QString verdict;
    ResultRows stages, perStep;
};

namespace {

std::optional<PipelinePanel::Computed> computePipeline(const AnalysisPanel::Request& request,
                                                       const std::monostate&) {
    const Trace& t = request.trace();
    // The registered analysis's figures and tables: the CLI's, the summary's.
    const AnalysisResult r = request.compute("pipeline");
    const ResultTable* stages = r.table("input_stages");
    const ResultTable* perStep = r.table("input_wait_per_step");
    if (request.cancelled() || !stages || !perStep) return std::nullopt;
    auto ns = [&](const char* key) { return integerOr(r.figure(key)); };
    auto text = [&](const char* key) { return QString::fromStdString(textOr(r.figure(key))); };
    auto yes = [&](const char* key) {
        const ResultCell& c = r.figure(key);
        return std::holds_alternative<int64_t>(c) && std::get<int64_t>(c) != 0;
    };
    const ResultCell& share = r.figure("input_share");
    const bool fromGpu = text("from") == QLatin1String("gpu");
    // Without a share (no time to weigh the wait against) nothing is input-bound.
    QString verdict =
        QStringLiteral("<b>%1</b>")
            .arg(text("verdict").isEmpty()
                     ? QString::fromLatin1(inputVerdictName(InputVerdict::NotInputBound))
                     : text("verdict"));
    if (std::holds_alternative<double>(share))
        verdict +=
            (fromGpu ? PipelinePanel::tr(
                           ": the GPUs sat idle waiting for input %1 of the %2 (%3 of %4).")
                     : PipelinePanel::tr(": the host waited for input %1 of the %2 (%3 of %4)."))
                .arg(formatPercent(std::get<double>(share)), text("denominator"),
                     shortDuration(ns("input_wait_ns")), shortDuration(ns("time_ns")));
    if (fromGpu && ns("host_time_ns") > 0)
        verdict +=
            " " + PipelinePanel::tr(
                      "The host waited in the next batch's loading for %1 of the steps' "
                      "%2 on the host.")
                      .arg(shortDuration(ns("host_wait_ns")), shortDuration(ns("host_time_ns")));
    verdict += PipelinePanel::tr(
        " TensorBoard's thresholds: ≥ 20 % highly, ≥ 5 % moderately input-bound.");
    if (!std::holds_alternative<std::monostate>(r.figure("dataloader.calls"))) {
        const QString kind = text("dataloader.kind");
        verdict += "<br>" + PipelinePanel::tr("DataLoader: %1 calls, %2, %3%4.")
                                .arg(ns("dataloader.calls"))
                                .arg(shortDuration(ns("dataloader.total_ns")))
                                .arg(kind.isEmpty() ? PipelinePanel::tr("kind unknown") : kind)
                                .arg(yes("dataloader.pin_memory_thread")
                                         ? PipelinePanel::tr(", pin-memory thread")
                                         : QString());
        if (kind == QLatin1String("single-process"))
            verdict +=
                " " + PipelinePanel::tr("It loads in the training process: set num_workers > 0.");
    }
    if (!std::holds_alternative<std::monostate>(r.figure("checks.missing_prefetch"))) {
        QStringList hints;
        if (yes("checks.missing_prefetch")) hints << PipelinePanel::tr("no Prefetch stage");
        if (yes("checks.sequential_map"))
            hints << PipelinePanel::tr("a sequential Map (use num_parallel_calls)");
        if (yes("checks.no_cache")) hints << PipelinePanel::tr("no Cache");
        verdict +=
            "<br>" +
            PipelinePanel::tr("tf.data: IteratorGetNext %1").arg(shortDuration(ns("get_next_ns")));
        if (!hints.isEmpty()) verdict += "; " + hints.join("; ");
    }
    return PipelinePanel::Computed{verdict, resultRows(*stages, t.spanStart),
                                   resultRows(*perStep, t.spanStart)};
}

}  // namespace

AnalysisPanel::Work PipelinePanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                           AnalysisScope scope, TimeNs threshold) {
    return computeThen(indexed, scope, threshold, std::monostate{}, &computePipeline,
                       &PipelinePanel::present);
}

void PipelinePanel::present(const Computed& c) {
    verdict_->setText(c.verdict);
    stages_->model()->setResult(c.stages);
    stages_->setDefaultSort(3, Qt::DescendingOrder);
    perStep_->model()->setResult(c.perStep);
    perStep_->setDefaultSort(0, Qt::AscendingOrder);
    // A trace without steps (TensorFlow eager, a short capture): the
    // stages are what there is to see.
    if (c.perStep.rows->empty() && !c.stages.rows->empty()) tabs_->setCurrentWidget(stages_);
}

}  // namespace gapscope::ui
