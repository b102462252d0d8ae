#include "panels/memory_panel.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>
#include <variant>

#include "analysis/memory_held.h"
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
        // Its allocations: what the largest ops hold over time, and what
        // is alive at the moment listed, in words (none without them).
        std::shared_ptr<const HeldBand> band;
        QString held;
    };
    std::vector<Choice> choices;
    ResultRows perStep;  // every device's peak per step (the registry's table)
    ResultRows aliveByOp, aliveByPhase, leftPerStep, alive, leaks, neverFreed;  // every allocator's
};

MemoryPanel::MemoryPanel(AnalysisSession* session, ViewState* view, QWidget* parent)
    : AnalysisPanel(session, parent),
      chart_(new MemoryChart(view, this)),
      curves_(new QComboBox(this)),
      summary_(new QLabel(this)),
      held_(new QLabel(this)),
      legend_(new QLabel(this)),
      peak_(new QPushButton(tr("At the peak"), this)),
      tabs_(new QTabWidget(this)),
      perStep_(new AnalysisTable(this)),
      aliveByOp_(new AnalysisTable(this)),
      aliveByPhase_(new AnalysisTable(this)),
      leftPerStep_(new AnalysisTable(this)),
      alive_(new AnalysisTable(this)),
      leaks_(new AnalysisTable(this)),
      neverFreed_(new AnalysisTable(this)) {
    summary_->setWordWrap(true);
    held_->setWordWrap(true);
    legend_->setWordWrap(true);
    legend_->setTextFormat(Qt::RichText);
    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Curve:"), this));
    top->addWidget(curves_, 1);
    body()->addLayout(top);
    body()->addWidget(summary_);
    auto* chartBox = new QWidget(this);
    auto* chartLayout = new QVBoxLayout(chartBox);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    chartLayout->addWidget(chart_, 1);
    chartLayout->addWidget(legend_);
    auto* tablesBox = new QWidget(this);
    auto* tablesLayout = new QVBoxLayout(tablesBox);
    tablesLayout->setContentsMargins(0, 0, 0, 0);
    auto* heldRow = new QHBoxLayout;
    heldRow->addWidget(held_, 1);
    heldRow->addWidget(peak_);
    tablesLayout->addLayout(heldRow);
    tablesLayout->addWidget(tabs_, 1);
    tabs_->addTab(aliveByOp_, tr("Alive by op"));
    tabs_->addTab(aliveByPhase_, tr("Alive by phase"));
    tabs_->addTab(alive_, tr("Alive allocations"));
    tabs_->addTab(leaks_, tr("Leak candidates"));
    tabs_->addTab(leftPerStep_, tr("Left by step"));
    tabs_->addTab(neverFreed_, tr("Never freed"));
    tabs_->addTab(perStep_, tr("Peak per step"));
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(chartBox);
    split->addWidget(tablesBox);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    body()->addWidget(split, 1);
    // In export titles.
    perStep_->setAccessibleName(tr("peak per step"));
    aliveByOp_->setAccessibleName(tr("alive by allocating op"));
    aliveByPhase_->setAccessibleName(tr("alive by phase"));
    leftPerStep_->setAccessibleName(tr("left by each step"));
    alive_->setAccessibleName(tr("alive allocations"));
    leaks_->setAccessibleName(tr("leak candidates"));
    neverFreed_->setAccessibleName(tr("never freed"));
    peak_->setToolTip(tr("List what is alive at each device's peak again"));
    peak_->setEnabled(false);
    connect(peak_, &QPushButton::clicked, this, [this] { showAliveAt(std::nullopt); });
    connect(curves_, &QComboBox::currentIndexChanged, this, &MemoryPanel::showCurve);
    connect(session, &AnalysisSession::traceChanged, this, [this, session] {
        at_.reset();
        chart_->setTrace(session->trace());
    });
    // A click on the curve: that moment on the timeline, and what is alive then.
    connect(chart_, &MemoryChart::timeClicked, this, [this, session](TimeNs t) {
        session->navigate(NavTarget::toRange({t, t + 1}));
        showAliveAt(t);
    });
    connect(perStep_, &AnalysisTable::activated, this, [session](const NavTarget& t) {
        if (t.kind == NavTarget::Kind::Step) session->setStepScope(t.step);
    });
    // An allocation (or a group's largest): its op, over its lifetime.
    for (AnalysisTable* table : {aliveByOp_, aliveByPhase_, alive_, leaks_, neverFreed_})
        connect(table, &AnalysisTable::activated, this,
                [session](const NavTarget& t) { session->navigate(t); });
    connect(leftPerStep_, &AnalysisTable::activated, this, [session](const NavTarget& t) {
        if (t.kind == NavTarget::Kind::Step) session->setStepScope(t.step);
    });
}

