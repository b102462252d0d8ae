#include "panels/gaps_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "analysis/gap_causes.h"
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

AnalysisPanel::Work GapsPanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                       AnalysisScope scope, TimeNs threshold) {
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    return [this, indexed, scope, threshold, dark](const CancelToken& cancel) -> Show {
        const Trace& t = *indexed->trace;
        GapOptions o;
        o.window = scope.window;
        o.minGapNs = threshold;
        o.index = indexed->index.get();
        o.cancel = &cancel;
        const auto devices = gapsWithCauses(t, o);
        if (cancel.isCancelled()) return {};
        auto rows =
            std::make_shared<const ResultRows>(resultRows(gapTable(t, devices), t.spanStart));
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
                      .arg(shortGapColor(dark).name(), tr("short gaps"), shortDuration(shortTotal));
        if (devices.empty())
            totals = tr("No GPU activity in this scope.");
        else if (listed == 0)
            totals.prepend(tr("No gap of at least %1. ").arg(shortDuration(threshold)));
        return [this, rows, totals] {
            table_->model()->setResult(*rows);
            table_->setDefaultSort(2, Qt::DescendingOrder);
            totals_->setText(totals);
        };
    };
}

}  // namespace gapscope::ui
