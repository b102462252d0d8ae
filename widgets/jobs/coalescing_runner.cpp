#include "jobs/coalescing_runner.h"

#include <QMetaObject>

namespace gapscope::ui {

CoalescingRunner::CoalescingRunner(QObject* parent, Policy policy)
    : QObject(parent),
      policy_(policy),
      executor_(
          sharedExecutor(policy == Policy::Analyses ? Priority::Analyses : Priority::Frames)) {}

CoalescingRunner::~CoalescingRunner() {
    std::unique_lock lock(mutex_);
    stopping_ = true;
    pending_ = nullptr;
    if (running_) running_->cancel();
    if (scheduled_ && task_ && executor_.unqueue(task_)) scheduled_ = false;
    drained_.wait(lock, [this] { return !scheduled_; });
}

void CoalescingRunner::schedule() {
    if (scheduled_ || stopping_) return;
    std::function<void()> task = [this] { drain(); };
    task_ = executor_.post(task);
    // Each runner has at most one task queued, so the shared queue is never
    // full; were it so, the job stays pending for the next request.
    scheduled_ = task_ != 0;
}

void CoalescingRunner::submit(Job job) {
    {
        std::lock_guard lock(mutex_);
        ++generation_;
        pending_ = std::move(job);
        if (running_ && policy_ == Policy::Analyses) running_->cancel();
        schedule();
    }
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
    uint64_t generation = 0;
    {
        std::lock_guard lock(mutex_);
        if (!hasReady_) return;
        hasReady_ = false;
        generation = readyGeneration_;
        apply = std::move(ready_);
        ready_ = nullptr;
        // A newer request is on its way: an analysis's result is dropped, a
        // frame is shown meanwhile.
        if (generation != generation_ && policy_ == Policy::Analyses) return;
    }
    if (apply) apply();
    // The continuation may have submitted more work: stay busy for it.
    bool idle = false;
    {
        std::lock_guard lock(mutex_);
        idle = generation == generation_;
    }
    if (idle) setBusy(false);  // outside the lock: a slot may submit again
}

bool CoalescingRunner::resultWaiting() const {
    std::lock_guard lock(mutex_);
    return hasReady_;
}

void CoalescingRunner::setBusy(bool busy) {
    if (busy == busy_) return;
    busy_ = busy;
    emit busyChanged(busy_);
}

void CoalescingRunner::drain() {
    std::unique_lock lock(mutex_);
    task_ = 0;  // running now: no longer to be taken back
    if (stopping_ || !pending_) {
        scheduled_ = false;
        drained_.notify_all();
        return;
    }
    Job job = std::move(pending_);
    pending_ = nullptr;
    const uint64_t generation = generation_;
    auto token = std::make_shared<CancelToken>();
    running_ = token;
    lock.unlock();
    std::function<void()> apply;
    try {
        apply = job(*token);
    } catch (const std::exception&) {
        apply = nullptr;  // e.g. out of memory on a huge trace: no result, not a crash
    }
    // The job's captures (a whole trace, perhaps its last reference) die
    // here, unlocked: the GUI thread never waits on a teardown.
    job = nullptr;
    lock.lock();
    running_.reset();
    const bool superseded = generation != generation_ && policy_ == Policy::Analyses;
    if (token->isCancelled() || superseded || stopping_) {
        lock.unlock();
        apply = nullptr;
        lock.lock();
    } else {
        ready_ = std::move(apply);  // may be empty (cancelled, failed): still clears busy
        readyGeneration_ = generation;
        hasReady_ = true;
        // Dropped by Qt if the runner is gone by then.
        QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
    }
    // One job per task: a newer request queues behind the other runners'
    // jobs rather than holding this worker.
    scheduled_ = false;
    schedule();
    if (!scheduled_) drained_.notify_all();
}

}  // namespace gapscope::ui
