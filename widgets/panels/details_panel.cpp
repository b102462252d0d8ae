#include "panels/details_panel.h"

#include <QLabel>
#include <QTextBrowser>
#include <QUrl>
#include <QVBoxLayout>
#include <climits>
#include <map>

#include "analysis/slice_queries.h"
#include "jobs/coalescing_runner.h"
#include "model/args_json.h"
#include "panels/link_view.h"

namespace gapscope::ui {

namespace {

QString q(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).toHtmlEscaped();
}

QString row(const QString& key, const QString& value) {
    return QStringLiteral(
               "<tr><td style='padding-right:12px; color:palette(mid)'>%1</td><td>%2</td></tr>")
        .arg(key, value);
}

QString sliceLink(const Trace& t, uint32_t slice) {
    return symbolLink(slice, t.str(t.slices[slice].name)) +
           QStringLiteral(" <span style='color:gray'>(%1)</span>")
               .arg(q(trackLabel(t, t.trackOfSlice(slice))));
}

}  // namespace

DetailsPanel::DetailsPanel(QWidget* parent)
    : QWidget(parent),
      status_(new QLabel(this)),
      view_(new QTextBrowser(this)),
      runner_(new CoalescingRunner(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    status_->setText(tr("Summarising the range…"));
    status_->setContentsMargins(6, 2, 6, 2);
    status_->hide();
    layout->addWidget(status_);
    layout->addWidget(view_);
    connect(runner_, &CoalescingRunner::busyChanged, status_, &QLabel::setVisible);
    view_->setOpenLinks(false);
    view_->setPlaceholderText(
        tr("Click a slice for its details; Shift+drag to summarise a time range."));
    connect(view_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        if (url.scheme() == QLatin1String("slice")) emit sliceActivated(url.path().toUInt());
    });
}

void DetailsPanel::setTrace(std::shared_ptr<const Trace> trace) {
    runner_->cancelAll();
    trace_ = std::move(trace);
    clear();
}

void DetailsPanel::clear() {
    runner_->cancelAll();
    view_->clear();
}

bool DetailsPanel::summarising() const {
    return runner_->busy();
}

QString DetailsPanel::plainText() const {
    return view_->toPlainText();
}

void DetailsPanel::showSlices(const std::vector<uint32_t>& slices) {
    if (slices.size() < 2) return slices.empty() ? clear() : showSlice(slices.front());
    if (!trace_) return clear();
    // Summed by core's query on the worker (a search can select thousands);
    // the GUI thread only swaps the text in.
    runner_->submit([this, trace = trace_, slices](const CancelToken& cancel) {
        const Trace& t = *trace;
        const SliceSetSummary sum = summarizeSlices(t, slices, &cancel);
        if (cancel.isCancelled()) return std::function<void()>();
        QString html = QStringLiteral("<h3 style='margin:4px 0'>%1</h3><table>")
                           .arg(DetailsPanel::tr("%1 slices").arg(sum.count));
        html += row(DetailsPanel::tr("Total duration"), formatDuration(sum.total, 1));
        html += row(DetailsPanel::tr("From first start to last end"),
                    formatDuration(sum.lastEnd - sum.firstStart, 1));
        html += QStringLiteral(
                    "</table><table><tr><th align='left'>%1</th><th>%2</th>"
                    "<th align='right'>%3</th></tr>")
                    .arg(DetailsPanel::tr("Name"), DetailsPanel::tr("Count"),
                         DetailsPanel::tr("Duration"));
        for (const NameTotal& n : sum.byName)
            html += QStringLiteral(
                        "<tr><td>%1</td><td align='right'>%2</td>"
                        "<td align='right'>%3</td></tr>")
                        .arg(q(t.str(n.name)))
                        .arg(n.count)
                        .arg(formatDuration(n.totalNs, 1));
        html += QStringLiteral("</table><p>");
        for (const uint32_t i : slices)
            if (i < t.slices.size()) html += sliceLink(t, i) + QStringLiteral("<br>");
        html += QStringLiteral("</p>");
        return std::function<void()>([this, html = std::move(html)] { view_->setHtml(html); });
    });
}

