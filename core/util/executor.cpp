#include "util/executor.h"

#include <algorithm>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace gapscope {

namespace {

// Linux keeps a nice value per thread; elsewhere this does nothing.
void setThisThreadNiceness(int niceness) {
#ifdef __linux__
    if (niceness != 0)
        setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), niceness);
#else
    (void)niceness;
#endif
}

}  // namespace

Executor::Executor(Options options) : maxQueued_(std::max<size_t>(options.maxQueued, 1)) {
    const unsigned n = std::max(options.threads, 1u);
    workers_.reserve(n);
    for (unsigned i = 0; i < n; ++i)
        workers_.emplace_back([this, niceness = options.niceness] { workerLoop(niceness); });
}

Executor::~Executor() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_)
        t.join();
}

Executor::TaskId Executor::post(std::function<void()>& task) {
    TaskId id = 0;
    {
        std::lock_guard lock(mutex_);
        if (queue_.size() >= maxQueued_ || stopping_) return 0;
        id = nextId_++;
        queue_.push_back({id, std::move(task)});
    }
    wake_.notify_one();
    return id;
}

bool Executor::unqueue(TaskId id) {
    std::function<void()> dropped;  // destroyed unlocked: it may own much
    {
        std::lock_guard lock(mutex_);
        const auto it = std::find_if(queue_.begin(), queue_.end(),
                                     [id](const Queued& q) { return q.id == id; });
        if (it == queue_.end()) return false;
        dropped = std::move(it->task);
        queue_.erase(it);
    }
    return true;
}

size_t Executor::queued() const {
    std::lock_guard lock(mutex_);
    return queue_.size();
}

void Executor::workerLoop(int niceness) {
    setThisThreadNiceness(niceness);
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, and nothing left to run
        std::function<void()> task = std::move(queue_.front().task);
        queue_.pop_front();
        lock.unlock();
        try {
            task();
        } catch (...) {
            // submit() keeps a task's exception for get(); a posted task
            // catches its own. Never let one end a worker.
        }
        task = nullptr;  // its captures die unlocked
        lock.lock();
    }
}

void TaskGroup::add(Executor::Pending<void> task) {
    // Those done are forgotten, so a long-lived owner holds few.
    std::erase_if(tasks_, [](const Executor::Pending<void>& t) { return t.ready(); });
    tasks_.push_back(std::move(task));
}

void TaskGroup::waitAll() {
    for (Executor::Pending<void>& t : tasks_) {
        try {
            if (t.valid()) t.get();
        } catch (...) {
        }
    }
    tasks_.clear();
}

// Background analyses yield to the GUI thread: on a two-core machine nine
// panel workers at the GUI's priority took its core away mid-frame (at nice
// 10 they still held a third of it; CFS weighs 1024 against 110 each at nice
// 10, 15 at nice 19). The timeline's frames sit between the two (nice 5,
// weight 335): at the GUI's own priority a frame shared a core with the GUI
// thread half and half, so that a 0.6 ms paint took 5 ms of wall time; it
// still outweighs the analyses twenty to one.
Executor& sharedExecutor(Priority priority) {
    // Each made on first use and never destroyed (see the header).
    const auto make = [](int niceness) {
        return new Executor({std::max(2u, std::thread::hardware_concurrency()), niceness, 4096});
    };
    switch (priority) {
        case Priority::Frames: {
            static Executor* const frames = make(5);
            return *frames;
        }
        case Priority::Analyses: {
            static Executor* const analyses = make(19);
            return *analyses;
        }
        case Priority::Work:
            break;
    }
    static Executor* const work = make(0);
    return *work;
}

}  // namespace gapscope
