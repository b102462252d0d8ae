#pragma once
// Cooperative cancellation and progress for long-running work (loading,
// analysis). The worker polls; any thread may cancel.

#include <atomic>
#include <cstdint>
#include <functional>

namespace gapscope {

class CancelToken {
  public:
    CancelToken() = default;
    // Cancelled with `parent` too (work that can also be stopped on its own).
    explicit CancelToken(const CancelToken* parent) : parent_(parent) {}
    void cancel() { cancelled_.store(true, std::memory_order_relaxed); }
    bool isCancelled() const {
        return cancelled_.load(std::memory_order_relaxed) || (parent_ && parent_->isCancelled());
    }

  private:
    std::atomic<bool> cancelled_{false};
    const CancelToken* parent_ = nullptr;
};

enum class LoadPhase { Reading, Building, Indexing };

// Called from the loading thread; `done` and `total` are bytes of the input
// file while reading, then 0..1 fractions scaled to 1000 for later phases.
using ProgressCallback = std::function<void(LoadPhase phase, uint64_t done, uint64_t total)>;

}  // namespace gapscope
