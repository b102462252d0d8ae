#pragma once
// The common frame of the analysis panels: a header that shows the scope
// and whether the panel is computing, and the hand-over of the work to a
// worker (the core/analysis functions, latest request wins, cancelled when
// the scope or the trace changes). A panel says what to compute and how to
// show it; whole-trace results are computed once per load and kept.

#include <QWidget>
#include <functional>
#include <memory>
#include <optional>

#include "panels/analysis_session.h"
#include "panels/table_export.h"
#include "report/analysis_registry.h"
#include "util/cancel_token.h"

class QLabel;
class QVBoxLayout;

namespace gapscope::ui {

class AnalysisTable;
class CoalescingRunner;

class AnalysisPanel : public QWidget {
    Q_OBJECT
  public:
    AnalysisPanel(AnalysisSession* session, QWidget* parent = nullptr);
    ~AnalysisPanel() override;

    virtual QString title() const = 0;
    virtual QString dockName() const = 0;  // object name of its dock (persisted layout)
    bool computing() const;
    QString headerText() const;
    // What its header says it shows: the panels' scope ("Whole trace",
    // "Step 4 (35.6 ms)"), unless the panel follows something else.
    virtual QString scopeText() const;
    // Whether a person can see the panel (its dock's tab is the current
    // one). Out of view it computes nothing until it is back: on two cores
    // nine panels computing at once made the one in view wait for all.
    void setInView(bool inView);
    bool inView() const { return inView_; }

    AnalysisSession* session() const { return session_; }
    // The gapscope-cli commands that compute the same figures (none for a
    // chart of its own): the panel's header explains them with the
    // commands' descriptions.
    void setAnalysis(const QStringList& commands);
    QStringList analysis() const { return analysis_; }
    // The tables it shows that are a registered analysis's (by the table's
    // id), each the same rows as that analysis computes for the same scope.
    virtual std::vector<std::pair<std::string, AnalysisTable*>> resultTables() const { return {}; }
    // The same as each exports it (by default the tables above; a panel
    // that draws its result otherwise makes the table it exports).
    virtual std::vector<std::pair<std::string, TableSnapshot>> resultSnapshots() const;
    // The scope its tables are of for the session's `scope`: that scope, or
    // the whole trace (the import's health, the memory curves; the Steps
    // panel lists every step when one is the scope).
    virtual AnalysisScope shownScope(const AnalysisScope& scope) const { return scope; }
    // The options its registered analysis computes with (a panel's own
    // controls); none: the registered defaults.
    virtual AnalysisOptions options() const { return {}; }

    // What a panel's computation reads: the trace and its index, the scope,
    // the gap threshold, the cancel token.
    struct Request {
        std::shared_ptr<const IndexedTrace> indexed;
        AnalysisScope scope;
        TimeNs gapThreshold = 0;
        const CancelToken* cancel = nullptr;
        std::optional<DevicePeaks> peaks;  // the session's (Settings > GPU Peaks)
        const Trace& trace() const { return *indexed->trace; }
        bool cancelled() const { return cancel && cancel->isCancelled(); }
        // The scope as core's analyses take it (what gapscope-cli's --range
        // and --step make of the same scope).
        Scope coreScope() const;
        // A registered analysis over this request (report/analysis_registry.h).
        AnalysisResult compute(std::string_view analysis,
                               const AnalysisOptions& options = {}) const;
    };

  protected:
    // How to show a result, on the GUI thread. It may run again later (the
    // whole trace's result is kept), so it owns what it shows.
    using Show = std::function<void()>;
    // The work for one scope, run on the worker. Built on the GUI thread by
    // prepare(); it captures what it needs by value and never dereferences
    // `this` (the panel may be gone while it runs): only the Show it returns
    // does, on the GUI thread. Returns an empty Show when cancelled.
    using Work = std::function<Show(const CancelToken& cancel)>;
    virtual Work prepare(std::shared_ptr<const IndexedTrace> trace, AnalysisScope scope,
                         TimeNs gapThreshold) = 0;

    // The usual Work: `compute` is a plain function of the request and of
    // what the panel took on the GUI thread (`inputs`, by value), so it
    // cannot reach into the widget; `present` shows its result, on the GUI
    // thread. compute returns nullopt when cancelled.
    template <class Panel, class Inputs, class Result>
    Work computeThen(std::shared_ptr<const IndexedTrace> indexed, AnalysisScope scope,
                     TimeNs gapThreshold, Inputs inputs,
                     std::optional<Result> (*compute)(const Request&, const Inputs&),
                     void (Panel::*present)(const Result&)) {
        Panel* panel = static_cast<Panel*>(this);
        const std::optional<DevicePeaks> peaks = session()->peaks();
        return [=](const CancelToken& cancel) -> Show {
            std::optional<Result> result =
                compute({indexed, scope, gapThreshold, &cancel, peaks}, inputs);
            if (!result || cancel.isCancelled()) return {};
            auto shown = std::make_shared<const Result>(std::move(*result));
            return [panel, present, shown] { (panel->*present)(*shown); };
        };
    }
    // A Work with nothing to compute: shows what the panel already has.
    static Work showOnly(Show show) {
        return [show](const CancelToken&) { return show; };
    }
    // No trace (or a new one before its results): empty the panel.
    virtual void clearContents() = 0;
    // Whether the whole trace's result can be kept and shown again (not for
    // a panel that follows something else, such as the visible window).
    virtual bool keepsWholeTrace() const { return true; }

    QVBoxLayout* body() const { return body_; }
    // Computes again (e.g. an option of the panel changed). A panel out of
    // view only remembers to, and computes when it comes into view.
    void refresh();
    // Its own options changed: the kept whole-trace result is of the old
    // ones; computes again.
    void recompute();
    // It came into view or left it (setInView).
    virtual void inViewChanged() {}

  private:
    void updateHeader();

    AnalysisSession* session_;
    QStringList analysis_;
    QLabel* header_;
    QVBoxLayout* body_;
    CoalescingRunner* runner_;
    // Hands a result to the session's pacer; dropped if a newer request
    // (or another trace) comes first.
    void showPaced(Show show);

    Show wholeTrace_;  // the whole trace's result, once computed
    const Trace* wholeTraceOf_ = nullptr;
    uint64_t generation_ = 0;  // of the newest request
    bool showQueued_ = false;  // a result waits for the pacer
    bool inView_ = true;
    bool stale_ = false;  // out of view when asked to compute
};

}  // namespace gapscope::ui
