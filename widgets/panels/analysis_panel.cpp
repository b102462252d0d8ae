#include "panels/analysis_panel.h"

#include <QLabel>
#include <QVBoxLayout>

#include "jobs/coalescing_runner.h"

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
    connect(runner_, &CoalescingRunner::busyChanged, this, &AnalysisPanel::updateHeader);
    updateHeader();
}

AnalysisPanel::~AnalysisPanel() = default;

bool AnalysisPanel::computing() const {
    return runner_->busy();
}

QString AnalysisPanel::headerText() const {
    return header_->text();
}

void AnalysisPanel::updateHeader() {
    QString text;
    if (!session_->trace())
        text = tr("No trace");
    else if (!session_->indexed())
        text = tr("%1 — indexing…").arg(session_->scopeText());
    else
        text = session_->scopeText() + (runner_->busy() ? tr(" — computing…") : QString());
    header_->setText(text);
}

void AnalysisPanel::refresh() {
    const auto indexed = session_->indexed();
    if (!indexed) {
        updateHeader();
        return;
    }
    const AnalysisScope scope = session_->scope();
    if (scope.whole() && keepsWholeTrace() && wholeTrace_ &&
        wholeTraceOf_ == indexed->trace.get()) {
        runner_->cancelAll();
        wholeTrace_();
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
            show();
        };
    });
    updateHeader();
}

}  // namespace gapscope::ui
