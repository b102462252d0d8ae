#pragma once
// What the analyses look up again and again, built once per loaded trace
// (off the GUI thread, next to the trace): the launch call of each GPU
// activity and the activities of each launch call, the slices around a
// slice, the host's input / sync / communication slices for gap causes, and
// the steps. With it a query over a short range costs what the range holds
// rather than a pass over the whole trace. Every analysis also works
// without one (it then builds what it needs itself).

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>
#include <vector>

#include "analysis/gap_causes.h"
#include "analysis/launch_calls.h"
#include "analysis/launch_queues.h"
#include "analysis/steps.h"

namespace gapscope {

struct TimeAccount;

class AnalysisIndex {
  public:
    explicit AnalysisIndex(const Trace& trace);
    AnalysisIndex(const Trace&&) = delete;  // it keeps a reference

    const Trace& trace() const { return trace_; }
    const LaunchCalls& launches() const { return launches_; }
    const EnclosingSlices& enclosing() const { return enclosing_; }
    const GapExplainer& explainer() const { return explainer_; }
    const StepList& steps() const { return steps_; }  // the default sources (no regex)
    // Those steps' GPU windows and lead-ins (stepWindows), found once.
    const StepWindows& stepWindows() const { return windows_; }

    // The median of each breakdown part of the first GPU over all steps, for
    // one gap threshold: what a slow step is compared with. Computed by
    // `compute` on first use, then kept (thread-safe).
    template <class F>
    std::vector<TimeNs> stepPartMedians(TimeNs minGapNs, F&& compute) const {
        {
            const std::lock_guard lock(mutex_);
            const auto it = partMedians_.find(minGapNs);
            if (it != partMedians_.end()) return it->second;
        }
        std::vector<TimeNs> medians = compute();
        const std::lock_guard lock(mutex_);
        return partMedians_.emplace(minGapNs, std::move(medians)).first->second;
    }

    // The step analysis and the GPU time account of these options (the
    // default steps, no regex), computed by `compute` on first use and the
    // last few kept: the analyses of one scope (a summary's, the panels')
    // compute them once. Thread-safe; a cancelled computation is not kept.
    std::shared_ptr<const StepsResult> rememberedSteps(
        const StepOptions& options, const std::function<StepsResult()>& compute) const;
    std::shared_ptr<const TimeAccount> rememberedAccount(
        const StepOptions& options, const std::function<TimeAccount()>& compute) const;
    // Another result of a window, computed by `compute` on first use and
    // kept likewise: kernel statistics and launch delays, which the advice's
    // inputs and the registered kernels and launch analyses (a comparison's
    // headline metrics, the summary) would each compute again. `kind` is
    // what it is (RememberedKind), a cancelled computation not kept.
    template <class T, class F>
    std::shared_ptr<const T> rememberedOf(int kind, Interval window, const CancelToken* cancel,
                                          F&& compute) const {
        return std::static_pointer_cast<const T>(
            remember({kind, window.start, window.end, 0, std::nullopt}, cancel,
                     [&] { return std::make_shared<const T>(compute()); }));
    }
    enum RememberedKind : int {
        kRememberedSteps,
        kRememberedAccount,
        kRememberedLaunch,
        kRememberedEfficiency,
        kRememberedKernels,  // + 1 with their launchers, + 2 per device
    };
    // The trace's launches and their streams' queues (the critical path's),
    // built on first use (one caller builds, others wait) and kept for the
    // trace's life; a cancelled build is not kept (null).
    std::shared_ptr<const LaunchQueues> launchQueues(const CancelToken* cancel) const;
    // Drops what it remembers: a benchmark times each analysis's own work.
    void forgetRemembered() const;

    // Calls f(activity) for each GPU activity whose first launch call is `launch`.
    template <class F>
    void forEachLaunched(uint32_t launch, F&& f) const {
        auto it = std::lower_bound(launched_.begin(), launched_.end(), std::pair{launch, 0u});
        for (; it != launched_.end() && it->first == launch; ++it)
            f(it->second);
    }

  private:
    const Trace& trace_;
    LaunchCalls launches_;
    EnclosingSlices enclosing_;
    GapExplainer explainer_;
    StepList steps_;
    StepWindows windows_;
    std::vector<std::pair<uint32_t, uint32_t>> launched_;  // (launch call, activity), sorted
    mutable std::mutex mutex_;
    mutable std::map<TimeNs, std::vector<TimeNs>> partMedians_;
    // (kind, window, threshold, step) -> result; the newest last.
    using RememberKey = std::tuple<int, TimeNs, TimeNs, TimeNs, std::optional<int64_t>>;
    mutable std::deque<std::pair<RememberKey, std::shared_ptr<const void>>> remembered_;
    // A result of the steps' options: its window, threshold and step.
    static RememberKey stepKey(int kind, const StepOptions& options);
    std::shared_ptr<const void> remember(
        const RememberKey& key, const CancelToken* cancel,
        const std::function<std::shared_ptr<const void>()>& compute) const;
    mutable std::mutex queuesMutex_;
    mutable std::shared_ptr<const LaunchQueues> queues_;
};

}  // namespace gapscope
