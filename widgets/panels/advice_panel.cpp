#include "panels/advice_panel.h"

#include <QScrollBar>
#include <QVBoxLayout>
#include <map>
#include <variant>

#include "analysis/advice.h"
#include "panels/analysis_table.h"
#include "panels/link_view.h"
#include "panels/units.h"
#include "report/analysis_render.h"

namespace gapscope::ui {

namespace {

QString severityHtml(Severity s) {
    const char* color = s == Severity::High     ? "#D55E00"
                        : s == Severity::Medium ? "#E69F00"
                                                : "#888888";
    return QStringLiteral("<span style='color:%1'><b>%2</b></span>")
        .arg(QLatin1String(color), QString::fromLatin1(severityName(s)).toUpper());
}

}  // namespace

QString findingsHtml(const Trace& t, const std::vector<Finding>& findings, size_t most,
                     bool withEvidence, const std::set<size_t>& expanded) {
    QString html;
    for (size_t i = 0; i < findings.size() && i < most; ++i) {
        const Finding& f = findings[i];
        html +=
            QStringLiteral("<p>%1 %2")
                .arg(severityHtml(f.severity), QString::fromStdString(f.message).toHtmlEscaped());
        const size_t count = f.ranges.size() + f.slices.size();
        if (withEvidence && count > 0) {
            const bool open = expanded.count(i) != 0;
            html += QStringLiteral("<br><a href='expand:%1'>%2 %3</a>")
                        .arg(i)
                        .arg(open ? QStringLiteral("▾") : QStringLiteral("▸"))
                        .arg(QObject::tr("evidence (%1)").arg(count));
            if (open) {
                QStringList links;
                for (const Interval& r : f.ranges)
                    links << rangeLink(r, QObject::tr("at %1 (%2)")
                                              .arg(shortDuration(r.start - t.spanStart),
                                                   shortDuration(r.length())));
                // Slices by name: one link (to the longest) and how many.
                std::map<StringId, std::pair<uint32_t, int>> byName;  // longest, count
                std::vector<StringId> order;
                for (const uint32_t s : f.slices) {
                    auto [it, added] = byName.try_emplace(t.slices[s].name, s, 0);
                    if (added) order.push_back(t.slices[s].name);
                    ++it->second.second;
                    if (t.slices[s].dur > t.slices[it->second.first].dur) it->second.first = s;
                }
                for (const StringId name : order) {
                    const auto [longest, n] = byName[name];
                    QString text = QString::fromUtf8(t.str(name));
                    if (text.size() > 60)
                        text = text.left(28) + QStringLiteral("…") + text.right(28);
                    links << sliceLink(longest, text) +
                                 (n > 1 ? QStringLiteral(" ×%1").arg(n) : QString());
                }
                html += QStringLiteral(": ") + links.join(QStringLiteral(" · "));
            }
        }
        html += QStringLiteral("</p>");
    }
    return html;
}

namespace {

// The panel's whole text: every finding, those in `expanded` with their
// evidence open, and what advice is about.
QString advicePageHtml(const Trace& t, const std::vector<Finding>& findings,
                       const std::set<size_t>& expanded) {
    QString html =
        findings.empty()
            ? AdvicePanel::tr(
                  "<p>No findings: none of the checks found a problem in this trace.</p>")
            : findingsHtml(t, findings, findings.size(), true, expanded);
    return html + AdvicePanel::tr(
                      "<p><small>Advice looks at the whole trace, whatever the scope.</small></p>");
}

}  // namespace

AdvicePanel::AdvicePanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent), view_(new LinkView(this)) {
    body()->addWidget(view_, 1);
    connect(view_, &LinkView::navigate, session, &AnalysisSession::navigate);
    connect(view_, &LinkView::expandRequested, this,
            [this](int finding) { toggleEvidence(static_cast<size_t>(finding)); });
    view_->setExtraActions(tableExportActions(view_, [this] { return snapshot(); }));
}

void AdvicePanel::toggleEvidence(size_t finding) {
    const auto trace = session()->trace();
    if (!findings_ || !trace || trace.get() != cachedOf_) return;
    if (!expanded_.erase(finding)) expanded_.insert(finding);
    const int scroll = view_->verticalScrollBar()->value();
    view_->setHtml(advicePageHtml(*trace, *findings_, expanded_));
    view_->verticalScrollBar()->setValue(scroll);
}

void AdvicePanel::clearContents() {
    view_->clear();
    cachedOf_ = nullptr;
    findings_.reset();
    table_.reset();
}

TableSnapshot AdvicePanel::snapshot() const {
    TableSnapshot t;
    t.title =
        (title() + QStringLiteral(" (") + tr("Whole trace") + QStringLiteral(")")).toStdString();
    t.protect = protectedFilesOf(this);
    const auto trace = session()->trace();
    if (!table_ || !trace) return t;
    // The registry's findings table, as gapscope-cli advice --format csv writes it.
    auto model = std::make_shared<AnalysisTableModel>();
    model->setResult(*table_);
    t.rows = allRows(*model);
    t.model = model.get();
    t.owned = std::move(model);
    return t;
}

struct AdvicePanel::Computed {
    std::shared_ptr<const std::vector<Finding>> findings;
    std::shared_ptr<const ResultRows> table;
    QString html;
    const Trace* of = nullptr;
    TimeNs threshold = 0;
};

namespace {

std::optional<AdvicePanel::Computed> computeAdvice(const AnalysisPanel::Request& request,
                                                   const std::monostate&) {
    const Trace& t = request.trace();
    AnalysisResult advice = request.compute("advice");
    if (request.cancelled()) return std::nullopt;
    const Analysis& a = *analysisRegistry().find("advice");
    std::shared_ptr<const ResultRows> table;
    for (ResultTable& x : renderedTables(t, a, advice))
        if (x.id == "findings")
            table = std::make_shared<const ResultRows>(resultRows(std::move(x), t.spanStart));
    auto findings = std::make_shared<const std::vector<Finding>>(std::move(advice.findings));
    return AdvicePanel::Computed{findings, table, advicePageHtml(t, *findings, {}),
                                 request.indexed->trace.get(), request.gapThreshold};
}

}  // namespace

AnalysisPanel::Work AdvicePanel::prepare(std::shared_ptr<const IndexedTrace> indexed,
                                         AnalysisScope scope, TimeNs threshold) {
    // Advice is about the whole run: its rules compare steps with each other.
    if (cachedOf_ == indexed->trace.get() && cachedThreshold_ == threshold) {
        const QString html = cached_;
        return showOnly([this, html] {
            expanded_.clear();  // the cached text has every finding's evidence closed
            view_->setHtml(html);
        });
    }
    findings_.reset();  // until the new ones are in
    table_.reset();
    return computeThen(indexed, scope, threshold, std::monostate{}, &computeAdvice,
                       &AdvicePanel::present);
}

void AdvicePanel::present(const Computed& c) {
    if (findings_ != c.findings) expanded_.clear();
    findings_ = c.findings;
    table_ = c.table;
    cached_ = c.html;
    cachedOf_ = c.of;
    cachedThreshold_ = c.threshold;
    view_->setHtml(c.html);
}

}  // namespace gapscope::ui