AnalysisOptions MemoryPanel::options() const {
    AnalysisOptions o;
    o.set("leaks");
    o.set("top", 500);
    if (at_) o.set("at", *at_);
    return o;
}

QString MemoryPanel::heldText() const {
    return held_->text();
}

void MemoryPanel::showAliveAt(std::optional<TimeNs> at) {
    if (at == at_) return;
    at_ = at;
    peak_->setEnabled(at_.has_value());
    recompute();
}

QString MemoryPanel::summaryText() const {
    return summary_->text();
}

void MemoryPanel::clearContents() {
    shown_.reset();
    const QSignalBlocker block(curves_);
    curves_->clear();
    summary_->clear();
    held_->clear();
    legend_->clear();
    for (AnalysisTable* table :
         {perStep_, aliveByOp_, aliveByPhase_, leftPerStep_, alive_, leaks_, neverFreed_})
        table->model()->clearRows();
    chart_->setCurves(kNone, kNone, std::nullopt, 0);
    chart_->setBand(nullptr);
    chart_->setMoment(std::nullopt);
}

void MemoryPanel::showCurve(int index) {
    if (!shown_ || index < 0 || index >= static_cast<int>(shown_->choices.size())) return;
    const Shown::Choice& c = shown_->choices[static_cast<size_t>(index)];
    chart_->setCurves(c.allocated, c.reserved, c.peakTime, c.peak);
    chart_->setBand(c.band);
    chart_->setMoment(at_);
    summary_->setText(c.summary);
    held_->setText(c.held);

    QStringList legend;
    if (c.band)
        for (size_t l = 0; l < c.band->names.size(); ++l)
            legend << QStringLiteral("<span style=\"color:%1\">■</span>&nbsp;%2")
                          .arg(MemoryChart::layerColor(l, c.band->names.size()).name(),
                               QString::fromStdString(c.band->names[l]).toHtmlEscaped());
    legend_->setText(legend.isEmpty() ? QString()
                                      : tr("Held at the moment listed, by op: ") +
                                            legend.join(QStringLiteral(" &nbsp; ")));
}

