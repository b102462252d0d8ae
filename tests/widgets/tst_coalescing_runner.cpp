// The GUI's background analysis runner: latest request wins, superseded
// jobs are cancelled, results are applied on the GUI thread only for the
// newest request, cancelAll drops everything, destruction joins cleanly;
// the frames policy, which finishes and shows the frame in progress; and the
// pacer that applies results one per pass of the event loop.
// (Also run under ThreadSanitizer in CI.)

#include <QCoreApplication>
#include <QTest>
#include <QThread>
#include <atomic>
#include <memory>
#include <new>
#include <vector>

#include "jobs/coalescing_runner.h"
#include "jobs/gui_pacer.h"
#include "support/suite_main.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

// Until `done` holds, without running the event loop (10 s at most).
template <class Done>
bool waitUntil(Done done) {
    for (int i = 0; i < 100000 && !done(); ++i)
        QThread::usleep(100);
    return done();
}

}  // namespace

class TestCoalescingRunner : public QObject {
    Q_OBJECT
  private slots:
    void latestRequestWins() {
        CoalescingRunner runner;
        std::vector<int> applied;
        std::atomic<int> started{0}, cancelledSeen{0};
        for (int i = 0; i < 50; ++i) {
            runner.submit([&, i](const CancelToken& cancel) {
                ++started;
                // Every job but the last runs until it is told to stop
                // (5 s at most), so however slow this machine, each
                // superseded run must see its cancel.
                for (int k = 0; i < 49 && k < 50000 && !cancel.isCancelled(); ++k)
                    QThread::usleep(100);
                if (cancel.isCancelled()) ++cancelledSeen;
                return std::function<void()>([&applied, i] { applied.push_back(i); });
            });
        }
        QVERIFY(runner.busy());
        QTRY_VERIFY_WITH_TIMEOUT(!runner.busy(), 10000);
        QCOMPARE(applied, std::vector<int>{49});  // only the newest, once
        QVERIFY(started.load() < 50);             // waiting requests were replaced, not queued
        QCOMPARE(cancelledSeen.load(), started.load() - 1);  // every superseded run was told
    }

    void resultsAreAppliedOnTheGuiThread() {
        CoalescingRunner runner;
        QThread* appliedOn = nullptr;
        QThread* ranOn = nullptr;
        runner.submit([&](const CancelToken&) {
            ranOn = QThread::currentThread();
            return std::function<void()>([&] { appliedOn = QThread::currentThread(); });
        });
        QTRY_VERIFY(appliedOn != nullptr);
        QCOMPARE(appliedOn, QCoreApplication::instance()->thread());
        QVERIFY(ranOn != appliedOn);
    }

    void cancelAllDropsTheResult() {
        CoalescingRunner runner;
        std::atomic<bool> release{false};
        bool applied = false;
        // The result holds `held`; the worker drops a cancelled result on its
        // own thread, which releases it. Kept instead, it would live on in the
        // runner until the event loop (not run here) applied it.
        auto held = std::make_shared<int>(0);
        std::weak_ptr<int> watch = held;
        runner.submit([&, held = std::move(held)](const CancelToken&) mutable {
            while (!release.load())
                QThread::usleep(100);
            return std::function<void()>([&applied, kept = std::move(held)] { applied = true; });
        });
        runner.cancelAll();
        QVERIFY(!runner.busy());
        release = true;
        QVERIFY(waitUntil([&] { return watch.expired(); }));
        QVERIFY(!runner.resultWaiting());
        QCoreApplication::sendPostedEvents();
        QVERIFY(!applied);
    }

