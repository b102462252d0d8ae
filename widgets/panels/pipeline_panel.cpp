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
    std::vector<Step> steps;
    for (const Step& s : request.indexed->index->steps().steps)
        if (request.scope.holds(s)) steps.push_back(s);
    StepOptions so;
    so.index = request.indexed->index.get();
    so.window = request.scope.window;
    so.onlyNumber = request.scope.step;
    so.minGapNs = request.gapThreshold;
    so.cancel = request.cancel;
    const TimeAccount account = timeAccountOf(t, so);
    if (request.cancelled()) return std::nullopt;
    const PipelineReport r = inputPipeline(t, steps, &account);
    QString text =
        QStringLiteral("<b>%1</b>").arg(QString::fromLatin1(inputVerdictName(r.verdict)));
    if (r.inputShare)
        text +=
            (r.fromGpu ? PipelinePanel::tr(
                             ": the GPUs sat idle waiting for input %1 of the %2 (%3 of %4).")
                       : PipelinePanel::tr(": the host waited for input %1 of the %2 (%3 of %4)."))
                .arg(formatPercent(*r.inputShare),
                     QString::fromLatin1(denominatorName(r.denominator)),
                     shortDuration(r.inputWait), shortDuration(r.time));
    if (r.fromGpu && r.hostTime > 0)
        text += " " + PipelinePanel::tr(
                          "The host waited in the next batch's loading for %1 of the steps' "
                          "%2 on the host.")
                          .arg(shortDuration(r.hostWait), shortDuration(r.hostTime));
    text += PipelinePanel::tr(
        " TensorBoard's thresholds: ≥ 20 % highly, ≥ 5 % moderately input-bound.");
    if (r.dataLoader) {
        text += "<br>" +
                PipelinePanel::tr("DataLoader: %1 calls, %2, %3%4.")
                    .arg(r.dataLoader->calls)
                    .arg(shortDuration(r.dataLoader->total))
                    .arg(QString::fromStdString(r.dataLoader->kind.value_or("kind unknown")))
                    .arg(r.dataLoader->pinMemoryThread ? PipelinePanel::tr(", pin-memory thread")
                                                       : QString());
        if (r.dataLoader->kind == std::optional<std::string>("single-process"))
            text +=
                " " + PipelinePanel::tr("It loads in the training process: set num_workers > 0.");
    }
    if (r.checks) {
        QStringList hints;
        if (r.checks->missingPrefetch) hints << PipelinePanel::tr("no Prefetch stage");
        if (r.checks->sequentialMap)
            hints << PipelinePanel::tr("a sequential Map (use num_parallel_calls)");
        if (r.checks->noCache) hints << PipelinePanel::tr("no Cache");
        text +=
            "<br>" + PipelinePanel::tr("tf.data: IteratorGetNext %1").arg(shortDuration(r.getNext));
        if (!hints.isEmpty()) text += "; " + hints.join("; ");
    }
    return PipelinePanel::Computed{text, resultRows(pipelineStageTable(t, r), t.spanStart),
                                   resultRows(inputWaitTable(r, steps), t.spanStart)};
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
