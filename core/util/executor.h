#pragma once
// The one way background work runs: a pool of threads with a bounded queue.
// A load, its side tasks, the index cache's writes, exports, every panel's
// analysis and the timeline's frames are tasks here, not threads of their
// own, so the machine's cores are shared by one scheduler and a new
// analysis or panel has nothing to start or join.
//
// Three pools by priority (sharedExecutor): work a person waits for (a
// load) at normal priority; the timeline's frames at nice 5; analyses at
// nice 19, so that they yield to the GUI thread (see Priority).
//
// Waiting never deadlocks on the pool: a task not started yet is taken
// back and run by the thread that waits for it (Pending::get), and a full
// queue runs a submitted task on the caller (submit). Cancellation is
// cooperative, through each task's CancelToken; unqueue() drops a task not
// started. The I/O pipeline's stages that block on one another (read-ahead,
// the parallel parser's chunks, the args store's writer) stay threads of
// their own: as tasks they could hold every worker while waiting for a
// stage still in the queue. So do the ranks' loaders (loader/rank_set.cpp).

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace gapscope {

class Executor {
  public:
    struct Options {
        unsigned threads = 2;
        int niceness = 0;  // Linux: each worker's nice value; elsewhere ignored
        size_t maxQueued = 4096;
    };
    explicit Executor(Options options);
    // Runs what is queued, then joins the workers (owners cancel their
    // tasks first). A Pending must not outlive its executor.
    ~Executor();
    Executor(const Executor&) = delete;
    Executor& operator=(const Executor&) = delete;

    using TaskId = uint64_t;  // 0: none
    // Queues `task`; 0 (and `task` untouched) when the queue is full.
    TaskId post(std::function<void()>& task);
    // Takes a task that has not started out of the queue: true when it was
    // there (it will not run), false when it has started or finished.
    bool unqueue(TaskId id);
    unsigned threads() const { return static_cast<unsigned>(workers_.size()); }
    size_t queued() const;

    // What a submitted task and its waiter share: the task, then its result
    // or exception. A mutex and a condition variable rather than
    // std::future, whose wait ThreadSanitizer cannot see through.
    template <class R>
    class Shared {
      public:
        explicit Shared(std::function<R()> task) : task_(std::move(task)) {}
        void run() {
            try {
                if constexpr (std::is_void_v<R>) {
                    task_();
                } else {
                    value_.emplace(task_());
                }
            } catch (...) {
                error_ = std::current_exception();
            }
            task_ = nullptr;  // its captures die before the waiter wakes
            {
                std::lock_guard lock(mutex_);
                done_ = true;
            }
            cv_.notify_all();
        }
        void wait() {
            std::unique_lock lock(mutex_);
            cv_.wait(lock, [this] { return done_; });
        }
        bool done() const {
            std::lock_guard lock(mutex_);
            return done_;
        }
        R take() {
            wait();
            if (error_) std::rethrow_exception(error_);
            if constexpr (!std::is_void_v<R>) return std::move(*value_);
        }

      private:
        std::function<R()> task_;
        mutable std::mutex mutex_;
        std::condition_variable cv_;
        bool done_ = false;
        std::conditional_t<std::is_void_v<R>, bool, std::optional<R>> value_{};
        std::exception_ptr error_;
    };

    // A submitted task's result, or its exception.
    template <class R>
    class Pending {
      public:
        Pending() = default;
        Pending(Pending&& o) noexcept { *this = std::move(o); }
        Pending& operator=(Pending&& o) noexcept {
            if (this != &o) {
                settle();
                executor_ = std::exchange(o.executor_, nullptr);
                id_ = std::exchange(o.id_, 0);
                shared_ = std::move(o.shared_);
            }
            return *this;
        }
        // As std::async's future: a task not waited for is taken back, or
        // waited for, so that it never outlives what it uses (an exception
        // between submit and get leaves nothing running).
        ~Pending() { settle(); }
        bool valid() const { return shared_ != nullptr; }
        bool ready() const { return shared_ && shared_->done(); }
        // Takes the task back if it has not started: true then (it will never
        // run; this is no longer valid), false when it runs or has run.
        bool takeBack() {
            if (!executor_ || !id_ || !executor_->unqueue(id_)) return false;
            executor_ = nullptr;
            shared_.reset();
            return true;
        }
        // Its result; a task still queued is taken back and run here, so a
        // task may wait for another it submitted without holding a worker
        // the other needs. Valid no more afterwards.
        R get() {
            if (executor_ && id_ && executor_->unqueue(id_)) shared_->run();
            executor_ = nullptr;
            const std::shared_ptr<Shared<R>> shared = std::move(shared_);
            return shared->take();
        }

      private:
        friend class Executor;
        void settle() {
            if (executor_ && !executor_->unqueue(id_) && shared_) shared_->wait();
            executor_ = nullptr;
        }
        Executor* executor_ = nullptr;
        TaskId id_ = 0;
        std::shared_ptr<Shared<R>> shared_;
    };

    // Runs `f` on a worker; on the caller when the queue is full.
    template <class F>
    Pending<std::invoke_result_t<F>> submit(F&& f) {
        using R = std::invoke_result_t<F>;
        Pending<R> p;
        p.shared_ = std::make_shared<Shared<R>>(std::function<R()>(std::forward<F>(f)));
        std::function<void()> run = [shared = p.shared_] { shared->run(); };
        p.id_ = post(run);
        if (p.id_ == 0) {
            p.shared_->run();  // the queue is full: the caller runs it
        } else {
            p.executor_ = this;
        }
        return p;
    }

  private:
    struct Queued {
        TaskId id;
        std::function<void()> task;
    };
    void workerLoop(int niceness);

    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<Queued> queue_;
    TaskId nextId_ = 1;
    size_t maxQueued_;
    bool stopping_ = false;
    std::vector<std::thread> workers_;
};

// Tasks an object started and finishes before it goes: its destructor
// waits for each (one not started runs there), as a thread pool of its own
// would, so a task may use its owner to the end.
class TaskGroup {
  public:
    TaskGroup() = default;
    TaskGroup(const TaskGroup&) = delete;
    TaskGroup& operator=(const TaskGroup&) = delete;
    ~TaskGroup() { waitAll(); }
    void add(Executor::Pending<void> task);
    // Waits for every task (their exceptions are their own: dropped here).
    void waitAll();

  private:
    std::vector<Executor::Pending<void>> tasks_;
};

// Which shared pool: what a person waits for (Work: a load, a rank's
// read), what they watch (Frames: the timeline's), what they read when it
// is ready (Analyses: the panels').
enum class Priority { Work, Frames, Analyses };
// The process's pool of that priority, started on first use, with a
// worker per core (at least two); never destroyed (its threads end with
// the process, so no task outlives what it uses at exit).
Executor& sharedExecutor(Priority priority);

}  // namespace gapscope