void DetailsPanel::showSlice(uint32_t slice) {
    if (!trace_ || slice >= trace_->slices.size()) return clear();
    runner_->cancelAll();  // a pending range summary must not replace the slice
    const Trace& t = *trace_;
    const Slice& s = t.slices[slice];
    QString html = QStringLiteral("<h3 style='margin:4px 0'>%1</h3><table>").arg(q(t.str(s.name)));
    html += row(tr("Category"), q(t.categoryName(s.category)));
    html += row(tr("Track"), q(trackLabel(t, t.trackOfSlice(slice))));
    html += row(tr("Start"), QStringLiteral("%1 <span style='color:gray'>(%2 ns)</span>")
                                 .arg(formatDuration(s.start - t.spanStart, 1))
                                 .arg(s.start));
    html += row(tr("Duration"), formatDuration(s.dur, 1));
    html += row(tr("Self time"), formatDuration(selfTime(t, slice), 1));
    if (s.flags & kSliceUnclosed)
        html += row(tr("Note"), tr("never closed: ends at the end of the trace"));
    if (s.flags & kSliceOverlapLane)
        html += row(tr("Note"), tr("overlaps a sibling without nesting: drawn on an extra lane"));
    if (const auto x = t.extractedArgs(s.args)) {
        if (x->grid[0] > 0) {
            html += row(tr("Grid × block"), QStringLiteral("[%1, %2, %3] × [%4, %5, %6]")
                                                .arg(x->grid[0])
                                                .arg(x->grid[1])
                                                .arg(x->grid[2])
                                                .arg(x->block[0])
                                                .arg(x->block[1])
                                                .arg(x->block[2]));
        }
        if (x->registersPerThread >= 0)
            html += row(tr("Registers / thread"), QString::number(x->registersPerThread));
        if (x->occupancyPercent >= 0)
            html +=
                row(tr("Est. occupancy"), QStringLiteral("%1 %").arg(double(x->occupancyPercent)));
        if (x->correlation >= 0) html += row(tr("Correlation"), QString::number(x->correlation));
    }
    html += QStringLiteral("</table>");
    const auto in = flowsInto(t, slice);
    const auto out = flowsOutOf(t, slice);
    if (!in.empty() || !out.empty()) {
        html += QStringLiteral("<h4 style='margin:8px 0 2px 0'>%1</h4>").arg(tr("Flows"));
        for (const Flow* f : in)
            html += QStringLiteral("← %1<br>").arg(sliceLink(t, f->from));
        for (const Flow* f : out)
            html += QStringLiteral("→ %1<br>").arg(sliceLink(t, f->to));
    }
    const ArgsText args = prettyArgs(t, s.args);
    if (!args.ok()) {
        html += QStringLiteral("<p><i>%1</i></p>")
                    .arg(tr("The args could not be read: %1. Reload (F5) to read them again.")
                             .arg(q(args.error)));
    } else if (!args.json.empty()) {
        html +=
            QStringLiteral("<h4 style='margin:8px 0 2px 0'>%1</h4><pre style='margin:0'>%2</pre>")
                .arg(tr("Args"), q(args.json));
    }
    view_->setHtml(html);
}

namespace {

QString rangeHtml(const Trace& t, TimeWindow range, const std::vector<NameTotal>& totals) {
    uint64_t count = 0;
    for (const NameTotal& n : totals)
        count += n.count;
    QString html = QStringLiteral("<h3 style='margin:4px 0'>%1</h3>")
                       .arg(DetailsPanel::tr("Range %1").arg(formatDuration(range.span(), 1)));
    html += QStringLiteral("<p>%1 → %2 · %3 slices, %4 names</p>")
                .arg(formatDuration(range.start - t.spanStart, 1),
                     formatDuration(range.end - t.spanStart, 1))
                .arg(count)
                .arg(totals.size());
    html += QStringLiteral(
                "<table><tr><th align='left'>%1</th><th align='right'>%2</th><th "
                "align='right'>%3</th></tr>")
                .arg(DetailsPanel::tr("Name"), DetailsPanel::tr("Count"),
                     DetailsPanel::tr("Time in range"));
    const size_t shown = std::min<size_t>(totals.size(), 200);
    for (size_t i = 0; i < shown; ++i) {
        const NameTotal& n = totals[i];
        QString name = q(t.str(n.name));
        if (name.size() > 90) name = name.left(87) + "...";
        html +=
            QStringLiteral("<tr><td>%1</td><td align='right'>%2</td><td align='right'>%3</td></tr>")
                .arg(name)
                .arg(n.count)
                .arg(formatDuration(n.totalNs, 1));
    }
    html += QStringLiteral("</table>");
    if (totals.size() > shown)
        html += DetailsPanel::tr("<p>… and %1 more names</p>").arg(totals.size() - shown);
    return html;
}

}  // namespace

void DetailsPanel::showRange(TimeWindow range) {
    if (!trace_) return;
    // The summary and its HTML are made on the worker; the GUI thread only
    // swaps the text in, and only for the newest range.
    runner_->submit([this, trace = trace_, range](const CancelToken& cancel) {
        const auto totals = summarizeRange(*trace, range.start, range.end, kNone, &cancel);
        if (cancel.isCancelled()) return std::function<void()>();
        QString html = rangeHtml(*trace, range, totals);
        return std::function<void()>([this, html = std::move(html)] { view_->setHtml(html); });
    });
}

}  // namespace gapscope::ui
