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
    table_->setHiddenColumns({"end_ns"});
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
    const TimeNs threshold = request.gapThreshold;
    // The time account's gaps: the idle time every other view counts.
    const AnalysisResult r = request.compute("gaps");
    if (request.cancelled() || !r.table("gaps")) return std::nullopt;
    auto figure = [&](const std::string& key) { return std::get<int64_t>(r.figures.at(0, key)); };
    QString totals;
    for (size_t c = 0; c < kGapCauseCount; ++c) {
        const TimeNs byCause = figure("idle_by_cause." + std::string(gapCauseName(GapCause(c))));
        if (byCause == 0) continue;
        totals += QStringLiteral("<span style='color:%1'>■</span> %2 %3 &nbsp; ")
                      .arg(causeColor(GapCause(c), dark).name(), causeLabel(GapCause(c)),
                           shortDuration(byCause));
    }
    totals += QStringLiteral("<span style='color:%1'>■</span> %2 %3")
                  .arg(shortGapColor(dark).name(), GapsPanel::tr("short gaps"),
                       shortDuration(figure("short_gaps.total_ns")));
    if (!r.empty.empty())
        totals = GapsPanel::tr("No GPU activity in this scope.");
    else if (figure("gap_count") == 0)
        totals.prepend(GapsPanel::tr("No gap of at least %1. ").arg(shortDuration(threshold)));
    return GapsPanel::Computed{resultRows(*r.table("gaps"), request.trace().spanStart), totals};
}

}  // namespace

AnalysisPanel::Work GapsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                       AnalysisScope scope, TimeNs threshold) {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    return computeThen(indexed, scope, threshold, dark, &computeGaps, &GapsPanel::present);
}

void GapsPanel::present(const Computed& c) {
    table_->model()->setResult(c.gaps);
    table_->setDefaultSort(QStringLiteral("duration_ns"), Qt::DescendingOrder);
    totals_->setText(c.totals);
}

}  // namespace gapscope::ui
