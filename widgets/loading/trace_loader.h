#pragma once
// Loads a trace off the GUI thread through core's loadTrace, as a task of
// the shared executor (util/executor.h), with progress (polled, so a fast
// reader never floods the event loop) and cancel. Results arrive as queued
// signals on the GUI thread; the index cache is written afterwards, as
// another task.

#include <QObject>
#include <QString>
#include <QTimer>
#include <atomic>
#include <memory>
#include <optional>

#include "cache/index_cache.h"
#include "loader/loader.h"
#include "loader/rank_view.h"
#include "report/ranks_report.h"
#include "util/executor.h"

namespace gapscope::ui {

class TraceLoader : public QObject {
    Q_OBJECT
  public:
    explicit TraceLoader(QObject* parent = nullptr);
    ~TraceLoader() override;

    void load(const QString& path);  // cancels a load in progress first
    // The ranks of a job (loader/rank_view.h): `files` side by side, merged
    // into one trace named `path`; ranksLoaded comes just before loaded.
    void loadRanks(const std::vector<RankSource>& sources, const QString& path,
                   std::optional<int64_t> alignOnStep = std::nullopt);
    // Limits for the next loads (0 = the core's defaults).
    void setLimits(size_t maxEventBytes, uint64_t memoryLimitBytes);
    // Reopen from this index cache (null: always parse). A parsed trace is
    // handed over first and written to the cache afterwards, off the GUI thread.
    void setCache(std::shared_ptr<const IndexCache> cache) { cache_ = std::move(cache); }
    const IndexCache* cache() const { return cache_.get(); }
    // What the index cache did for the trace last handed over ("hit", "miss
    // (no entry)"; a parse is written after it is shown); "" without one.
    const std::string& cacheNote() const { return cacheNote_; }
    void cancel();
    bool isLoading() const { return load_.valid(); }
    // Blocks until the current load ends (tests, shutdown).
    void wait();
    // Blocks until the index cache entry of the last parse is written.
    void waitForCacheWrite();
    // The same, except that an entry whose write has not started is never
    // written (the cache is being cleared).
    void dropCacheWrite();

  signals:
    void progressChanged(int percent, const QString& phase);
    void loaded(std::shared_ptr<const gapscope::Trace> trace, const QString& path);
    // Each rank's figures, the stragglers, and the files that failed.
    void ranksLoaded(std::shared_ptr<const gapscope::RanksDocument> ranks, const QString& path);
    void failed(const QString& message, const QString& path);
    void cancelled(const QString& path);
    // The index cache entry for `path` was written ("" error) or not.
    void cacheWritten(const QString& path, const QString& error);

  private:
    struct Shared {
        CancelToken cancel;
        std::atomic<int> phase{0};
        std::atomic<uint64_t> done{0}, total{0};
    };
    void pollProgress();
    void finish(LoadResult result, const QString& path);
    void finishRanks(RankView view, const QString& path);
    // Waits for a load in progress, and makes the shared state of the next.
    std::shared_ptr<Shared> startLoad();
    // Starts the load's task and the progress polling.
    void run(std::function<void()> task);
    void endLoad();  // waits for the finished task, stops polling
    LoadOptions loadOptions() const;

    // The trace's entry, or with `job` the entry of the job it merges.
    void storeInCache(std::shared_ptr<const Trace> trace, const QString& path,
                      std::optional<JobCacheEntry> job = std::nullopt);

    Executor::Pending<void> load_;
    Executor::Pending<void> store_;
    std::shared_ptr<const IndexCache> cache_;
    std::string cacheNote_;
    size_t maxEventBytes_ = 0;
    uint64_t memoryLimitBytes_ = 0;
    std::shared_ptr<Shared> shared_;
    QTimer poll_;
};

}  // namespace gapscope::ui
