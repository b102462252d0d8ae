#include "panels/overview_panel.h"

#include <QVBoxLayout>

#include "analysis/advice.h"
#include "panels/advice_panel.h"
#include "panels/analysis_table.h"
#include "panels/cause_colors.h"
#include "panels/link_view.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

OverviewPanel::OverviewPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent), view_(new LinkView(this)) {
    body()->addWidget(view_, 1);
    connect(view_, &LinkView::navigate, session, &AnalysisSession::navigate);
    connect(view_, &LinkView::panelRequested, this, &OverviewPanel::panelRequested);
    view_->setExtraActions(tableExportActions(view_, [this] { return snapshot(); }));
}

void OverviewPanel::clearContents() {
    view_->clear();
    breakdown_.reset();
    findingsOf_ = nullptr;
}

namespace {

struct AccountPart {
    TimeNs value;
    QColor color;
    QString label;
};

// The whole of a GPU's time in order: computation, exposed communication
// and memcpy, idle by cause and short gaps.
std::vector<AccountPart> accountParts(const GpuTimeAccount& d, bool dark) {
    std::vector<AccountPart> parts = {
        {d.computation, stepPartColor(StepPart::Compute, dark), stepPartLabel(StepPart::Compute)},
        {d.exposedComm, stepPartColor(StepPart::ExposedComm, dark),
         stepPartLabel(StepPart::ExposedComm)},
        {d.exposedMemcpy, stepPartColor(StepPart::ExposedMemcpy, dark),
         stepPartLabel(StepPart::ExposedMemcpy)}};
    for (size_t c = 0; c < kGapCauseCount; ++c)
        parts.push_back({d.idleByCause[c], causeColor(GapCause(c), dark),
                         QObject::tr("idle: %1").arg(causeLabel(GapCause(c)))});
    parts.push_back({d.idleShort, shortGapColor(dark), QObject::tr("short gaps")});
    return parts;
}

// Those parts as a horizontal bar (an HTML table) of the GPU's time.
QString accountBar(const GpuTimeAccount& d, bool dark) {
    if (d.time <= 0) return {};
    QString cells;
    for (const AccountPart& p : accountParts(d, dark)) {
        const int pct = static_cast<int>(
            100.0 * static_cast<double>(p.value) / static_cast<double>(d.time) + 0.5);
        if (pct <= 0) continue;
        cells += QStringLiteral("<td width='%1%' bgcolor='%2' title='%3'>&nbsp;</td>")
                     .arg(pct)
                     .arg(p.color.name(), p.label + ": " + shortDuration(p.value));
    }
    return QStringLiteral("<table width='100%' cellspacing='0' cellpadding='2'><tr>%1</tr></table>")
        .arg(cells);
}

// The parts that are not zero, with their colour keys.
QString accountLegend(const GpuTimeAccount& d, bool dark) {
    QStringList keys;
    for (const AccountPart& p : accountParts(d, dark))
        if (p.value > 0)
            keys << QStringLiteral("<span style='color:%1'>■</span> %2 %3")
                        .arg(p.color.name(), p.label, shortDuration(p.value));
    return keys.join(" &nbsp; ");
}

}  // namespace

TableSnapshot OverviewPanel::snapshot() const {
    TableSnapshot t;
    t.protect = protectedFilesOf(this);
    const auto trace = session()->trace();
    t.title = tr("Where the GPU time goes").toStdString();
    if (!breakdown_ || !trace) return t;
    t.title += " (" + breakdown_->scope.toStdString() + ")";
    auto model = std::make_shared<AnalysisTableModel>();
    model->setResult(
        resultRows(accountTable(breakdown_->account, breakdown_->devices), trace->spanStart));
    t.model = model.get();
    t.rows = allRows(*model);
    t.owned = std::move(model);
    return t;
}

