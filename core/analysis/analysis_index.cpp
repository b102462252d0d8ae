#include "analysis/analysis_index.h"

#include <algorithm>

#include "analysis/gpu_time_account.h"

namespace gapscope {

AnalysisIndex::AnalysisIndex(const Trace& trace)
    : trace_(trace),
      launches_(trace),
      enclosing_(trace),
      explainer_(trace, &launches_),
      steps_(findSteps(trace)),
      windows_(gapscope::stepWindows(trace, steps_, launches_)) {
    for (const GpuDevice& device : trace.gpuDevices) {
        forEachActivity(trace, device, kWholeTrace, [&](uint32_t k, const Track&, ActivityKind) {
            const uint32_t call = launches_.first(k);
            if (call != kNone) launched_.push_back({call, k});
        });
    }
    std::sort(launched_.begin(), launched_.end());
}

namespace {

// Results kept per index: a few scopes' worth (the whole trace, a step,
// a selection) of each kind.
constexpr size_t kRemembered = 24;

}  // namespace

AnalysisIndex::RememberKey AnalysisIndex::stepKey(int kind, const StepOptions& options) {
    return {kind, options.window.start, options.window.end, options.minGapNs, options.onlyNumber};
}

std::shared_ptr<const void> AnalysisIndex::remember(
    const RememberKey& key, const CancelToken* cancel,
    const std::function<std::shared_ptr<const void>()>& compute) const {
    {
        const std::lock_guard lock(mutex_);
        for (const auto& [k, value] : remembered_)
            if (k == key) return value;
    }
    std::shared_ptr<const void> value = compute();
    if (cancel && cancel->isCancelled()) return value;
    const std::lock_guard lock(mutex_);
    remembered_.emplace_back(key, value);
    if (remembered_.size() > kRemembered) remembered_.pop_front();
    return value;
}

std::shared_ptr<const LaunchQueues> AnalysisIndex::launchQueues(const CancelToken* cancel) const {
    const std::lock_guard lock(queuesMutex_);
    if (!queues_) {
        auto built = std::make_shared<const LaunchQueues>(trace_, launches_, cancel);
        if (built->cancelled()) return nullptr;
        queues_ = std::move(built);
    }
    return queues_;
}

void AnalysisIndex::forgetRemembered() const {
    const std::lock_guard lock(mutex_);
    remembered_.clear();
}

std::shared_ptr<const StepsResult> AnalysisIndex::rememberedSteps(
    const StepOptions& options, const std::function<StepsResult()>& compute) const {
    return std::static_pointer_cast<const StepsResult>(
        remember(stepKey(kRememberedSteps, options), options.cancel,
                 [&] { return std::make_shared<const StepsResult>(compute()); }));
}

std::shared_ptr<const TimeAccount> AnalysisIndex::rememberedAccount(
    const StepOptions& options, const std::function<TimeAccount()>& compute) const {
    return std::static_pointer_cast<const TimeAccount>(
        remember(stepKey(kRememberedAccount, options), options.cancel,
                 [&] { return std::make_shared<const TimeAccount>(compute()); }));
}

}  // namespace gapscope
