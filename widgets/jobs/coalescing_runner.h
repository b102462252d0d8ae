#pragma once
// Runs analyses off the GUI thread, latest request wins: while one job runs,
// a newer request cancels it (through its CancelToken) and replaces any
// request still waiting, so a burst of requests (a Shift+drag, a scope
// change) costs the GUI thread only the hand-over, and only the newest
// result is ever shown. The result is applied on the GUI thread by the
// continuation the job returns, unless a newer request came in meanwhile.
// Destroying the runner cancels and joins its worker. The worker runs at a
// lower priority than the GUI thread (nice 19 on Linux).
//
// Frames (the timeline's) differ: the worker runs at nice 5, a
// newer request does not cancel the frame being drawn, and a finished frame
// is shown even when a newer one is on its way; otherwise a continuous drag,
// each event newer than the frame in progress, would show no frame at all.

#include <QObject>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>

#include "util/cancel_token.h"

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
    void workerLoop();
    void setBusy(bool busy);
    // On the GUI thread: applies the result the worker left in ready_. The
    // result travels through our own mutex, not inside Qt's event (whose
    // locking ThreadSanitizer cannot see); the event only wakes us.
    Q_INVOKABLE void deliver();

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    Job pending_;
    std::shared_ptr<CancelToken> running_;  // the token of the job in progress
    std::function<void()> ready_;           // a finished job's continuation
    uint64_t readyGeneration_ = 0;
    bool hasReady_ = false;
    uint64_t generation_ = 0;  // of the newest request (GUI thread and worker)
    bool stopping_ = false;
    bool busy_ = false;  // GUI thread only
    const Policy policy_;
    std::thread worker_;
};

}  // namespace gapscope::ui
