#pragma once
// What every analysis panel follows: the loaded trace, its AnalysisIndex
// (built once per load on a worker), and the one scope the user picks for
// all panels: the whole trace, the selected range, the visible window, or
// one step. Panels ask it to navigate; the main window does the framing.

#include <QObject>
#include <memory>
#include <optional>

#include "analysis/analysis_index.h"
#include "analysis/device_peaks.h"
#include "panels/nav_target.h"
#include "report/result_memo.h"

namespace gapscope::ui {

class CoalescingRunner;
class GuiPacer;

struct AnalysisScope {
    enum class Kind { WholeTrace, Selection, Visible, Step };
    Kind kind = Kind::WholeTrace;
    // Of a step: the hull of its GPU windows (where `steps` computes its
    // figures; gapscope-cli --step N is the same).
    Interval window = kWholeTrace;
    std::optional<int64_t> step;       // Kind::Step
    std::optional<Interval> stepSpan;  // Kind::Step: its CPU span
    bool operator==(const AnalysisScope&) const = default;
    bool whole() const { return kind == Kind::WholeTrace; }
    // Where CPU-side figures (ops) are taken: a step's CPU span, else the window.
    Interval hostWindow() const { return stepSpan.value_or(window); }
    // Whether a step belongs to the scope: the step itself, else one that
    // starts inside the window.
    bool holds(const Step& s) const {
        return step ? s.number == *step : s.span.start >= window.start && s.span.start < window.end;
    }
};

// The trace and its index, kept alive together (the index refers to the trace).
struct IndexedTrace {
    std::shared_ptr<const Trace> trace;
    std::unique_ptr<const AnalysisIndex> index;
    // The registered analyses' results over this trace, by scope: a panel
    // and the Overview of one scope compute each once.
    std::unique_ptr<ResultMemo> memo = std::make_unique<ResultMemo>();
    // What the index cache did when the trace loaded ("hit", "miss (no
    // entry)"; the write follows the display); "" without a cache.
    std::string indexCache;
};

class AnalysisSession : public QObject {
    Q_OBJECT
  public:
    explicit AnalysisSession(QObject* parent = nullptr);
    ~AnalysisSession() override;

    // Starts indexing on a worker; indexReady() follows. Null: no trace.
    // `indexCache`: what the index cache did when it loaded (IndexedTrace).
    void setTrace(std::shared_ptr<const Trace> trace, std::string indexCache = {});
    std::shared_ptr<const Trace> trace() const { return trace_; }
    // Null until the index is ready.
    std::shared_ptr<const IndexedTrace> indexed() const { return indexed_; }
    bool indexing() const;

    AnalysisScope scope() const { return scope_; }
    void setScope(AnalysisScope scope);
    void setWholeTrace();
    void setStepScope(int64_t number);  // no-op for a step the trace lacks
    // The step before / after the current step scope (or the first / last).
    void previousStep();
    void nextStep();
    QString scopeText() const;  // "Whole trace", "Step 12 (45.2 ms)", ...

    TimeNs gapThreshold() const { return gapThreshold_; }
    void setGapThreshold(TimeNs ns);
    // Every GPU's roofs as a person gave them (Settings > GPU Peaks), over
    // the GPU table's; none: the table's.
    const std::optional<DevicePeaks>& peaks() const { return peaks_; }
    void setPeaks(std::optional<DevicePeaks> peaks);

    void navigate(const NavTarget& target) { emit navigateRequested(target); }

    // Where the panels apply their results, one per pass of the event loop.
    GuiPacer* pacer() const { return pacer_; }

  signals:
    void traceChanged();
    void indexReady();
    void scopeChanged();
    void gapThresholdChanged();
    void peaksChanged();
    void navigateRequested(const gapscope::ui::NavTarget& target);

  private:
    void stepBy(int direction);

    std::shared_ptr<const Trace> trace_;
    std::shared_ptr<const IndexedTrace> indexed_;
    AnalysisScope scope_;
    TimeNs gapThreshold_ = kDefaultGapThresholdNs;
    std::optional<DevicePeaks> peaks_;
    CoalescingRunner* runner_;
    GuiPacer* pacer_;
};

}  // namespace gapscope::ui
