#include "panels/gaps_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "analysis/gap_causes.h"
#include "panels/analysis_table.h"
#include "panels/cause_colors.h"
#include "panels/units.h"

namespace gapscope::ui {

GapsPanel::GapsPanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent), table_(new AnalysisTable(this)), totals_(new QLabel(this)) {
    totals_->setTextFormat(Qt::RichText);
    totals_->setWordWrap(true);
    body()->addWidget(totals_);
    body()->addWidget(table_, 1);
    table_->model()->setColumns({{tr("GPU"), CellKind::Count},
                                 {tr("Start"), CellKind::Time},
                                 {tr("Duration"), CellKind::Duration},
                                 {tr("Cause"), CellKind::Text},
                                 {tr("CPU was in"), CellKind::Text}});
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
        std::vector<TableRow> rows;
        std::array<TimeNs, kGapCauseCount> byCause{};
        TimeNs shortTotal = 0;
        uint64_t listed = 0;
        for (const DeviceGaps& d : devices) {
            for (size_t c = 0; c < kGapCauseCount; ++c)
                byCause[c] += d.byCause[c];
            shortTotal += d.shortTotal;
            for (const CausedGap& g : d.gaps) {
                ++listed;
                QStringList names;
                for (const uint32_t e : g.evidence) {
                    const QString n = QString::fromUtf8(t.str(t.slices[e].name));
                    if (!names.contains(n)) names << n;
                }
                TableRow row;
                row.cells = {
                    TableCell::of(d.device), TableCell::ofTime(g.gap.start, t.spanStart),
                    TableCell::of(static_cast<double>(g.gap.length())),
                    TableCell::ofText(causeLabel(g.cause)),
                    names.isEmpty() ? TableCell::none() : TableCell::ofText(names.join("; "))};
                row.target = NavTarget::toRange(g.gap);
                rows.push_back(std::move(row));
            }
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
        auto shared = std::make_shared<std::vector<TableRow>>(std::move(rows));
        return [this, shared, totals] {
            table_->model()->setRows(shared);
            table_->setDefaultSort(2, Qt::DescendingOrder);
            totals_->setText(totals);
        };
    };
}

}  // namespace gapscope::ui
