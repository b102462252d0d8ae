#include "format/pipelined_reader.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "util/load_error.h"

namespace gapscope {
namespace {

// Events parsed from one buffer, and that buffer (their views point into it).
struct EventBatch {
    RawBuffer buffer;
    std::vector<RawEvent> events;
    size_t count = 0;
    std::deque<std::string> owned;  // text that was not in `buffer` (unescaped strings)
    struct Metadata {
        size_t position;  // delivered after this many of the batch's events
        std::string key, value;
    };
    std::vector<Metadata> metadata;

    void clear() {
        count = 0;
        owned.clear();
        metadata.clear();
    }
};

// Thrown on the reader thread when the consumer has given up.
struct PipelineAborted {};

// A bounded hand-over of batches between the two threads, plus the pool of
// spent batches going back (so buffers and event vectors are reused).
class BatchQueue {
  public:
    static constexpr size_t kMaxBatches = 4;

    std::unique_ptr<EventBatch> takeFree() {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return aborted_ || !free_.empty() || allocated_ < kMaxBatches; });
        if (aborted_) throw PipelineAborted{};
        if (!free_.empty()) {
            auto b = std::move(free_.back());
            free_.pop_back();
            return b;
        }
        ++allocated_;
        return std::make_unique<EventBatch>();
    }
    void push(std::unique_ptr<EventBatch> b) {
        std::lock_guard lock(mutex_);
        if (aborted_) throw PipelineAborted{};
        full_.push_back(std::move(b));
        cv_.notify_all();
    }
    // Null when the reader is done (closed) and everything was taken.
    std::unique_ptr<EventBatch> pop() {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return closed_ || !full_.empty(); });
        if (full_.empty()) return nullptr;
        auto b = std::move(full_.front());
        full_.pop_front();
        return b;
    }
    void recycle(std::unique_ptr<EventBatch> b) {
        b->clear();
        std::lock_guard lock(mutex_);
        free_.push_back(std::move(b));
        cv_.notify_all();
    }
    void close(std::exception_ptr error) {
        std::lock_guard lock(mutex_);
        closed_ = true;
        error_ = std::move(error);
        cv_.notify_all();
    }
    void abort() {
        std::lock_guard lock(mutex_);
        aborted_ = true;
        cv_.notify_all();
    }
    std::exception_ptr error() {
        std::lock_guard lock(mutex_);
        return error_;
    }

  private:
    std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<std::unique_ptr<EventBatch>> full_;
    std::vector<std::unique_ptr<EventBatch>> free_;
    size_t allocated_ = 0;
    bool closed_ = false, aborted_ = false;
    std::exception_ptr error_;
};

// The reader's sink and buffer exchange, on the reader thread: copies each
// event into the current batch and ships the batch with its buffer.
class BatchingSink final : public EventSink, public BufferExchange {
  public:
    explicit BatchingSink(BatchQueue& queue) : queue_(queue) {}

    RawBuffer acquire(size_t minBytes) override {
        auto batch = queue_.takeFree();
        RawBuffer buffer = std::move(batch->buffer);
        if (buffer.size() < minBytes) buffer = RawBuffer(minBytes);
        live_ = buffer.data();
        liveEnd_ = buffer.data() + buffer.size();
        (current_ ? next_ : current_) = std::move(batch);
        return buffer;
    }

    void retire(RawBuffer full) override {
        current_->buffer = std::move(full);
        queue_.push(std::move(current_));
        current_ = std::move(next_);
    }

    void onEvent(const RawEvent& ev) override {
        EventBatch& b = *current_;
        if (b.count == b.events.size()) b.events.emplace_back();
        RawEvent& copy = b.events[b.count++];
        // The plain fields and counter values; the owned-text containers are
        // not copied: every view into them is re-pointed by keep() below.
        static_cast<RawEventFields&>(copy) = ev;
        if (!ev.counterValues.empty() || !copy.counterValues.empty())
            copy.counterValues = ev.counterValues;
        // Views into the parser's scratch or the event's own storage would
        // not survive the next event: give them batch-owned copies.
        for (std::string_view* v :
             {&copy.ph, &copy.name, &copy.cat, &copy.pid.text, &copy.tid.text, &copy.id.text,
              &copy.id2.text, &copy.args, &copy.metaName, &copy.metaLabels})
            keep(b, *v);
        for (CounterValue& c : copy.counterValues)
            keep(b, c.key);
    }

    void onMetadata(std::string_view key, std::string_view rawValue) override {
        current_->metadata.push_back({current_->count, std::string(key), std::string(rawValue)});
    }

  private:
    void keep(EventBatch& b, std::string_view& v) {
        if (v.empty() || (v.data() >= live_ && v.data() + v.size() <= liveEnd_)) return;
        v = b.owned.emplace_back(v);
    }

    BatchQueue& queue_;
    std::unique_ptr<EventBatch> current_, next_;
    const char* live_ = nullptr;
    const char* liveEnd_ = nullptr;
};

void deliver(const EventBatch& b, EventSink& sink) {
    size_t meta = 0;
    for (size_t i = 0; i < b.count; ++i) {
        while (meta < b.metadata.size() && b.metadata[meta].position == i) {
            sink.onMetadata(b.metadata[meta].key, b.metadata[meta].value);
            ++meta;
        }
        sink.onEvent(b.events[i]);
    }
    for (; meta < b.metadata.size(); ++meta)
        sink.onMetadata(b.metadata[meta].key, b.metadata[meta].value);
}

}  // namespace

ReaderResult readPipelined(ByteSource& source, EventSink& sink, ImportReport& report,
                           ReaderOptions options) {
    const CancelToken* cancel = options.cancel;
    BatchQueue queue;
    BatchingSink batching(queue);
    ImportReport readerReport;
    ReaderResult result;
    options.exchange = &batching;
    std::thread reader([&] {
        try {
            TraceJsonReader r(source, batching, readerReport, options);
            result = r.run();
            queue.close(nullptr);
        } catch (const PipelineAborted&) {
            queue.close(nullptr);
        } catch (...) {
            queue.close(std::current_exception());
        }
    });
    try {
        while (auto batch = queue.pop()) {
            if (cancel && cancel->isCancelled()) throw LoadCancelled();
            deliver(*batch, sink);
            queue.recycle(std::move(batch));
        }
    } catch (...) {
        queue.abort();
        reader.join();
        throw;
    }
    reader.join();
    if (std::exception_ptr error = queue.error()) std::rethrow_exception(error);
    report.events = readerReport.events;
    report.truncated = report.truncated || readerReport.truncated;
    for (ImportWarning& w : readerReport.warnings)
        report.warn(w.offset, std::move(w.message));
    report.suppressedWarnings += readerReport.suppressedWarnings;
    return result;
}

}  // namespace gapscope
