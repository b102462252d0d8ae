#include "loading/trace_loader.h"

#include <QCoreApplication>
#include <QFile>

namespace gapscope::ui {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
    poll_.setInterval(50);
    connect(&poll_, &QTimer::timeout, this, &TraceLoader::pollProgress);
}

TraceLoader::~TraceLoader() {
    // Stop both tasks (one not started never runs), but deliver nothing: a
    // signal emitted from a destructor reaches receivers that may be half
    // torn down themselves.
    cancel();
    load_ = {};
    // The index cache entry is written before the viewer goes, as before.
    try {
        if (store_.valid()) store_.get();
    } catch (...) {
    }
    QCoreApplication::removePostedEvents(this);
}

void TraceLoader::waitForCacheWrite() {
    if (!store_.valid()) return;
    store_.get();
    store_ = {};
    QCoreApplication::sendPostedEvents(this);
}

void TraceLoader::dropCacheWrite() {
    if (store_.takeBack()) return;  // not started: never written
    waitForCacheWrite();
}

void TraceLoader::storeInCache(std::shared_ptr<const Trace> trace, const QString& path,
                               std::optional<JobCacheEntry> job) {
    // One writer at a time, in order; the GUI thread never waits for the
    // previous one (a job's entry can be a GB): this one waits for it.
    auto previous = std::make_shared<Executor::Pending<void>>(std::move(store_));
    store_ = sharedExecutor(Priority::Work)
                 .submit([this, previous, cache = cache_, trace = std::move(trace), path,
                          job = std::move(job)] {
                     if (previous->valid()) previous->get();
                     const QString error = QString::fromStdString(
                         job ? storeJob(*cache, *trace, *job) : cache->store(*trace));
                     QMetaObject::invokeMethod(
                         this, [this, path, error] { emit cacheWritten(path, error); },
                         Qt::QueuedConnection);
                 });
}

void TraceLoader::wait() {
    if (!load_.valid()) return;
    load_.get();  // a task not started yet runs here
    load_ = {};
    // Deliver the queued result now so callers see a settled state.
    QCoreApplication::sendPostedEvents(this);
}

void TraceLoader::setLimits(size_t maxEventBytes, uint64_t memoryLimitBytes) {
    maxEventBytes_ = maxEventBytes;
    memoryLimitBytes_ = memoryLimitBytes;
}

void TraceLoader::cancel() {
    if (shared_) shared_->cancel.cancel();
}

std::shared_ptr<TraceLoader::Shared> TraceLoader::startLoad() {
    if (load_.valid()) {
        cancel();
        // One not started is dropped; one running ends soon, cancelled.
        if (!load_.takeBack()) load_.get();
        load_ = {};
        QCoreApplication::sendPostedEvents(this);
        poll_.stop();
    }
    shared_ = std::make_shared<Shared>();
    return shared_;
}

void TraceLoader::run(std::function<void()> task) {
    load_ = sharedExecutor(Priority::Work).submit(std::move(task));
    poll_.start();
    emit progressChanged(0, tr("Reading"));
}

void TraceLoader::endLoad() {
    poll_.stop();
    if (load_.valid()) {
        load_.get();  // its last step queued this call: it is done or nearly
        load_ = {};
    }
    shared_.reset();
}

LoadOptions TraceLoader::loadOptions() const {
    LoadOptions options;
    if (maxEventBytes_) options.maxEventBytes = maxEventBytes_;
    options.memoryLimitBytes = memoryLimitBytes_;
    options.cache = cache_.get();
    const std::shared_ptr<Shared> shared = shared_;
    options.cancel = &shared->cancel;
    options.progress = [shared](LoadPhase phase, uint64_t done, uint64_t total) {
        shared->phase.store(static_cast<int>(phase), std::memory_order_relaxed);
        shared->done.store(done, std::memory_order_relaxed);
        shared->total.store(total, std::memory_order_relaxed);
    };
    return options;
}

void TraceLoader::loadRanks(const std::vector<RankSource>& sources, const QString& path,
                            std::optional<int64_t> alignOnStep) {
    auto shared = startLoad();
    RankViewOptions options;
    options.load.load = loadOptions();
    options.alignOnStep = alignOnStep;
    options.storeJobInCache = false;  // after the job is shown: see finishRanks()
    const std::string name = QFile::encodeName(path).toStdString();
    // Each file's cache entry is written by its own load (storeInCache).
    run([this, shared, sources, name, path, options, cache = cache_] {
        (void)cache;  // held so the cache outlives this load
        (void)shared;
        RankView view;
        try {
            view = loadRankView(sources, name, options);
        } catch (const std::exception& e) {
            view.failure = LoadFailure{name, "ranks", e.what()};
        }
        QMetaObject::invokeMethod(
            this,
            [this, view = std::move(view), path]() mutable { finishRanks(std::move(view), path); },
            Qt::QueuedConnection);
    });
}

