#include "panels/memory_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>
#include <variant>

#include "analysis/memory_usage.h"
#include "panels/analysis_table.h"
#include "panels/memory_chart.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

struct MemoryPanel::Shown {
    struct Choice {
        QString label;
        uint32_t allocated = kNone, reserved = kNone;
        std::optional<TimeNs> peakTime;
        double peak = 0;
        QString summary;
    };
    std::vector<Choice> choices;
    ResultRows perStep;  // every device's peak per step (the registry's table)
};

MemoryPanel::MemoryPanel(AnalysisSession* session, ViewState* view, QWidget* parent)
    : AnalysisPanel(session, parent),
      chart_(new MemoryChart(view, this)),
      curves_(new QComboBox(this)),
      summary_(new QLabel(this)),
      perStep_(new AnalysisTable(this)) {
    summary_->setWordWrap(true);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Curve:"), this));
    top->addWidget(curves_, 1);
    body()->addLayout(top);
    body()->addWidget(summary_);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chart_);
    split->addWidget(perStep_);
    split->setStretchFactor(0, 2);
    body()->addWidget(split, 1);
    // The columns before any trace (and for a curve that is not memory).
    perStep_->setAccessibleName(tr("peak per step"));  // in export titles
    connect(curves_, &QComboBox::currentIndexChanged, this, &MemoryPanel::showCurve);
    connect(session, &AnalysisSession::traceChanged, this,
            [this, session] { chart_->setTrace(session->trace()); });
    connect(chart_, &MemoryChart::timeClicked, this, [session](TimeNs t) {
        session->navigate(NavTarget::toRange({t, t + 1}));
    });
    connect(perStep_, &AnalysisTable::activated, this, [session](const NavTarget& t) {
        if (t.kind == NavTarget::Kind::Step) session->setStepScope(t.step);
    });
}

QString MemoryPanel::summaryText() const {
    return summary_->text();
}

void MemoryPanel::clearContents() {
    shown_.reset();
    const QSignalBlocker block(curves_);
    curves_->clear();
    summary_->clear();
    perStep_->model()->clearRows();
    chart_->setCurves(kNone, kNone, std::nullopt, 0);
}

void MemoryPanel::showCurve(int index) {
    if (!shown_ || index < 0 || index >= static_cast<int>(shown_->choices.size())) return;
    const Shown::Choice& c = shown_->choices[static_cast<size_t>(index)];
    chart_->setCurves(c.allocated, c.reserved, c.peakTime, c.peak);
    summary_->setText(c.summary);
}

namespace {

std::optional<std::shared_ptr<const MemoryPanel::Shown>> computeMemory(
    const AnalysisPanel::Request& request, const std::monostate&) {
    const Trace& t = request.trace();
    const std::vector<Step>& steps = request.indexed->index->steps().steps;
    // The curves to draw (the counters' samples); every figure said of them
    // is the registered analysis's, of the whole trace as the curves.
    const MemoryReport r = memoryUsage(t, steps);
    AnalysisPanel::Request whole = request;
    whole.scope = AnalysisScope{};
    const AnalysisResult registered = whole.compute("memory");
    if (request.cancelled() || !registered.table("memory_per_step")) return std::nullopt;
    const ResultTable& devices = *registered.table("memory");
    if (devices.rows.size() != r.devices.size()) return std::nullopt;  // (one function: never)
    auto shown = std::make_shared<MemoryPanel::Shown>();
    shown->perStep = resultRows(*registered.table("memory_per_step"), t.spanStart);
    for (size_t i = 0; i < r.devices.size(); ++i) {
        const DeviceMemory& d = r.devices[i];
        auto bytes = [&](const char* key) { return double(integerOr(devices.at(i, key))); };
        MemoryPanel::Shown::Choice c;
        c.label = d.gpu ? QString::fromStdString(t.gpuLabel(d.device)) : MemoryPanel::tr("Host");
        if (d.relative) c.label += MemoryPanel::tr(" (relative)");
        c.allocated = d.allocatedSeries;
        c.reserved = d.reservedSeries;
        c.peakTime = integerOr(devices.at(i, "peak_time_ns"));
        c.peak = bytes("peak_allocated_bytes");
        c.summary = MemoryPanel::tr("Peak allocated %1 at %2")
                        .arg(formatBytes(c.peak), shortDuration(*c.peakTime - t.spanStart));
        if (std::holds_alternative<int64_t>(devices.at(i, "peak_reserved_bytes")))
            c.summary += MemoryPanel::tr(", peak reserved %1")
                             .arg(formatBytes(bytes("peak_reserved_bytes")));
        if (const auto* share = std::get_if<double>(&devices.at(i, "peak_share")))
            c.summary += MemoryPanel::tr(", %1 of the device's %2")
                             .arg(formatPercent(*share), formatBytes(bytes("device_memory_bytes")));
        c.summary += ". ";
        const auto* r2 = std::get_if<double>(&devices.at(i, "growth_r2"));
        c.summary += std::holds_alternative<int64_t>(devices.at(i, "growth_bytes_per_step"))
                         ? MemoryPanel::tr("Memory grows ~%1 per step (R² %2).")
                               .arg(formatBytes(bytes("growth_bytes_per_step")))
                               .arg(r2 ? *r2 : 0, 0, 'f', 2)
                         : MemoryPanel::tr("No steady growth per step.");
        if (d.relative)
            c.summary +=
                MemoryPanel::tr(" Relative: the change since the trace start (2021 Kineto).");
        shown->choices.push_back(std::move(c));
    }
    for (const uint32_t s : r.otherCurves) {
        MemoryPanel::Shown::Choice c;
        c.label = QString::fromUtf8(t.str(t.counters[s].name));
        c.allocated = s;
        c.summary = MemoryPanel::tr("A counter series (not a memory curve).");
        shown->choices.push_back(std::move(c));
    }
    return std::shared_ptr<const MemoryPanel::Shown>(std::move(shown));
}

}  // namespace

AnalysisPanel::Work MemoryPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                         AnalysisScope scope, TimeNs threshold) {
    // The curves are the whole trace's: the chart follows the timeline's window.
    return computeThen(indexed, scope, threshold, std::monostate{}, &computeMemory,
                       &MemoryPanel::present);
}

void MemoryPanel::present(const std::shared_ptr<const Shown>& shown) {
    shown_ = shown;
    const QSignalBlocker block(curves_);
    curves_->clear();
    for (const auto& c : shown->choices)
        curves_->addItem(c.label);
    perStep_->model()->setResult(shown->perStep);
    perStep_->setDefaultSort(QStringLiteral("number"), Qt::AscendingOrder);
    if (shown->choices.empty()) {
        summary_->setText(tr("No memory events in this trace."));
        chart_->setCurves(kNone, kNone, std::nullopt, 0);
        perStep_->model()->clearRows();
        return;
    }
    curves_->setCurrentIndex(0);
    showCurve(0);
}

}  // namespace gapscope::ui