    // A result that is ready but not yet applied when a newer request comes
    // in is dropped; the newer one is applied, and only then is the runner idle.
    void aReadyResultIsDroppedForANewerRequest() {
        CoalescingRunner runner;
        std::atomic<bool> firstDone{false}, releaseSecond{false};
        std::vector<int> applied;
        runner.submit([&](const CancelToken&) {
            firstDone = true;
            return std::function<void()>([&] { applied.push_back(1); });
        });
        // The first finishes and posts its result; the event loop does not run.
        QVERIFY(waitUntil([&] { return firstDone.load() && runner.resultWaiting(); }));
        runner.submit([&](const CancelToken&) {
            while (!releaseSecond.load())
                QThread::usleep(100);
            return std::function<void()>([&] { applied.push_back(2); });
        });
        QCoreApplication::processEvents();  // delivers the first: stale, dropped
        QVERIFY(applied.empty());
        QVERIFY(runner.busy());
        releaseSecond = true;
        QTRY_VERIFY(!runner.busy());
        QCOMPARE(applied, std::vector<int>{2});
    }

    // Frames: a newer request neither cancels the frame being drawn nor
    // drops it; it is applied, then the newest, and only then is the runner
    // idle. Requests that waited meanwhile are replaced, as for analyses.
    void framesInProgressAreFinishedAndShown() {
        CoalescingRunner runner(nullptr, CoalescingRunner::Policy::Frames);
        std::atomic<bool> firstStarted{false}, releaseFirst{false}, releaseLast{false};
        std::atomic<bool> firstCancelled{false};
        std::vector<int> applied;
        runner.submit([&](const CancelToken& cancel) {
            firstStarted = true;
            while (!releaseFirst.load())
                QThread::usleep(100);
            firstCancelled = cancel.isCancelled();
            return std::function<void()>([&] { applied.push_back(1); });
        });
        while (!firstStarted.load())
            QThread::usleep(100);
        for (int i = 2; i <= 5; ++i) {
            runner.submit([&, i](const CancelToken&) {
                while (i == 5 && !releaseLast.load())
                    QThread::usleep(100);
                return std::function<void()>([&applied, i] { applied.push_back(i); });
            });
        }
        releaseFirst = true;
        QTRY_COMPARE(applied, std::vector<int>{1});  // shown while a newer one is drawn
        QVERIFY(!firstCancelled.load());
        QVERIFY(runner.busy());
        releaseLast = true;
        QTRY_VERIFY(!runner.busy());
        QCOMPARE(applied, (std::vector<int>{1, 5}));  // 2-4 were replaced while waiting
    }

    // A job that throws (out of memory on a huge trace) ends the request
    // without a result and without taking the process down.
    void aThrowingJobEndsItsRequest() {
        CoalescingRunner runner;
        runner.submit([](const CancelToken&) -> std::function<void()> { throw std::bad_alloc(); });
        QTRY_VERIFY(!runner.busy());
        bool applied = false;
        runner.submit(
            [&](const CancelToken&) { return std::function<void()>([&] { applied = true; }); });
        QTRY_VERIFY(applied);
    }

    void destructionWhileRunningJoins() {
        std::atomic<bool> started{false}, finished{false};
        {
            CoalescingRunner runner;
            runner.submit([&](const CancelToken& cancel) {
                started = true;
                while (!cancel.isCancelled())
                    QThread::usleep(100);
                finished = true;
                return std::function<void()>();
            });
            QVERIFY(waitUntil([&] { return started.load(); }));
        }  // cancels and joins
        QVERIFY(finished.load());
    }

    // The pacer that applies panel results: one piece per pass of the event
    // loop, in order, and none for an owner that is gone.
    void thePacerRunsOnePiecePerPass() {
        GuiPacer pacer;
        std::vector<int> ran;
        QObject keep;
        auto gone = std::make_unique<QObject>();
        pacer.post(&keep, [&] { ran.push_back(1); });
        pacer.post(gone.get(), [&] { ran.push_back(2); });
        pacer.post(&keep, [&] { ran.push_back(3); });
        pacer.post(&keep, [&] { ran.push_back(4); });
        gone.reset();
        QVERIFY(!pacer.idle());
        QCoreApplication::processEvents();
        QCOMPARE(ran, (std::vector<int>{1}));
        QTRY_VERIFY(pacer.idle());
        QCOMPARE(ran, (std::vector<int>{1, 3, 4}));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestCoalescingRunner)
#include "tst_coalescing_runner.moc"
