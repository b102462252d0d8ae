// The viewer's background loader without a window (so ThreadSanitizer sees
// our threads and not Qt's GUI thread pool): a load hands the trace over on
// the GUI thread, then writes the index cache entry on its own thread; a
// reopen comes from the cache; cancel and failure are reported; destroying
// the loader mid-load is safe.

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

#include "loading/trace_loader.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

// One rank of a small job: a step with a kernel and its launch.
std::string rankTrace(int rank) {
    const std::string r = std::to_string(rank);
    return "{\"distributedInfo\": {\"rank\": " + r +
           "}, \"traceEvents\": ["
           "{\"ph\": \"X\", \"cat\": \"user_annotation\", \"name\": \"ProfilerStep#1\", "
           "\"pid\": 1, \"tid\": 1, \"ts\": 1, \"dur\": 90},"
           "{\"ph\": \"X\", \"cat\": \"cuda_runtime\", \"name\": \"cudaLaunchKernel\", "
           "\"pid\": 1, \"tid\": 1, \"ts\": 3, \"dur\": 1, \"args\": {\"correlation\": 5}},"
           "{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"gemm\", \"pid\": 0, "
           "\"tid\": 7, \"ts\": 5, \"dur\": 20, \"args\": {\"correlation\": 5, \"device\": 0}}]}";
}

}  // namespace

class TestTraceLoader : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Two ranks' files, PREFIX0.json and PREFIX1.json (none when one cannot be written).
    std::vector<RankSource> writeJob(const char* prefix) {
        std::vector<RankSource> sources;
        for (int r = 0; r < 2; ++r) {
            const std::string file =
                dir_.filePath(QStringLiteral("%1%2.json").arg(prefix).arg(r)).toStdString();
            if (!test::writeFile(file, rankTrace(r))) return {};
            sources.push_back({file, {}});
        }
        return sources;
    }

  private slots:
    void initTestCase() { qRegisterMetaType<std::shared_ptr<const Trace>>(); }

    void loadsThenWritesTheCacheThenReopensFromIt() {
        auto cache = std::make_shared<const IndexCache>(dir_.filePath("cache").toStdString());
        TraceLoader loader;
        loader.setCache(cache);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy written(&loader, &TraceLoader::cacheWritten);
        QThread* gui = QThread::currentThread();
        QThread* deliveredOn = nullptr;
        connect(&loader, &TraceLoader::loaded, this,
                [&] { deliveredOn = QThread::currentThread(); });
        loader.load(test::samplePath());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
        QCOMPARE(deliveredOn, gui);
        const auto first = loaded.at(0).at(0).value<std::shared_ptr<const Trace>>();
        QVERIFY(first && !first->fromCache && first->slices.size() > 1000);
        loader.waitForCacheWrite();
        QTRY_COMPARE(written.size(), 1);
        QCOMPARE(written.at(0).at(1).toString(), QString());
        loader.load(test::samplePath());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, 60000);
        const auto second = loaded.at(1).at(0).value<std::shared_ptr<const Trace>>();
        QVERIFY(second && second->fromCache);
        QCOMPARE(second->slices.size(), first->slices.size());
    }

    // A job: its ranks merged and shown first, then the job's own entry
    // written on the cache's thread; the next open is a hit.
    void aJobIsShownThenCachedThenReopenedFromItsEntry() {
        auto cache = std::make_shared<const IndexCache>(dir_.filePath("job-cache").toStdString());
        const std::vector<RankSource> sources = writeJob("rank");
        QCOMPARE(sources.size(), size_t(2));
        TraceLoader loader;
        loader.setCache(cache);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy written(&loader, &TraceLoader::cacheWritten);
        loader.loadRanks(sources, dir_.path(), std::nullopt);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
        const auto first = loaded.at(0).at(0).value<std::shared_ptr<const Trace>>();
        QVERIFY(first && !first->fromCache);
        QCOMPARE(first->ranks.size(), size_t(2));
        QCOMPARE(loader.cacheNote(), std::string("miss (no entry)"));
        loader.waitForCacheWrite();
        QTRY_COMPARE(written.size(), 1);
        QCOMPARE(written.at(0).at(1).toString(), QString());
        loader.loadRanks(sources, dir_.path(), std::nullopt);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, 60000);
        const auto second = loaded.at(1).at(0).value<std::shared_ptr<const Trace>>();
        QVERIFY(second && second->fromCache);
        QCOMPARE(loader.cacheNote(), std::string("hit"));
        QCOMPARE(second->slices.size(), first->slices.size());
        QCOMPARE(written.size(), 1);  // nothing to write after a hit
    }

    // Writes queue behind each other on the cache's threads (the GUI thread
    // never waits for one): a trace and then a job, both written, in order.
    void cacheWritesQueueInOrder() {
        auto cache = std::make_shared<const IndexCache>(dir_.filePath("queued").toStdString());
        const std::vector<RankSource> sources = writeJob("queued");
        QCOMPARE(sources.size(), size_t(2));
        TraceLoader loader;
        loader.setCache(cache);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        QSignalSpy written(&loader, &TraceLoader::cacheWritten);
        loader.load(test::samplePath());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 1, 60000);
        loader.loadRanks(sources, dir_.filePath("queued"), std::nullopt);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 2, 60000);
        loader.waitForCacheWrite();
        QTRY_COMPARE(written.size(), 2);
        QCOMPARE(written.at(0).at(0).toString(), test::samplePath());
        QCOMPARE(written.at(0).at(1).toString(), QString());
        QCOMPARE(written.at(1).at(1).toString(), QString());
        loader.load(test::samplePath());
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 3, 60000);
        QVERIFY(loaded.at(2).at(0).value<std::shared_ptr<const Trace>>()->fromCache);
        loader.loadRanks(sources, dir_.filePath("queued"), std::nullopt);
        QTRY_COMPARE_WITH_TIMEOUT(loaded.size(), 4, 60000);
        QVERIFY(loaded.at(3).at(0).value<std::shared_ptr<const Trace>>()->fromCache);
    }

    void failureAndCancelAreReported() {
        TraceLoader loader;
        QSignalSpy failed(&loader, &TraceLoader::failed);
        QSignalSpy cancelled(&loader, &TraceLoader::cancelled);
        QSignalSpy loaded(&loader, &TraceLoader::loaded);
        loader.load(dir_.filePath("missing.json"));
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 30000);
        QVERIFY(failed.at(0).at(0).toString().contains("missing.json"));
        // Cancel right away: either it is cancelled or it finished first.
        loader.load(test::samplePath());
        loader.cancel();
        QTRY_VERIFY_WITH_TIMEOUT(cancelled.size() + loaded.size() == 1, 30000);
        QVERIFY(!loader.isLoading());
    }

    // Destroying the loader mid-load cancels and waits for its thread; the
    // result it was computing is never delivered (the receiver would be gone).
    void destroyedWhileLoading() {
        int delivered = 0;
        QObject receiver;
        {
            TraceLoader loader;
            connect(&loader, &TraceLoader::loaded, &receiver, [&] { ++delivered; });
            connect(&loader, &TraceLoader::cancelled, &receiver, [&] { ++delivered; });
            loader.load(test::samplePath());
            QVERIFY(loader.isLoading());
        }
        // The loader's thread is joined: whatever it posted is in the queue now.
        QCoreApplication::sendPostedEvents();
        QCoreApplication::processEvents();
        QCOMPARE(delivered, 0);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestTraceLoader)
#include "tst_trace_loader.moc"
