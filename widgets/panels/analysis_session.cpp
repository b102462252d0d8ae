#include "panels/analysis_session.h"

#include <optional>

#include "jobs/coalescing_runner.h"
#include "jobs/gui_pacer.h"
#include "panels/units.h"

namespace gapscope::ui {

AnalysisSession::AnalysisSession(QObject* parent)
    : QObject(parent), runner_(new CoalescingRunner(this)), pacer_(new GuiPacer(this)) {}

AnalysisSession::~AnalysisSession() = default;

bool AnalysisSession::indexing() const {
    return runner_->busy();
}

void AnalysisSession::setTrace(std::shared_ptr<const Trace> trace, std::string indexCache) {
    runner_->cancelAll();
    trace_ = std::move(trace);
    indexed_.reset();
    scope_ = {};
    emit traceChanged();
    emit scopeChanged();
    if (!trace_) return;
    std::shared_ptr<const Trace> t = trace_;
    runner_->submit(
        [this, t, note = std::move(indexCache)](const CancelToken&) -> std::function<void()> {
            auto built = std::make_shared<IndexedTrace>();
            built->trace = t;
            built->indexCache = note;
            built->index = std::make_unique<const AnalysisIndex>(*t);
            return [this, built] {
                if (built->trace != trace_) return;
                indexed_ = built;
                emit indexReady();
            };
        });
}

void AnalysisSession::setScope(AnalysisScope scope) {
    if (scope == scope_) return;
    scope_ = scope;
    emit scopeChanged();
}

void AnalysisSession::setWholeTrace() {
    setScope({});
}

void AnalysisSession::setStepScope(int64_t number) {
    if (!indexed_) return;
    // Every step of that number (one per rank when ranks are merged): the
    // account counts them all, so the window-based panels see them all too,
    // over the hull of their lead-ins and GPU windows.
    const std::optional<StepScope> where =
        gapscope::stepScope(indexed_->index->steps(), indexed_->index->stepWindows(), number);
    if (!where) return;
    AnalysisScope scope;
    scope.kind = AnalysisScope::Kind::Step;
    scope.window = where->window;
    scope.step = number;
    scope.stepSpan = where->span;
    setScope(scope);
}

void AnalysisSession::stepBy(int direction) {
    if (!indexed_) return;
    const auto& steps = indexed_->index->steps().steps;
    if (steps.empty()) return;
    size_t at = direction > 0 ? 0 : steps.size() - 1;
    if (scope_.step) {
        for (size_t i = 0; i < steps.size(); ++i) {
            if (steps[i].number != *scope_.step) continue;
            if (direction > 0)
                at = std::min(i + 1, steps.size() - 1);
            else
                at = i == 0 ? 0 : i - 1;
        }
    }
    setStepScope(steps[at].number);
}

void AnalysisSession::previousStep() {
    stepBy(-1);
}

void AnalysisSession::nextStep() {
    stepBy(1);
}

QString AnalysisSession::scopeText() const {
    switch (scope_.kind) {
        case AnalysisScope::Kind::WholeTrace:
            return tr("Whole trace");
        case AnalysisScope::Kind::Selection:
            return tr("Selection (%1)").arg(shortDuration(scope_.window.length()));
        case AnalysisScope::Kind::Visible:
            return tr("Visible window (%1)").arg(shortDuration(scope_.window.length()));
        case AnalysisScope::Kind::Step:
            return tr("Step %1 (%2)").arg(*scope_.step).arg(shortDuration(scope_.window.length()));
    }
    return {};
}

void AnalysisSession::setPeaks(std::optional<DevicePeaks> peaks) {
    peaks_ = std::move(peaks);
    emit peaksChanged();
}

void AnalysisSession::setGapThreshold(TimeNs ns) {
    if (ns == gapThreshold_) return;
    gapThreshold_ = ns;
    emit gapThresholdChanged();
}

}  // namespace gapscope::ui
