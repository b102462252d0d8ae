#include "panels/analysis_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "jobs/coalescing_runner.h"
#include "jobs/gui_pacer.h"
#include "panels/analysis_table.h"
#include "report/analysis_registry.h"

namespace gapscope::ui {

AnalysisPanel::AnalysisPanel(AnalysisSession* session, QWidget* parent)
    : QWidget(parent),
      session_(session),
      header_(new QLabel(this)),
      body_(new QVBoxLayout),
      runner_(new CoalescingRunner(this)) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(4, 4, 4, 4);
    layout->setSpacing(4);
    header_->setTextFormat(Qt::PlainText);
    QFont f = header_->font();
    f.setBold(true);
    header_->setFont(f);
    layout->addWidget(header_);
    layout->addLayout(body_, 1);
    connect(session_, &AnalysisSession::traceChanged, this, [this] {
        runner_->cancelAll();
        ++generation_;
        showQueued_ = false;
        stale_ = false;
        wholeTrace_ = nullptr;
        wholeTraceOf_ = nullptr;
        clearContents();
        updateHeader();
    });
    connect(session_, &AnalysisSession::indexReady, this, &AnalysisPanel::refresh);
    connect(session_, &AnalysisSession::scopeChanged, this, &AnalysisPanel::refresh);
    connect(session_, &AnalysisSession::gapThresholdChanged, this, [this] {
        wholeTrace_ = nullptr;
        refresh();
    });
    connect(session_, &AnalysisSession::peaksChanged, this, [this] {
        wholeTrace_ = nullptr;
        refresh();
    });
    connect(runner_, &CoalescingRunner::busyChanged, this, &AnalysisPanel::updateHeader);
    updateHeader();
}

AnalysisPanel::~AnalysisPanel() = default;

std::vector<std::pair<std::string, TableSnapshot>> AnalysisPanel::resultSnapshots() const {
    std::vector<std::pair<std::string, TableSnapshot>> out;
    for (const auto& [id, table] : resultTables())
        out.emplace_back(id, table->snapshot());
    return out;
}

Scope AnalysisPanel::Request::coreScope() const {
    Scope s;
    s.window = scope.window;
    // A step is the CLI's --step N (its window made the same way); a range
    // or the visible window its --range.
    if (scope.step)
        s.step = scope.step;
    else if (!scope.whole())
        s.range = scope.window;
    s.minGapNs = gapThreshold;
    s.peaks = peaks;
    s.index = indexed->index.get();
    s.cancel = cancel;
    s.memo = indexed->memo.get();
    s.indexCache = indexed->indexCache;
    return s;
}

AnalysisResult AnalysisPanel::Request::compute(std::string_view analysis,
                                               const AnalysisOptions& options) const {
    const Analysis* a = analysisRegistry().find(analysis);
    return a ? computeAnalysis(*a, trace(), coreScope(), options) : AnalysisResult{};
}

void AnalysisPanel::setAnalysis(const QStringList& commands) {
    analysis_ = commands;
    QStringList lines;
    for (const QString& command : commands) {
        QString what;
        if (const Analysis* a = analysisRegistry().find(command.toStdString()))
            what = QString::fromStdString(a->what);
        else
            continue;
        lines << tr("gapscope-cli %1: %2.").arg(command, what.replace('\n', ' '));
    }
    if (!lines.isEmpty())
        lines << tr(
            "The panel shows the same figures (every table exports as the command's "
            "CSV, Markdown and JSON).");
    header_->setToolTip(lines.join('\n'));
}

bool AnalysisPanel::computing() const {
    return runner_->busy() || showQueued_;
}

QString AnalysisPanel::headerText() const {
    return header_->text();
}

QString AnalysisPanel::scopeText() const {
    return session_->scopeText();
}

void AnalysisPanel::updateHeader() {
    if (stale_) return;  // out of view: it still shows the older scope
    QString text;
    if (!session_->trace())
        text = tr("No trace");
    else if (!session_->indexed())
        text = tr("%1 — indexing…").arg(scopeText());
    else
        text = scopeText() + (computing() ? tr(" — computing…") : QString());
    header_->setText(text);
}

void AnalysisPanel::showPaced(Show show) {
    showQueued_ = true;
    session_->pacer()->post(this, [this, show, generation = generation_] {
        if (generation != generation_) return;  // a newer request superseded it
        showQueued_ = false;
        show();
        updateHeader();
    });
}

void AnalysisPanel::setInView(bool inView) {
    const bool changed = inView != inView_;
    inView_ = inView;
    if (inView_ && stale_) refresh();
    if (changed) inViewChanged();
}

void AnalysisPanel::recompute() {
    wholeTrace_ = nullptr;
    refresh();
}

void AnalysisPanel::refresh() {
    ++generation_;
    showQueued_ = false;
    if (!inView_) {
        stale_ = true;         // first: the header keeps saying what is shown
        runner_->cancelAll();  // what it computes is for an older request
        return;
    }
    stale_ = false;
    const auto indexed = session_->indexed();
    if (!indexed) {
        updateHeader();
        return;
    }
    const AnalysisScope scope = session_->scope();
    if (scope.whole() && keepsWholeTrace() && wholeTrace_ &&
        wholeTraceOf_ == indexed->trace.get()) {
        runner_->cancelAll();
        showPaced(wholeTrace_);
        updateHeader();
        return;
    }
    const TimeNs threshold = session_->gapThreshold();
    Work work = prepare(indexed, scope, threshold);
    // The job holds no pointer to the panel: only the Show, on the GUI thread,
    // touches it (and the runner, our child, drops it once we are gone).
    runner_->submit([this, indexed, scope, work](const CancelToken& cancel) -> Show {
        Show show = work(cancel);
        if (!show || cancel.isCancelled()) return {};
        return [this, indexed, scope, show] {
            if (indexed != session_->indexed()) return;
            if (scope.whole()) {
                wholeTrace_ = show;
                wholeTraceOf_ = indexed->trace.get();
            }
            showPaced(show);
        };
    });
    updateHeader();
}

}  // namespace gapscope::ui