namespace {

// The allocator a curve's device is (the first process's), or kNone.
uint32_t allocatorOf(const MemoryAllocations& m, const DeviceMemory& d) {
    for (uint32_t a = 0; a < m.allocators.size(); ++a)
        if ((m.allocators[a].deviceType != 0) == d.gpu &&
            (!d.gpu || m.allocators[a].deviceId == d.device))
            return a;
    return kNone;
}

// What is alive at the moment, in words, from the allocators table's row.
QString heldSentence(const Trace& t, const ResultTable& allocators, const std::string& device,
                     bool atPeak) {
    for (size_t i = 0; i < allocators.rows.size(); ++i) {
        if (textOr(allocators.at(i, "device")) != device) continue;
        auto bytes = [&](const char* key) {
            return formatBytes(double(integerOr(allocators.at(i, key))));
        };
        const TimeNs at = integerOr(allocators.at(i, "at_ns"));
        QString s = (atPeak ? MemoryPanel::tr("Alive at the peak (%1): %2 allocated")
                            : MemoryPanel::tr("Alive at %1: %2 allocated"))
                        .arg(shortDuration(at - t.spanStart), bytes("allocated_at_bytes"));
        s += MemoryPanel::tr(", %1 by allocations the trace saw made, %2 from before it.")
                 .arg(bytes("alive_known_bytes"), bytes("before_trace_bytes"));
        if (std::holds_alternative<int64_t>(allocators.at(i, "unused_at_peak_bytes")))
            s += MemoryPanel::tr(" At the peak %1 reserved was unused; largest allocation %2.")
                     .arg(bytes("unused_at_peak_bytes"), bytes("largest_allocation_bytes"));
        if (std::holds_alternative<int64_t>(allocators.at(i, "headroom_bytes")))
            s += MemoryPanel::tr(" Headroom to the device: %1.").arg(bytes("headroom_bytes"));
        if (const int64_t unknown = integerOr(allocators.at(i, "unknown_frees")); unknown > 0)
            s += MemoryPanel::tr(" %1 frees of addresses not allocated in the trace.").arg(unknown);
        return s;
    }
    return {};
}

std::optional<std::shared_ptr<const MemoryPanel::Shown>> computeMemory(
    const AnalysisPanel::Request& request, const AnalysisOptions& options) {
    const std::optional<TimeNs> moment = options.value("at");
    const Trace& t = request.trace();
    const std::vector<Step>& steps = request.indexed->index->steps().steps;
    // The curves to draw (the counters' samples); every figure said of them
    // is the registered analysis's, of the whole trace as the curves.
    const MemoryReport r = memoryUsage(t, steps);
    AnalysisPanel::Request whole = request;
    whole.scope = AnalysisScope{};
    const AnalysisResult registered = whole.compute("memory", options);
    if (request.cancelled() || !registered.table("memory_per_step") ||
        !registered.table("allocators"))
        return std::nullopt;
    // The band under each curve: its allocator's pairing, as the analysis's.
    const MemoryAllocations m = pairAllocations(t, request.cancel);
    if (m.cancelled) return std::nullopt;
    const ResultTable& devices = *registered.table("memory");
    if (devices.rows.size() != r.devices.size()) return std::nullopt;  // (one function: never)
    auto shown = std::make_shared<MemoryPanel::Shown>();
    shown->perStep = resultRows(*registered.table("memory_per_step"), t.spanStart);
    // Every device's rows, as the command lists them (the table's filter
    // narrows them to one).
    shown->aliveByOp = resultRows(*registered.table("alive_by_op"), t.spanStart);
    shown->aliveByPhase = resultRows(*registered.table("alive_by_phase"), t.spanStart);
    shown->leftPerStep = resultRows(*registered.table("left_per_step"), t.spanStart);
    shown->alive = resultRows(*registered.table("alive"), t.spanStart);
    shown->leaks = resultRows(*registered.table("leak_candidates"), t.spanStart);
    shown->neverFreed = resultRows(*registered.table("never_freed"), t.spanStart);
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
        if (const uint32_t a = allocatorOf(m, d); a != kNone) {
            const uint32_t event =
                moment ? MemoryAllocations::eventAt(t, *moment) : m.allocators[a].peakEvent;
            c.band = std::make_shared<const HeldBand>(heldBand(t, m, a, event, 5));
            c.held =
                heldSentence(t, *registered.table("allocators"), m.allocators[a].name(), !moment);

        } else {
            c.held = QString::fromStdString(textOr(registered.figure("allocation_source")));
        }
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
    return computeThen(indexed, scope, threshold, options(), &computeMemory, &MemoryPanel::present);
}

void MemoryPanel::present(const std::shared_ptr<const Shown>& shown) {
    const int previous = curves_->currentIndex();
    shown_ = shown;
    const QSignalBlocker block(curves_);
    curves_->clear();
    for (const auto& c : shown->choices)
        curves_->addItem(c.label);
    perStep_->model()->setResult(shown->perStep);
    perStep_->setDefaultSort(QStringLiteral("number"), Qt::AscendingOrder);
    aliveByOp_->model()->setResult(shown->aliveByOp);
    aliveByPhase_->model()->setResult(shown->aliveByPhase);
    leftPerStep_->model()->setResult(shown->leftPerStep);
    leftPerStep_->setDefaultSort(QStringLiteral("number"), Qt::AscendingOrder);
    alive_->model()->setResult(shown->alive);
    leaks_->model()->setResult(shown->leaks);
    neverFreed_->model()->setResult(shown->neverFreed);
    for (AnalysisTable* table : {aliveByOp_, aliveByPhase_, alive_, leaks_, neverFreed_})
        table->setDefaultSort(QStringLiteral("bytes"), Qt::DescendingOrder);

    if (shown->choices.empty()) {
        summary_->setText(tr("No memory events in this trace."));
        chart_->setCurves(kNone, kNone, std::nullopt, 0);
        perStep_->model()->clearRows();
        return;
    }
    // (The device shown stays shown when the moment changes.)
    const int keep = std::max(0, std::min(previous, static_cast<int>(shown->choices.size()) - 1));
    curves_->setCurrentIndex(keep);
    showCurve(keep);
}

}  // namespace gapscope::ui
