#include "panels/advice_panel.h"

#include <QVBoxLayout>

#include "analysis/advice.h"
#include "panels/link_view.h"
#include "panels/units.h"

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
                     bool withEvidence) {
    QString html;
    for (size_t i = 0; i < findings.size() && i < most; ++i) {
        const Finding& f = findings[i];
        html +=
            QStringLiteral("<p>%1 %2")
                .arg(severityHtml(f.severity), QString::fromStdString(f.message).toHtmlEscaped());
        if (withEvidence) {
            QStringList links;
            for (size_t r = 0; r < f.ranges.size() && r < 5; ++r)
                links << rangeLink(f.ranges[r],
                                   QObject::tr("at %1 (%2)")
                                       .arg(shortDuration(f.ranges[r].start - t.spanStart),
                                            shortDuration(f.ranges[r].length())));
            for (size_t s = 0; s < f.slices.size() && s < 5; ++s) {
                QString name = QString::fromUtf8(t.str(t.slices[f.slices[s]].name));
                if (name.size() > 60) name = name.left(57) + QStringLiteral("…");
                links << sliceLink(f.slices[s], name);
            }
            if (!links.isEmpty())
                html += QStringLiteral("<br><small>%1 %2</small>")
                            .arg(QObject::tr("Evidence:"), links.join(QStringLiteral(" · ")));
        }
        html += QStringLiteral("</p>");
    }
    return html;
}

AdvicePanel::AdvicePanel(AnalysisSession* session, QWidget* parent)
    : AnalysisPanel(session, parent), view_(new LinkView(this)) {
    body()->addWidget(view_, 1);
    connect(view_, &LinkView::navigate, session, &AnalysisSession::navigate);
}

void AdvicePanel::clearContents() {
    view_->clear();
    cachedOf_ = nullptr;
}

AnalysisPanel::Work AdvicePanel::prepare(std::shared_ptr<const IndexedTrace> indexed, AnalysisScope,
                                         TimeNs threshold) {
    // Advice is about the whole run: its rules compare steps with each other.
    if (cachedOf_ == indexed->trace.get() && cachedThreshold_ == threshold) {
        const QString html = cached_;
        return [this, html](const CancelToken&) -> Show {
            return [this, html] { view_->setHtml(html); };
        };
    }
    const Trace* of = indexed->trace.get();
    return [indexed, threshold, this, of](const CancelToken& cancel) -> Show {
        StepOptions o;
        o.minGapNs = threshold;
        o.cancel = &cancel;
        const auto findings = adviseWholeTrace(*indexed->trace, o, indexed->index.get());
        if (cancel.isCancelled()) return {};
        QString html = findingsHtml(*indexed->trace, findings, findings.size(), true);
        if (findings.empty())
            html = tr("<p>No findings: none of the checks found a problem in this trace.</p>");
        html += tr("<p><small>Advice looks at the whole trace, whatever the scope.</small></p>");
        return [this, html, of, threshold] {
            cached_ = html;
            cachedOf_ = of;
            cachedThreshold_ = threshold;
            view_->setHtml(html);
        };
    };
}

}  // namespace gapscope::ui
