#pragma once
// Runs analyses off the GUI thread, latest request wins: while one job runs,
// a newer request cancels it (through its CancelToken) and replaces any
// request still waiting, so a burst of requests (a Shift+drag, a scope
// change) costs the GUI thread only the hand-over, and only the newest
// result is ever shown. The result is applied on the GUI thread by the
// continuation the job returns, unless a newer request came in meanwhile.
// The jobs run as tasks of the shared executor (util/executor.h), at most
// one of a runner's at a time, analyses at a lower priority than the GUI
// thread (nice 19 on Linux). Destroying the runner cancels its job and
// waits for it (or takes back its task, not started yet).
//
// Frames (the timeline's) differ: they run at nice 5, a
// newer request does not cancel the frame being drawn, and a finished frame
// is shown even when a newer one is on its way; otherwise a continuous drag,
// each event newer than the frame in progress, would show no frame at all.

#include <QObject>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

#include "util/cancel_token.h"
#include "util/executor.h"

namespace gapscope::ui {

class CoalescingRunner : public QObject {
    Q_OBJECT
  public:
    // Runs on the worker; returns what to do with its result on the GUI
    // thread (may be empty, e.g. when cancelled).
    using Job = std::function<std::function<void()>(const CancelToken& cancel)>;

    enum class Policy { Analyses, Frames };
    explicit CoalescingRunner(QObject* parent = nullptr, Policy policy = Policy::Analyses);
    ~CoalescingRunner() override;

    void submit(Job job);
    // Drops the waiting request and cancels the running one; no result of
    // either will be applied.
    void cancelAll();
    bool busy() const { return busy_; }
    // Whether a finished job's result waits for the GUI thread's event loop
    // to apply it (any thread; for tests that must not race the worker).
    bool resultWaiting() const;

  signals:
    void busyChanged(bool busy);

  private:
    // A task of the executor: runs the pending job (the newest request),
    // then queues itself again if another came meanwhile.
    void drain();
    // Queues drain() unless it is queued or running (mutex_ held).
    void schedule();
    void setBusy(bool busy);
    // On the GUI thread: applies the result the worker left in ready_. The
    // result travels through our own mutex, not inside Qt's event (whose
    // locking ThreadSanitizer cannot see); the event only wakes us.
    Q_INVOKABLE void deliver();

    mutable std::mutex mutex_;
    Job pending_;
    std::shared_ptr<CancelToken> running_;  // the token of the job in progress
    std::function<void()> ready_;           // a finished job's continuation
    uint64_t readyGeneration_ = 0;
    bool hasReady_ = false;
    uint64_t generation_ = 0;  // of the newest request (GUI thread and worker)
    bool stopping_ = false;
    bool scheduled_ = false;           // drain() is queued or running
    Executor::TaskId task_ = 0;        // its task, while queued
    std::condition_variable drained_;  // scheduled_ went false
    bool busy_ = false;                // GUI thread only
    const Policy policy_;
    Executor& executor_;
};

}  // namespace gapscope::ui
