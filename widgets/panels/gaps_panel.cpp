#include "panels/gaps_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "analysis/gap_causes.h"
#include "analysis/gpu_time_account.h"
#include "panels/analysis_table.h"
#include "panels/cause_colors.h"
#include "panels/result_rows.h"
#include "panels/units.h"
#include "report/analysis_tables.h"

namespace gapscope::ui {

GapsPanel::GapsPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent), table_(new AnalysisTable(this)), totals_(new QLabel(this)) {
    totals_->setTextFormat(Qt::RichText);
    totals_->setWordWrap(true);
    body()->addWidget(totals_);
    body()->addWidget(table_, 1);
    connect(table_, &AnalysisTable::activated, session, &AnalysisSession::navigate);
}

QString GapsPanel::totalsText() const {
    return totals_->text();
}

void GapsPanel::clearContents() {
    table_->model()->clearRows();
    totals_->clear();
}

struct GapsPanel::Computed {
    ResultRows gaps;
    QString totals;
};

namespace {

// `dark`: the palette's, read on the GUI thread.
std::optional<GapsPanel::Computed> computeGaps(const AnalysisPanel::Request& request,
                                               const bool& dark) {
    const Trace& t = request.trace();
    const TimeNs threshold = request.gapThreshold;
    // The time account's gaps: the idle time every other view counts.
    StepOptions o;
    o.index = request.indexed->index.get();
    o.minGapNs = threshold;
    o.cancel = request.cancel;
    o.window = request.scope.window;
    o.onlyNumber = request.scope.step;
    const auto devices = accountGaps(timeAccountOf(t, o));
    if (request.cancelled()) return std::nullopt;
    std::array<TimeNs, kGapCauseCount> byCause{};
    TimeNs shortTotal = 0;
    uint64_t listed = 0;
    for (const DeviceGaps& d : devices) {
        for (size_t c = 0; c < kGapCauseCount; ++c)
            byCause[c] += d.byCause[c];
        shortTotal += d.shortTotal;
        listed += d.gaps.size();
    }
    QString totals;
    for (size_t c = 0; c < kGapCauseCount; ++c) {
        if (byCause[c] == 0) continue;
        totals += QStringLiteral("<span style='color:%1'>■</span> %2 %3 &nbsp; ")
                      .arg(causeColor(GapCause(c), dark).name(), causeLabel(GapCause(c)),
                           shortDuration(byCause[c]));
    }
    totals += QStringLiteral("<span style='color:%1'>■</span> %2 %3")
                  .arg(shortGapColor(dark).name(), GapsPanel::tr("short gaps"),
                       shortDuration(shortTotal));
    if (devices.empty())
        totals = GapsPanel::tr("No GPU activity in this scope.");
    else if (listed == 0)
        totals.prepend(GapsPanel::tr("No gap of at least %1. ").arg(shortDuration(threshold)));
    return GapsPanel::Computed{resultRows(gapTable(t, devices), t.spanStart), totals};
}

}  // namespace

AnalysisPanel::Work GapsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                       AnalysisScope scope, TimeNs threshold) {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    return computeThen(indexed, scope, threshold, dark, &computeGaps, &GapsPanel::present);
}

void GapsPanel::present(const Computed& c) {
    table_->model()->setResult(c.gaps);
    table_->setDefaultSort(2, Qt::DescendingOrder);
    totals_->setText(c.totals);
}

}  // namespace gapscope::ui