void TraceLoader::finishRanks(RankView view, const QString& path) {
    endLoad();
    if (view.cancelled) {
        emit cancelled(path);
        return;
    }
    if (!view.trace) {
        emit failed(QString::fromStdString(view.failure ? view.failure->message()
                                                        : path.toStdString() + ": no ranks"),
                    path);
        return;
    }
    auto doc = std::make_shared<RanksDocument>();
    for (RankEntry& e : view.ranks) {
        RankRow row;
        row.origin = rankOriginName(view.origins[rankSourceName(e.file, e.part)]);
        row.entry = std::move(e);
        doc->ranks.push_back(std::move(row));
    }
    for (const RankFailure& f : view.failed) {
        RankRow row;
        row.entry.rank = f.rank;
        row.entry.file = f.failure.path;
        row.entry.part = f.part;
        row.origin = rankOriginName(view.origins[rankSourceName(f.failure.path, f.part)]);
        row.error = f.failure.where + ": " + f.failure.what;
        doc->ranks.push_back(std::move(row));
    }
    std::stable_sort(doc->ranks.begin(), doc->ranks.end(), [](const RankRow& a, const RankRow& b) {
        return a.entry.rank < b.entry.rank;
    });
    doc->comparison = std::move(view.comparison);
    doc->warnings = std::move(view.warnings);
    // Stragglers name their rank by index into the rows now.
    for (StepStraggler& s : doc->comparison.stragglers)
        for (size_t i = 0; i < doc->ranks.size(); ++i)
            if (doc->ranks[i].entry.rank == s.rank && doc->ranks[i].error.empty()) s.entry = i;
    cacheNote_ = view.cacheNote;  // the job's own entry (each rank's file has one too)
    emit ranksLoaded(std::move(doc), path);
    std::shared_ptr<const Trace> trace = view.trace;
    emit loaded(std::move(view.trace), path);
    if (view.cacheEntry && cache_) storeInCache(std::move(trace), path, std::move(view.cacheEntry));
}

void TraceLoader::load(const QString& path) {
    auto shared = startLoad();
    const std::string file = QFile::encodeName(path).toStdString();
    LoadOptions options = loadOptions();
    options.storeInCache = false;  // after the trace is shown: see finish()
    run([this, shared, file, path, options, cache = cache_]() mutable {
        (void)cache;  // held so the cache outlives this load
        (void)shared;
        LoadResult result;
        try {
            result = loadTrace(file, options);
        } catch (const std::exception& e) {  // never out of the task: the viewer waits for it
            result.failure = LoadFailure{file, "load", e.what()};
        }
        QMetaObject::invokeMethod(
            this,
            [this, result = std::move(result), path]() mutable { finish(std::move(result), path); },
            Qt::QueuedConnection);
    });
}

void TraceLoader::pollProgress() {
    if (!shared_) return;
    const uint64_t total = shared_->total.load(std::memory_order_relaxed);
    const uint64_t done = shared_->done.load(std::memory_order_relaxed);
    const auto phase = static_cast<LoadPhase>(shared_->phase.load(std::memory_order_relaxed));
    // Reading is most of the work: 0..90 %, building and indexing the rest.
    int percent = 0;
    if (phase == LoadPhase::Reading) {
        percent =
            total ? static_cast<int>(90.0 * static_cast<double>(done) / static_cast<double>(total))
                  : 0;
    } else {
        percent = phase == LoadPhase::Building ? 92 : 99;
    }
    const QString name = phase == LoadPhase::Reading    ? tr("Reading")
                         : phase == LoadPhase::Building ? tr("Building")
                                                        : tr("Indexing");
    emit progressChanged(percent, name);
}

void TraceLoader::finish(LoadResult result, const QString& path) {
    endLoad();
    cacheNote_ = result.cacheNote;
    if (result.trace) {
        const bool parsed = !result.trace->fromCache;
        std::shared_ptr<const Trace> trace = result.trace;
        emit loaded(std::move(result.trace), path);
        if (parsed && cache_) storeInCache(std::move(trace), path);
    } else if (result.cancelled) {
        emit cancelled(path);
    } else {
        const QString message = result.failure ? QString::fromStdString(result.failure->message())
                                               : tr("unknown error");
        emit failed(message, path);
    }
}

}  // namespace gapscope::ui
