// The executor every background task runs on: results and exceptions reach
// the waiter, a full queue runs the task on the caller, a queued task can
// be taken back, a task that waits for another it submitted never holds
// the worker the other needs, and destruction runs what is queued.

#include <QTest>
#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>

#include "support/suite_main.h"
#include "util/executor.h"

using namespace gapscope;

namespace {

// A gate a task waits at until the test opens it.
class Gate {
  public:
    void wait() {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [this] { return open_; });
    }
    void open() {
        {
            std::lock_guard lock(mutex_);
            open_ = true;
        }
        cv_.notify_all();
    }

  private:
    std::mutex mutex_;
    std::condition_variable cv_;
    bool open_ = false;
};

}  // namespace

class TestExecutor : public QObject {
    Q_OBJECT
  private slots:
    void resultsAndExceptionsReachTheWaiter() {
        Executor pool({2, 0, 16});
        auto sum = pool.submit([] {
            int s = 0;
            for (int i = 1; i <= 100; ++i)
                s += i;
            return s;
        });
        auto fails = pool.submit([]() -> int { throw std::runtime_error("out of memory"); });
        QCOMPARE(sum.get(), 5050);
        QVERIFY_THROWS_EXCEPTION(std::runtime_error, fails.get());
        // A posted task that throws leaves its worker working.
        std::function<void()> bad = [] { throw std::logic_error("bad"); };
        QVERIFY(pool.post(bad) != 0);
        QCOMPARE(pool.submit([] { return 7; }).get(), 7);
    }

    // One worker held at a gate; the queue takes two; the third submission
    // runs on the caller, at once.
    void aFullQueueRunsOnTheCaller() {
        Executor pool({1, 0, 2});
        Gate gate;
        std::atomic<bool> started{false};
        auto held = pool.submit([&] {
            started = true;
            gate.wait();
            return std::this_thread::get_id();
        });
        while (!started)
            std::this_thread::yield();
        auto a = pool.submit([] { return std::this_thread::get_id(); });
        auto b = pool.submit([] { return std::this_thread::get_id(); });
        QCOMPARE(pool.queued(), size_t(2));
        auto c = pool.submit([] { return std::this_thread::get_id(); });
        QCOMPARE(c.get(), std::this_thread::get_id());  // ran here, the queue being full
        QCOMPARE(pool.queued(), size_t(2));
        gate.open();
        QVERIFY(held.get() != std::this_thread::get_id());
        a.get();
        b.get();
    }

    // A task not started can be taken back; one that has run cannot.
    void aQueuedTaskCanBeTakenBack() {
        Executor pool({1, 0, 16});
        Gate gate;
        std::atomic<bool> started{false};
        auto held = pool.submit([&] {
            started = true;
            gate.wait();
        });
        while (!started)
            std::this_thread::yield();
        std::atomic<int> ran{0};
        std::function<void()> task = [&] { ++ran; };
        const Executor::TaskId id = pool.post(task);
        QVERIFY(id != 0);
        QVERIFY(pool.unqueue(id));
        QVERIFY(!pool.unqueue(id));
        gate.open();
        held.get();
        QCOMPARE(pool.submit([] { return 1; }).get(), 1);  // the queue has drained
        QCOMPARE(ran.load(), 0);
    }

    // With one worker, a task that submits another and waits for it: the
    // waiter takes the queued task back and runs it, instead of waiting
    // for the worker it holds itself.
    void waitingForATaskNeverDeadlocks() {
        Executor pool({1, 0, 16});
        auto outer = pool.submit([&pool] {
            auto inner = pool.submit([] { return std::this_thread::get_id(); });
            return inner.get() == std::this_thread::get_id();
        });
        QVERIFY(outer.get());
    }

    // Destruction runs what is queued, then joins.
    void destructionRunsWhatIsQueued() {
        std::atomic<int> ran{0};
        {
            Executor pool({1, 0, 64});
            for (int i = 0; i < 32; ++i) {
                std::function<void()> task = [&ran] {
                    std::this_thread::sleep_for(std::chrono::microseconds(100));
                    ++ran;
                };
                QVERIFY(pool.post(task) != 0);
            }
        }
        QCOMPARE(ran.load(), 32);
    }

    // The pattern of the ranks' parallel load, many times over: helpers
    // share a counter on the caller's stack; every helper has finished
    // when the caller returns (ThreadSanitizer checks the stack's reuse).
    void helpersFinishBeforeTheCallerReturns() {
        auto claimAll = [](size_t n) {
            std::atomic<size_t> next{0};
            std::atomic<size_t> claimed{0};
            auto work = [&] {
                for (size_t i = next++; i < n; i = next++) {
                    std::this_thread::sleep_for(std::chrono::microseconds(50));
                    ++claimed;
                }
            };
            std::vector<Executor::Pending<void>> helpers;
            for (int w = 0; w < 3; ++w)
                helpers.push_back(sharedExecutor(Priority::Work).submit(work));
            work();
            for (auto& h : helpers)
                h.get();
            return claimed.load();
        };
        for (size_t round = 0; round < 200; ++round) {
            QCOMPARE(claimAll(round % 7), round % 7);
        }
    }

    // The shared pools: one per priority, a worker per core (at least two).
    void sharedPools() {
        Executor& work = sharedExecutor(Priority::Work);
        QCOMPARE(&work, &sharedExecutor(Priority::Work));
        QVERIFY(&work != &sharedExecutor(Priority::Analyses));
        QVERIFY(&work != &sharedExecutor(Priority::Frames));
        QVERIFY(work.threads() >= 2);
        QCOMPARE(sharedExecutor(Priority::Analyses).submit([] { return 3; }).get(), 3);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestExecutor)
#include "tst_executor.moc"
