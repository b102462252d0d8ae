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
}

namespace {

struct AccountPart {
    TimeNs value;
    QColor color;
    QString label;
};

// The whole of a GPU's time in order, from its row of `account`'s gpus
// table: computation, exposed communication and memcpy, idle by cause and
// short gaps.
std::vector<AccountPart> accountParts(const ResultTable& gpus, size_t row, bool dark) {
    auto ns = [&](const std::string& key) { return integerOr(gpus.at(row, key)); };
    std::vector<AccountPart> parts = {
        {ns("computation_ns"), stepPartColor(StepPart::Compute, dark),
         stepPartLabel(StepPart::Compute)},
        {ns("exposed_comm_ns"), stepPartColor(StepPart::ExposedComm, dark),
         stepPartLabel(StepPart::ExposedComm)},
        {ns("exposed_memcpy_ns"), stepPartColor(StepPart::ExposedMemcpy, dark),
         stepPartLabel(StepPart::ExposedMemcpy)}};
    for (size_t c = 0; c < kGapCauseCount; ++c)
        parts.push_back({ns("idle_" + std::string(gapCauseName(GapCause(c))) + "_ns"),
                         causeColor(GapCause(c), dark),
                         QObject::tr("idle: %1").arg(causeLabel(GapCause(c)))});
    parts.push_back({ns("idle_short_ns"), shortGapColor(dark), QObject::tr("short gaps")});
    return parts;
}

// Those parts as a horizontal bar (an HTML table) of the GPU's time.
QString accountBar(const std::vector<AccountPart>& parts, TimeNs time) {
    if (time <= 0) return {};
    QString cells;
    for (const AccountPart& p : parts) {
        const int pct = static_cast<int>(
            100.0 * static_cast<double>(p.value) / static_cast<double>(time) + 0.5);
        if (pct <= 0) continue;
        cells += QStringLiteral("<td width='%1%' bgcolor='%2' title='%3'>&nbsp;</td>")
                     .arg(pct)
                     .arg(p.color.name(), p.label + ": " + shortDuration(p.value));
    }
    return QStringLiteral("<table width='100%' cellspacing='0' cellpadding='2'><tr>%1</tr></table>")
        .arg(cells);
}

// The parts that are not zero, with their colour keys.
QString accountLegend(const std::vector<AccountPart>& parts) {
    QStringList keys;
    for (const AccountPart& p : parts)
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
    QString html;
    std::shared_ptr<const Breakdown> breakdown;
};

namespace {

// From the GUI thread: the palette, the scope's name.
struct OverviewInputs {
    bool dark = false;
    QString scopeText;
};

double shareOr(const ResultCell& cell) {
    const auto* d = std::get_if<double>(&cell);
    return d ? *d : 0;
}

// Where the GPU time goes, each GPU over its own steps (those of its
// rank), else its active span: `account`'s figures and gpus table.
QString accountSection(const Trace& t, const AnalysisResult& account, bool dark) {
    const ResultTable& gpus = *account.table("gpus");
    QString html = QStringLiteral("<h3>%1</h3>").arg(OverviewPanel::tr("Where the GPU time goes"));
    if (gpus.rows.empty()) html += OverviewPanel::tr("<p>No GPU activity in this scope.</p>");
    const bool someSteps = textOr(account.figure("denominator")) != "active span";
    for (size_t i = 0; i < gpus.rows.size(); ++i) {
        auto ns = [&](const char* key) { return integerOr(gpus.at(i, key)); };
        QString of;
        if (textOr(gpus.at(i, "of")) == "step time")
            of = ns("steps") == 1
                     ? OverviewPanel::tr("of the step time (1 step)")
                     : OverviewPanel::tr("of the step time (%1 steps)").arg(ns("steps"));
        else
            of = someSteps ? OverviewPanel::tr("of its active span (no steps of its own)")
                           : OverviewPanel::tr("of its active span");
        const std::vector<AccountPart> parts = accountParts(gpus, i, dark);
        html += QStringLiteral("<p><b>%1</b>: busy %2 %3, %4; idle %5 — %6<br>%7</p>")
                    .arg(QString::fromStdString(t.gpuLabel(static_cast<int>(ns("device"))))
                             .toHtmlEscaped())
                    .arg(formatPercent(shareOr(gpus.at(i, "busy_share"))), of,
                         shortDuration(ns("time_ns")), shortDuration(ns("idle_ns")),
                         panelLink(QStringLiteral("gapsDock"), OverviewPanel::tr("gaps by cause")),
                         accountLegend(parts)) +
                accountBar(parts, ns("time_ns"));
    }
    return html;
}

// The steps in scope (`steps`' figures; the trace's median beside one
// step) and the input pipeline's verdict (`pipeline`'s).
QString stepsSection(const AnalysisResult& steps, const AnalysisResult& pipeline) {
    QString html = QStringLiteral("<h3>%1</h3><p>").arg(OverviewPanel::tr("Steps and input"));
    auto ns = [&](const char* key) { return integerOr(steps.figure(key)); };
    const int64_t count = ns("step_count");
    if (count == 0)
        html += OverviewPanel::tr("No steps found.");
    else if (count == 1)
        html += OverviewPanel::tr("Step %1 lasted %2 (the median of all steps: %3). ")
                    .arg(ns("slowest_step"))
                    .arg(shortDuration(ns("slowest_ns")), shortDuration(ns("median_duration_ns")));
    else
        html += OverviewPanel::tr("%1 steps lasted: mean %2, median %3, slowest %4 (step %5). ")
                    .arg(count)
                    .arg(shortDuration(ns("mean_duration_ns")),
                         shortDuration(ns("listed_median_ns")), shortDuration(ns("slowest_ns")))
                    .arg(ns("slowest_step"));
    if (count > 0) html += panelLink(QStringLiteral("stepsDock"), OverviewPanel::tr("Steps"));
    const std::string verdict = textOr(pipeline.figure("verdict"), "not input-bound");
    html += "<br>" + OverviewPanel::tr("Input pipeline: <b>%1</b>")
                         .arg(QString::fromStdString(verdict).toHtmlEscaped());
    if (const auto* share = std::get_if<double>(&pipeline.figure("input_share")))
        html +=
            OverviewPanel::tr(" (%1 of the %2 %3 waiting for input: %4) ")
                .arg(formatPercent(*share),
                     QString::fromStdString(textOr(pipeline.figure("denominator"))),
                     textOr(pipeline.figure("from")) == "gpu" ? OverviewPanel::tr("idle")
                                                              : OverviewPanel::tr("on the host"),
                     shortDuration(integerOr(pipeline.figure("input_wait_ns"))));
    return html +
           panelLink(QStringLiteral("InputPipelineDock"), OverviewPanel::tr("Input Pipeline")) +
           "</p>";
}

// Each device's peak and growth (`memory`'s table).
QString memorySection(const AnalysisResult& memory) {
    QString html = QStringLiteral("<h3>%1</h3><p>").arg(OverviewPanel::tr("Memory"));
    const ResultTable& devices = *memory.table("memory");
    if (devices.rows.empty()) html += OverviewPanel::tr("No memory events.") + "<br>";
    for (size_t i = 0; i < devices.rows.size(); ++i) {
        const std::string device = textOr(devices.at(i, "device"));
        html += (device == "host" ? OverviewPanel::tr("Host") : QString::fromStdString(device)) +
                ": " +
                OverviewPanel::tr("peak %1").arg(
                    formatBytes(double(integerOr(devices.at(i, "peak_allocated_bytes")))));
        if (const auto* share = std::get_if<double>(&devices.at(i, "peak_share")))
            html += OverviewPanel::tr(" (%1 of the device)").arg(formatPercent(*share));
        if (integerOr(devices.at(i, "relative")) != 0)
            html += OverviewPanel::tr(" relative to the start");
        if (const auto* growth = std::get_if<int64_t>(&devices.at(i, "growth_bytes_per_step")))
            html += OverviewPanel::tr(", grows %1 per step").arg(formatBytes(double(*growth)));
        html += "<br>";
    }
    return html + panelLink(QStringLiteral("MemoryDock"), OverviewPanel::tr("Memory")) + "</p>";
}

// The five kernels with the most time (`kernels`' table, by total time),
// each told apart from the others shown (two kernels of one short name).
QString kernelsSection(const AnalysisResult& kernels) {
    QString html = QStringLiteral("<h3>%1</h3><ol>").arg(OverviewPanel::tr("Top kernels"));
    const ResultTable& rows = *kernels.table("kernels");
    const size_t shown = std::min<size_t>(rows.rows.size(), 5);
    std::vector<std::string> names;
    for (size_t i = 0; i < shown; ++i)
        names.push_back(textOr(rows.at(i, "name")));
    const std::vector<std::string> topShort =
        distinctShortNames(std::vector<std::string_view>(names.begin(), names.end()));
    for (size_t i = 0; i < shown; ++i)
        // The share the summary, the report and HTA's kernel breakdown give.
        html += OverviewPanel::tr("<li>%1 — %2 (%3 of kernel time)</li>")
                    .arg(symbolLink(rows.rows[i].ref.slice, names[i], topShort[i]),
                         shortDuration(integerOr(rows.at(i, "total_ns"))),
                         formatPercent(shareOr(rows.at(i, "share_of_kernel_time"))));
    return html + "</ol>" + panelLink(QStringLiteral("kernelsDock"), OverviewPanel::tr("Kernels"));
}

// The scope's figures are the registered analyses' (the summary's, the
// CLI's), computed once per scope for the Overview and the panels alike.
std::optional<OverviewPanel::Computed> computeOverview(const AnalysisPanel::Request& request,
                                                       const OverviewInputs& in) {
    const Trace& t = request.trace();
    const AnalysisResult account = request.compute("account");
    const AnalysisResult steps = request.compute("steps");
    const AnalysisResult pipeline = request.compute("pipeline");
    const AnalysisResult memory = request.compute("memory");
    const AnalysisResult kernels = request.compute("kernels");
    // Advice is about the whole trace, whatever the scope.
    const AnalysisResult advice = request.compute("advice");
    if (request.cancelled() || !account.table("gpus")) return std::nullopt;
    QString html = accountSection(t, account, in.dark) + stepsSection(steps, pipeline) +
                   memorySection(memory) + kernelsSection(kernels);
    html += QStringLiteral("<h3>%1</h3>").arg(OverviewPanel::tr("Findings"));
    html += advice.findings.empty() ? OverviewPanel::tr("<p>No findings.</p>")
                                    : findingsHtml(t, advice.findings, 3, false);
    html +=
        panelLink(QStringLiteral("AdviceDock"), OverviewPanel::tr("All findings with evidence"));
    auto breakdown = std::make_shared<const OverviewPanel::Breakdown>(
        OverviewPanel::Breakdown{resultRows(*account.table("gpus"), t.spanStart), in.scopeText});
    return OverviewPanel::Computed{html, breakdown};
}

}  // namespace

AnalysisPanel::Work OverviewPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                           AnalysisScope scope, TimeNs threshold) {
    OverviewInputs in;
    in.dark = palette().color(QPalette::Window).lightness() < 128;
    in.scopeText = session()->scopeText();
    return computeThen(indexed, scope, threshold, in, &computeOverview, &OverviewPanel::present);
}

void OverviewPanel::present(const Computed& c) {
    breakdown_ = c.breakdown;
    view_->setHtml(c.html);
}

}  // namespace gapscope::ui
