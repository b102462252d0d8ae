#include "panels/overview_panel.h"

#include <QVBoxLayout>

#include "analysis/advice.h"
#include "analysis/distribution.h"
#include "panels/advice_panel.h"
#include "panels/analysis_table.h"
#include "panels/cause_colors.h"
#include "panels/link_view.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "report/analysis_tables.h"
#include "util/symbol_names.h"

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
    model->setResult(breakdown_->gpus);
    t.model = model.get();
    t.rows = allRows(*model);
    t.owned = std::move(model);
    return t;
}

struct OverviewPanel::Computed {
    QString html, findings;
    const Trace* of = nullptr;
    TimeNs threshold = 0;
    std::shared_ptr<const Breakdown> breakdown;
};

namespace {

// From the GUI thread: the palette, the findings already made for this
// trace and threshold (they are the whole trace's), the scope's name.
struct OverviewInputs {
    bool dark = false;
    std::optional<QString> known;
    QString scopeText;
};

std::optional<OverviewPanel::Computed> computeOverview(const AnalysisPanel::Request& request,
                                                       const OverviewInputs& in) {
    const Trace& t = request.trace();
    const AnalysisIndex* index = request.indexed->index.get();
    StepOptions so;
    so.index = index;
    so.minGapNs = request.gapThreshold;
    so.cancel = request.cancel;
    so.window = request.scope.window;
    so.onlyNumber = request.scope.step;
    // The scope's figures are what advice reads, over the scope; the
    // numbers shown are the registered analyses' (the summary's, the CLI's).
    const AdviceData figures = adviceData(t, so);
    const AnalysisResult accountResult = request.compute("account");
    const AnalysisResult stepsResult = request.compute("steps");
    if (request.cancelled() || !accountResult.table("gpus")) return std::nullopt;
    const ResultTable& gpus = *accountResult.table("gpus");
    const StepsResult& steps = figures.steps;
    const PipelineReport& pipeline = figures.pipeline;
    const MemoryReport& memory = figures.memory;
    const auto& kernels = figures.kernels;
    QString findingsPart;
    if (in.known) {
        findingsPart = *in.known;
    } else {
        // Advice is about the whole trace: for that scope it is at hand.
        const std::vector<Finding> findings =
            request.scope.whole() ? advise(t, figures.inputs()) : adviseWholeTrace(t, so, index);
        if (request.cancelled()) return std::nullopt;
        findingsPart = findings.empty() ? OverviewPanel::tr("<p>No findings.</p>")
                                        : findingsHtml(t, findings, 3, false);
    }

    const TimeAccount& account = figures.account;
    QString html = QStringLiteral("<h3>%1</h3>").arg(OverviewPanel::tr("Where the GPU time goes"));
    if (account.devices.empty()) html += OverviewPanel::tr("<p>No GPU activity in this scope.</p>");
    // Each GPU over its own steps (those of its rank), else its active span.
    auto ofWhat = [&](const GpuTimeAccount& d) {
        if (d.denominator == Denominator::StepTime)
            return d.steps == 1 ? OverviewPanel::tr("of the step time (1 step)")
                                : OverviewPanel::tr("of the step time (%1 steps)").arg(d.steps);
        return account.denominator == Denominator::StepTime
                   ? OverviewPanel::tr("of its active span (no steps of its own)")
                   : OverviewPanel::tr("of its active span");
    };
    for (size_t i = 0; i < account.devices.size(); ++i) {
        const GpuTimeAccount& d = account.devices[i];
        const ResultCell& busyShare = gpus.at(i, "busy_share");
        auto ns = [&](const char* key) { return integerOr(gpus.at(i, key)); };
        html += QStringLiteral("<p><b>%1</b>: busy %2 %3, %4; idle %5 — %6<br>%7</p>")
                    .arg(QString::fromStdString(t.gpuLabel(d.device)).toHtmlEscaped())
                    .arg(formatPercent(std::holds_alternative<double>(busyShare)
                                           ? std::get<double>(busyShare)
                                           : 0),
                         ofWhat(d), shortDuration(ns("time_ns")), shortDuration(ns("idle_ns")),
                         panelLink(QStringLiteral("gapsDock"), OverviewPanel::tr("gaps by cause")),
                         accountLegend(d, in.dark)) +
                accountBar(d, in.dark);
    }
    html += QStringLiteral("<h3>%1</h3><p>").arg(OverviewPanel::tr("Steps and input"));
    if (steps.steps.empty()) {
        html += OverviewPanel::tr("No steps found.");
    } else {
        // The steps analysis's figures of the steps in scope; the trace's
        // median beside one step.
        auto ns = [&](const char* key) { return integerOr(stepsResult.figure(key)); };
        if (steps.steps.size() == 1)
            html +=
                OverviewPanel::tr("Step %1 lasted %2 (the median of all steps: %3). ")
                    .arg(ns("slowest_step"))
                    .arg(shortDuration(ns("slowest_ns")), shortDuration(ns("median_duration_ns")));
        else
            html += OverviewPanel::tr("%1 steps lasted: mean %2, median %3, slowest %4 (step %5). ")
                        .arg(ns("step_count"))
                        .arg(shortDuration(ns("mean_duration_ns")),
                             shortDuration(ns("listed_median_ns")), shortDuration(ns("slowest_ns")))
                        .arg(ns("slowest_step"));
        html += panelLink(QStringLiteral("stepsDock"), OverviewPanel::tr("Steps"));
    }
    html += "<br>" + OverviewPanel::tr("Input pipeline: <b>%1</b>")
                         .arg(QString::fromLatin1(inputVerdictName(pipeline.verdict)));
    if (pipeline.inputShare)
        html += OverviewPanel::tr(" (%1 of the %2 %3 waiting for input: %4) ")
                    .arg(formatPercent(*pipeline.inputShare),
                         QString::fromLatin1(denominatorName(pipeline.denominator)),
                         pipeline.fromGpu ? OverviewPanel::tr("idle")
                                          : OverviewPanel::tr("on the host"),
                         shortDuration(pipeline.inputWait));
    html += panelLink(QStringLiteral("InputPipelineDock"), OverviewPanel::tr("Input Pipeline")) +
            "</p>";
    html += QStringLiteral("<h3>%1</h3><p>").arg(OverviewPanel::tr("Memory"));
    if (memory.devices.empty()) html += OverviewPanel::tr("No memory events.");
    for (const DeviceMemory& m : memory.devices) {
        html += (m.gpu ? QString::fromStdString(t.gpuLabel(m.device)) : OverviewPanel::tr("Host")) +
                ": " + OverviewPanel::tr("peak %1").arg(formatBytes(m.peakAllocated));
        if (m.peakShare)
            html += OverviewPanel::tr(" (%1 of the device)").arg(formatPercent(*m.peakShare));
        if (m.relative) html += OverviewPanel::tr(" relative to the start");
        if (m.growthPerStep)
            html += OverviewPanel::tr(", grows %1 per step").arg(formatBytes(*m.growthPerStep));
        html += "<br>";
    }
    html += panelLink(QStringLiteral("MemoryDock"), OverviewPanel::tr("Memory")) + "</p>";
    html += QStringLiteral("<h3>%1</h3><ol>").arg(OverviewPanel::tr("Top kernels"));
    // Each told apart from the others shown (two kernels of one short name).
    std::vector<std::string_view> topNames;
    for (size_t i = 0; i < kernels.size() && i < 5; ++i)
        topNames.push_back(t.str(kernels[i].name));
    const std::vector<std::string> topShort = distinctShortNames(topNames);
    for (size_t i = 0; i < kernels.size() && i < 5; ++i) {
        html +=
            // The share the summary, the report and HTA's kernel breakdown give.
            OverviewPanel::tr("<li>%1 — %2 (%3 of kernel time)</li>")
                .arg(symbolLink(kernels[i].firstSlice, t.str(kernels[i].name), topShort[i]),
                     shortDuration(kernels[i].total), formatPercent(kernels[i].shareOfKernelTime));
    }
    html += "</ol>" + panelLink(QStringLiteral("kernelsDock"), OverviewPanel::tr("Kernels"));
    html += QStringLiteral("<h3>%1</h3>").arg(OverviewPanel::tr("Findings"));
    html += findingsPart;
    html +=
        panelLink(QStringLiteral("AdviceDock"), OverviewPanel::tr("All findings with evidence"));
    auto breakdown = std::make_shared<const OverviewPanel::Breakdown>(
        OverviewPanel::Breakdown{resultRows(gpus, t.spanStart), in.scopeText});
    return OverviewPanel::Computed{html, findingsPart, request.indexed->trace.get(),
                                   request.gapThreshold, breakdown};
}

}  // namespace

AnalysisPanel::Work OverviewPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                           AnalysisScope scope, TimeNs threshold) {
    OverviewInputs in;
    in.dark = palette().color(QPalette::Window).lightness() < 128;
    if (findingsOf_ == indexed->trace.get() && findingsThreshold_ == threshold)
        in.known = findings_;
    in.scopeText = session()->scopeText();
    return computeThen(indexed, scope, threshold, in, &computeOverview, &OverviewPanel::present);
}

void OverviewPanel::present(const Computed& c) {
    breakdown_ = c.breakdown;
    findings_ = c.findings;
    findingsOf_ = c.of;
    findingsThreshold_ = c.threshold;
    view_->setHtml(c.html);
}

}  // namespace gapscope::ui
