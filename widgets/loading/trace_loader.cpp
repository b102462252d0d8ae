#include "loading/trace_loader.h"

#include <QCoreApplication>
#include <QFile>

namespace gapscope::ui {

TraceLoader::TraceLoader(QObject* parent) : QObject(parent) {
    poll_.setInterval(50);
    connect(&poll_, &QTimer::timeout, this, &TraceLoader::pollProgress);
}

TraceLoader::~TraceLoader() {
    // Stop and join both threads, but deliver nothing: a signal emitted from
    // a destructor reaches receivers that may be half torn down themselves.
    cancel();
    if (thread_) thread_->wait();
    if (storeThread_) storeThread_->wait();
    QCoreApplication::removePostedEvents(this);
    delete thread_;
    delete storeThread_;
}

void TraceLoader::waitForCacheWrite() {
    if (!storeThread_) return;
    storeThread_->wait();
    QCoreApplication::sendPostedEvents(this);
    delete storeThread_;
    storeThread_ = nullptr;
}

void TraceLoader::storeInCache(std::shared_ptr<const Trace> trace, const QString& path) {
    waitForCacheWrite();  // one writer at a time; the previous one is nearly done
    storeThread_ = QThread::create([this, cache = cache_, trace = std::move(trace), path] {
        const QString error = QString::fromStdString(cache->store(*trace));
        QMetaObject::invokeMethod(
            this, [this, path, error] { emit cacheWritten(path, error); }, Qt::QueuedConnection);
    });
    storeThread_->start(QThread::LowPriority);
}

void TraceLoader::wait() {
    if (!thread_) return;
    thread_->wait();
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

void TraceLoader::load(const QString& path) {
    if (thread_) {
        cancel();
        thread_->wait();
        QCoreApplication::sendPostedEvents(this);
    }
    auto shared = std::make_shared<Shared>();
    shared_ = shared;
    const std::string file = QFile::encodeName(path).toStdString();
    LoadOptions options;
    if (maxEventBytes_) options.maxEventBytes = maxEventBytes_;
    options.memoryLimitBytes = memoryLimitBytes_;
    options.cache = cache_.get();
    options.storeInCache = false;  // after the trace is shown: see finish()
    thread_ = QThread::create([this, shared, file, path, options, cache = cache_]() mutable {
        (void)cache;  // held so the cache outlives this load
        options.cancel = &shared->cancel;
        options.progress = [shared](LoadPhase phase, uint64_t done, uint64_t total) {
            shared->phase.store(static_cast<int>(phase), std::memory_order_relaxed);
            shared->done.store(done, std::memory_order_relaxed);
            shared->total.store(total, std::memory_order_relaxed);
        };
        LoadResult result = loadTrace(file, options);
        QMetaObject::invokeMethod(
            this,
            [this, result = std::move(result), path]() mutable { finish(std::move(result), path); },
            Qt::QueuedConnection);
    });
    thread_->start();
    poll_.start();
    emit progressChanged(0, tr("Reading"));
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
    poll_.stop();
    if (thread_) {
        thread_->wait();
        thread_->deleteLater();
        thread_ = nullptr;
    }
    shared_.reset();
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
