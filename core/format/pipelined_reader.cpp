#include "format/pipelined_reader.h"

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>

#include "format/event_batches.h"
#include "util/load_error.h"

namespace gapscope {
namespace {

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
        // Views into the live buffer stay valid (the batch owns it); views
        // into the parser's scratch or the event's own storage get copies.
        appendEventCopy(*current_, ev, [this](EventBatch& b, std::string_view& v) { keep(b, v); });
    }

    void onMetadata(std::string_view key, std::string_view rawValue) override {
        current_->metadata.push_back({current_->count, std::string(key), std::string(rawValue)});
    }

  private:
    void keep(EventBatch& b, std::string_view& v) {
        if (v.empty() || (v.data() >= live_ && v.data() + v.size() <= liveEnd_)) return;
        v = b.owned.keep(v);
    }

    BatchQueue& queue_;
    std::unique_ptr<EventBatch> current_, next_;
    const char* live_ = nullptr;
    const char* liveEnd_ = nullptr;
};

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
