#pragma once
// Events handed from a reading thread to the building one in batches:
// each batch owns copies of the text its events' views point at (or the
// buffer they point into), and a bounded queue carries batches one way and
// spent ones back for reuse. Used by the pipelined JSON reader and by the
// parallel reading of a profile run's host files.

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "format/raw_event.h"
#include "format/trace_json_reader.h"  // RawBuffer

namespace gapscope {

// Copies of text, kept together in large blocks that are reused after
// clear(): one allocation per block instead of one per string.
class TextArena {
  public:
    static constexpr size_t kBlock = 256 * 1024;
    std::string_view keep(std::string_view text) {
        if (text.size() > kBlock / 4) {  // a long one gets its own block
            auto& big = large_.emplace_back(std::make_unique<char[]>(text.size()));
            std::memcpy(big.get(), text.data(), text.size());
            return {big.get(), text.size()};
        }
        if (used_ + text.size() > kBlock || block_ >= blocks_.size()) {
            if (block_ < blocks_.size() && used_ > 0) ++block_;
            if (block_ >= blocks_.size()) blocks_.push_back(std::make_unique<char[]>(kBlock));
            used_ = 0;
        }
        char* at = blocks_[block_].get() + used_;
        std::memcpy(at, text.data(), text.size());
        used_ += text.size();
        return {at, text.size()};
    }
    void clear() {
        block_ = used_ = 0;
        large_.clear();
    }

  private:
    std::vector<std::unique_ptr<char[]>> blocks_, large_;
    size_t block_ = 0, used_ = 0;
};

// Events parsed from one buffer, and that buffer (their views point into it).
struct EventBatch {
    RawBuffer buffer;
    std::vector<RawEvent> events;
    size_t count = 0;
    TextArena owned;  // text that was not in `buffer` (unescaped strings, copies)
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
    // At most `maxBatches` batches exist (two: one filled while one is built).
    explicit BatchQueue(size_t maxBatches = kMaxBatches)
        : maxBatches_(std::max<size_t>(2, maxBatches)) {}

    std::unique_ptr<EventBatch> takeFree() {
        std::unique_lock lock(mutex_);
        cv_.wait(lock, [&] { return aborted_ || !free_.empty() || allocated_ < maxBatches_; });
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
    size_t maxBatches_;
    size_t allocated_ = 0;
    bool closed_ = false, aborted_ = false;
    std::exception_ptr error_;
};

// Appends a copy of `ev` to the batch: the plain fields and counter values
// (the owned-text containers are not copied), then `keep(batch, view)` for
// every text view, which re-points the views that would not survive the
// reader's next event at batch-owned copies. Counted only once whole, so a
// copy that throws is never shipped.
template <class Keep>
void appendEventCopy(EventBatch& b, const RawEvent& ev, Keep keep) {
    if (b.count == b.events.size()) b.events.emplace_back();
    RawEvent& copy = b.events[b.count];
    static_cast<RawEventFields&>(copy) = ev;
    if (!ev.counterValues.empty() || !copy.counterValues.empty())
        copy.counterValues = ev.counterValues;
    for (std::string_view* v :
         {&copy.phText, &copy.name, &copy.cat, &copy.pid.text, &copy.tid.text, &copy.id.text,
          &copy.id2.text, &copy.args, &copy.metaName, &copy.metaLabels, &copy.flowCat,
          &copy.inputDims, &copy.inputTypes, &copy.concreteInputs, &copy.collectiveName,
          &copy.collectiveType, &copy.resultShape, &copy.memOpName})
        keep(b, *v);
    for (CounterValue& c : copy.counterValues)
        keep(b, c.key);
    ++b.count;
}

// Feeds a batch's events and metadata to `sink` in the order they came.
void deliver(const EventBatch& b, EventSink& sink);

// An EventSink for a reader on another thread that copies every view of
// every event into the batch (nothing of the reader's survives the call),
// and ships a batch every kEvents events and at close().
class CopyingSink final : public EventSink {
  public:
    static constexpr size_t kEvents = 4096;
    explicit CopyingSink(BatchQueue& queue) : queue_(queue) {}
    void onEvent(const RawEvent& event) override;
    void onMetadata(std::string_view key, std::string_view rawValue) override;
    // Ships what is left; call when the reader is done.
    void flush();

  private:
    EventBatch& current();
    BatchQueue& queue_;
    std::unique_ptr<EventBatch> current_;
};

}  // namespace gapscope
