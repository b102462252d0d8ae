#include "jobs/coalescing_runner.h"

#include <QMetaObject>

namespace gapscope::ui {

CoalescingRunner::CoalescingRunner(QObject* parent) : QObject(parent) {
    worker_ = std::thread([this] { workerLoop(); });
}

CoalescingRunner::~CoalescingRunner() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
        pending_ = nullptr;
        if (running_) running_->cancel();
    }
    wake_.notify_all();
    worker_.join();
}

void CoalescingRunner::submit(Job job) {
    {
        std::lock_guard lock(mutex_);
        ++generation_;
        pending_ = std::move(job);
        if (running_) running_->cancel();
    }
    wake_.notify_all();
    setBusy(true);
}

void CoalescingRunner::cancelAll() {
    {
        std::lock_guard lock(mutex_);
        ++generation_;  // whatever finishes now is stale
        pending_ = nullptr;
        hasReady_ = false;
        ready_ = nullptr;
        if (running_) running_->cancel();
    }
    setBusy(false);
}

void CoalescingRunner::deliver() {
    std::function<void()> apply;
    {
        std::lock_guard lock(mutex_);
        if (!hasReady_) return;
        hasReady_ = false;
        if (readyGeneration_ != generation_) {  // a newer request is on its way
            ready_ = nullptr;
            return;
        }
        apply = std::move(ready_);
        ready_ = nullptr;
    }
    if (apply) apply();
    setBusy(false);
}

void CoalescingRunner::setBusy(bool busy) {
    if (busy == busy_) return;
    busy_ = busy;
    emit busyChanged(busy_);
}

void CoalescingRunner::workerLoop() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || pending_; });
        if (stopping_) return;
        Job job = std::move(pending_);
        pending_ = nullptr;
        const uint64_t generation = generation_;
        auto token = std::make_shared<CancelToken>();
        running_ = token;
        lock.unlock();
        std::function<void()> apply = job(*token);
        lock.lock();
        running_.reset();
        if (token->isCancelled() || generation != generation_ || stopping_) continue;
        ready_ = std::move(apply);
        readyGeneration_ = generation;
        hasReady_ = true;
        // Dropped by Qt if the runner is gone by then.
        QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
    }
}

}  // namespace gapscope::ui