AnalysisPanel::Work OverviewPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                           AnalysisScope scope, TimeNs threshold) {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    // The findings are the whole trace's: computed once per trace and threshold.
    std::optional<QString> known;
    if (findingsOf_ == indexed->trace.get() && findingsThreshold_ == threshold) known = findings_;
    const QString scopeText = session()->scopeText();
    return [this, indexed, scope, threshold, dark, known,
            scopeText](const CancelToken& cancel) -> Show {
        const Trace& t = *indexed->trace;
        const AnalysisIndex* index = indexed->index.get();
        StepOptions so;
        so.index = index;
        so.minGapNs = threshold;
        so.cancel = &cancel;
        so.window = scope.window;
        so.onlyNumber = scope.step;
        // The scope's figures are what advice reads, over the scope.
        const AdviceData figures = adviceData(t, so);
        if (cancel.isCancelled()) return {};
        const auto& breakdowns = figures.breakdowns;
        const StepsResult& steps = figures.steps;
        const PipelineReport& pipeline = figures.pipeline;
        const MemoryReport& memory = figures.memory;
        const auto& kernels = figures.kernels;
        QString findingsPart;
        if (known) {
            findingsPart = *known;
        } else {
            // Advice is about the whole trace: for that scope it is at hand.
            const std::vector<Finding> findings =
                scope.whole() ? advise(t, figures.inputs()) : adviseWholeTrace(t, so, index);
            if (cancel.isCancelled()) return {};
            findingsPart =
                findings.empty() ? tr("<p>No findings.</p>") : findingsHtml(t, findings, 3, false);
        }

        const TimeAccount& account = figures.account;
        QString html = QStringLiteral("<h3>%1</h3>").arg(tr("Where the GPU time goes"));
        if (account.devices.empty()) html += tr("<p>No GPU activity in this scope.</p>");
        const QString ofWhat =
            account.denominator == Denominator::StepTime
                ? (account.steps == 1 ? tr("of the step time (1 step)")
                                      : tr("of the step time (%1 steps)").arg(account.steps))
                : tr("of its active span");
        for (const GpuTimeAccount& d : account.devices) {
            html += QStringLiteral("<p><b>%1</b>: busy %2 %3, %4; idle %5 — %6<br>%7</p>")
                        .arg(QString::fromStdString(t.gpuLabel(d.device)).toHtmlEscaped())
                        .arg(formatPercent(d.time > 0 ? double(d.busy()) / double(d.time) : 0),
                             ofWhat, shortDuration(d.time), shortDuration(d.idle()),
                             panelLink(QStringLiteral("gapsDock"), tr("gaps by cause")),
                             accountLegend(d, dark)) +
                    accountBar(d, dark);
        }
        html += QStringLiteral("<h3>%1</h3><p>").arg(tr("Steps and input"));
        if (steps.steps.empty()) {
            html += tr("No steps found.");
        } else {
            TimeNs total = 0;
            const StepReport* slowest = &steps.steps.front();
            for (const StepReport& r : steps.steps) {
                total += r.duration;
                if (r.duration > slowest->duration) slowest = &r;
            }
            html += tr("%1 steps: mean %2, median %3, slowest %4 (step %5). ")
                        .arg(steps.steps.size())
                        .arg(shortDuration(total / TimeNs(steps.steps.size())),
                             shortDuration(steps.medianDuration.value_or(0)),
                             shortDuration(slowest->duration))
                        .arg(slowest->step.number);
            html += panelLink(QStringLiteral("stepsDock"), tr("Steps"));
        }
        html += "<br>" + tr("Input pipeline: <b>%1</b>")
                             .arg(QString::fromLatin1(inputVerdictName(pipeline.verdict)));
        if (pipeline.inputShare)
            html += tr(" (%1 of the %2 %3 waiting for input: %4) ")
                        .arg(formatPercent(*pipeline.inputShare),
                             QString::fromLatin1(denominatorName(pipeline.denominator)),
                             pipeline.fromGpu ? tr("idle") : tr("on the host"),
                             shortDuration(pipeline.inputWait));
        html += panelLink(QStringLiteral("InputPipelineDock"), tr("Input Pipeline")) + "</p>";
        html += QStringLiteral("<h3>%1</h3><p>").arg(tr("Memory"));
        if (memory.devices.empty()) html += tr("No memory events.");
        for (const DeviceMemory& m : memory.devices) {
            html += (m.gpu ? QString::fromStdString(t.gpuLabel(m.device)) : tr("Host")) + ": " +
                    tr("peak %1").arg(formatBytes(m.peakAllocated));
            if (m.peakShare) html += tr(" (%1 of the device)").arg(formatPercent(*m.peakShare));
            if (m.relative) html += tr(" relative to the start");
            if (m.growthPerStep)
                html += tr(", grows %1 per step").arg(formatBytes(*m.growthPerStep));
            html += "<br>";
        }
        html += panelLink(QStringLiteral("MemoryDock"), tr("Memory")) + "</p>";
        html += QStringLiteral("<h3>%1</h3><ol>").arg(tr("Top kernels"));
        for (size_t i = 0; i < kernels.size() && i < 5; ++i) {
            QString name = QString::fromUtf8(t.str(kernels[i].name));
            if (name.size() > 70) name = name.left(67) + QStringLiteral("…");
            html +=
                QStringLiteral("<li>%1 — %2 (%3 of busy)</li>")
                    .arg(sliceLink(kernels[i].firstSlice, name), shortDuration(kernels[i].total),
                         formatPercent(kernels[i].shareOfBusyTime));
        }
        html += "</ol>" + panelLink(QStringLiteral("kernelsDock"), tr("Kernels"));
        html += QStringLiteral("<h3>%1</h3>").arg(tr("Findings"));
        html += findingsPart;
        html += panelLink(QStringLiteral("AdviceDock"), tr("All findings with evidence"));
        const Trace* of = indexed->trace.get();
        auto breakdown =
            std::make_shared<const Breakdown>(Breakdown{account, breakdowns, scopeText});
        return [this, html, findingsPart, of, threshold, breakdown] {
            breakdown_ = breakdown;
            findings_ = findingsPart;
            findingsOf_ = of;
            findingsThreshold_ = threshold;
            view_->setHtml(html);
        };
    };
}

}  // namespace gapscope::ui
