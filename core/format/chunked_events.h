#pragma once
// The events of a plain JSON file parsed on several cores, for the reader
// to jump over (EventJumps). The file is cut into chunks of a fixed size;
// chunk j's events are those starting at the first likely event start
// ("}" "," "{" outside what the scan can see) at or after j * chunkBytes,
// up to the first event starting at or after (j + 1) * chunkBytes. Worker
// threads, and the reading thread while it would wait, parse chunks ahead
// into batches; the reader takes a chunk only when its own sequential parse
// arrives exactly at the chunk's start, so a start guessed inside a string
// is never used, and any chunk whose parse met something unusual (an
// error, an event past the chunk's slack, the end of the array) hands back
// to the reader where that happened: errors, warnings and the document's
// structure are always the sequential reader's, and the events delivered
// are the ones it would have parsed, in the same order.
//
// The text comes from the file (pread) or, for a compressed file, from the
// decompressing thread as a StreamTap: each chunk collects its text as the
// blocks go by, and is parsed once all of it is there. The stream's length
// is not known then; chunks appear as its bytes do.

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "format/event_batches.h"
#include "format/trace_json_reader.h"
#include "io/stream_tap.h"
#include "util/cancel_token.h"

namespace gapscope {

class ChunkedEvents final : public EventJumps, public StreamTap {
  public:
    static constexpr size_t kDefaultChunkBytes = 512 * 1024;
    // Chunks parsed ahead of the reader at most (bounds the memory).
    static constexpr size_t kLookahead = 4;
    // Events of one chunk at most: a chunk of tiny events hands the rest
    // back to the reader, so that a batch stays a few MB (RawEvents are
    // large) whatever the text.
    static constexpr size_t kMaxChunkEvents = 8192;
    // Text held by fed chunks at most (their batches): the inflating
    // thread runs a few MiB ahead, so this is only reached where the
    // reader is stuck in something huge (a long metadata value or event);
    // further chunks are then the reader's.
    static constexpr size_t kFedTextBudget = 64u << 20;

    struct Options {
        // The plain file (read with pread; not owned), or -1: the text
        // arrives through onBytes() and onEnd().
        int fd = -1;
        uint64_t fileSize = 0;  // with `fd`
        size_t chunkBytes = kDefaultChunkBytes;
        size_t maxEventBytes = 256u << 20;
        const CancelToken* cancel = nullptr;
        int workers = 1;
        // The reader parses every chunk nobody has parsed yet through the
        // chunk path too, instead of in place: tests and the fuzzer, so
        // that the path taken does not depend on the threads' timing.
        bool readerParsesChunks = false;
    };

    explicit ChunkedEvents(Options options);
    ~ChunkedEvents() override;
    ChunkedEvents(const ChunkedEvents&) = delete;
    ChunkedEvents& operator=(const ChunkedEvents&) = delete;

    // Text a chunk reads past its nominal end (so that events starting just
    // before the end are whole); a chunk's text is chunkBytes plus this.
    static size_t slackBytes(size_t chunkBytes);

    uint64_t nextCheck() const override { return nextCheck_; }
    uint64_t jump(uint64_t offset, EventSink& sink, uint64_t& events) override;

    // StreamTap: without `fd`, the stream's bytes as they are produced.
    void onBytes(uint64_t offset, const char* data, size_t size) noexcept override;
    void onEnd(uint64_t size) noexcept override;

    // Events delivered from chunks (for tests and measurements).
    uint64_t jumpedEvents() const { return jumpedEvents_; }

  private:
    enum class State : uint8_t { Unclaimed, Parsing, Parsed, Reader };
    static constexpr uint64_t kNoStart = UINT64_MAX;
    struct Chunk {
        State state = State::Unclaimed;
        uint64_t start = kNoStart;  // offset of its first event's '{'
        uint64_t resume = 0;        // where the reader goes on after its events
        std::unique_ptr<EventBatch> batch;
        // Without `fd`: its text so far, in batch->buffer, and whether that is all.
        size_t textBytes = 0;
        bool textComplete = false;
    };
    class Parser;

    bool fed() const { return options_.fd < 0; }
    // The next chunk to parse ahead, claimed; 0 when none (chunk 0 is the reader's).
    size_t claimLocked();
    std::unique_ptr<EventBatch> spareLocked();
    void recycleLocked(std::unique_ptr<EventBatch> batch) noexcept;
    void parse(size_t index, Parser& parser);
    void work();

    Options options_;
    size_t span_ = 0;           // a chunk's text: chunkBytes and the slack
    size_t maxFedBatches_ = 0;  // kFedTextBudget in batches
    size_t batchesMade_ = 0;    // by onBytes
    size_t chunkCount_ = 0;     // known so far (without `fd`, grows with the stream)
    std::deque<Chunk> chunks_;  // (a deque: references stay while it grows)
    std::vector<std::unique_ptr<EventBatch>> spare_;
    size_t current_ = 0;  // the chunk the reader is in
    uint64_t nextCheck_ = UINT64_MAX;
    uint64_t jumpedEvents_ = 0;
    bool stopping_ = false;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::unique_ptr<Parser> readerParser_;  // the reading thread's, while it would wait
    std::vector<std::thread> workers_;
};

}  // namespace gapscope
