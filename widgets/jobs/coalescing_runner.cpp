#include "jobs/coalescing_runner.h"

#include <QMetaObject>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace gapscope::ui {

namespace {

// Background analyses yield to the GUI thread: on a two-core machine nine
// panel workers at the GUI's priority took its core away mid-frame (at nice
// 10 they still held a third of it; CFS weighs 1024 against 110 each at nice
// 10, 15 at nice 19). The timeline's frame worker sits between the two
// (nice 5, weight 335): at the GUI's own priority it shared a core with the
// GUI thread half and half, so that a 0.6 ms paint took 5 ms of wall time;
// it still outweighs the analyses twenty to one. Linux keeps a nice value
// per thread; elsewhere this does nothing.
void lowerThisThread(int niceness) {
#ifdef __linux__
    setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), niceness);
#else
    (void)niceness;
#endif
}

}  // namespace

CoalescingRunner::CoalescingRunner(QObject* parent, Policy policy)
    : QObject(parent), policy_(policy) {
    worker_ = std::thread([this] {
        lowerThisThread(policy_ == Policy::Analyses ? 19 : 5);
        workerLoop();
    });
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
        if (running_ && policy_ == Policy::Analyses) running_->cancel();
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
            continue;
        }
        ready_ = std::move(apply);  // may be empty (cancelled, failed): still clears busy
        readyGeneration_ = generation;
        hasReady_ = true;
        // Dropped by Qt if the runner is gone by then.
        QMetaObject::invokeMethod(this, "deliver", Qt::QueuedConnection);
    }
}

}  // namespace gapscope::ui
