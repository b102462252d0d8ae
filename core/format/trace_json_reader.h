#pragma once
// Streams a Chrome Trace Event Format document (bare array or object form)
// from a ByteSource through a reused buffer, handing each event to a sink.
// Truncated input keeps everything before the cut and says so in the report.

#include <cstdint>
#include <string>
#include <vector>

#include "format/event_parser.h"
#include "format/import_report.h"
#include "io/byte_source.h"
#include "util/cancel_token.h"
#include "util/raw_buffer.h"

namespace gapscope {

// Lets a sink keep views of the reader's text after onEvent returns (the
// pipelined loader hands whole buffers to another thread). When set, the
// reader never moves text inside a buffer: it takes a fresh buffer, copies
// the unfinished unit over, and retires the old one with every event parsed
// from it. The last buffer is retired when run() returns normally.
class BufferExchange {
  public:
    virtual ~BufferExchange() = default;
    virtual RawBuffer acquire(size_t minBytes) = 0;
    virtual void retire(RawBuffer full) = 0;
};

// Lets the reader jump over events that were parsed elsewhere (on other
// cores: format/chunked_events.h). At the '{' of an event at a stream offset
// of nextCheck() or more, the reader calls jump(); it delivers to `sink` the
// events that start exactly there, numbering them from `events` (which it
// advances), and returns the offset where the reader goes on: `offset`
// itself when it delivered nothing. Everything else (errors, warnings, the
// document around the events) stays the reader's.
class EventJumps {
  public:
    virtual ~EventJumps() = default;
    virtual uint64_t nextCheck() const = 0;
    virtual uint64_t jump(uint64_t offset, EventSink& sink, uint64_t& events) = 0;
};

struct ReaderOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    uint64_t fileSize = 0;                 // for progress
    bool decompressed = false;             // offsets refer to decompressed bytes
    size_t initialBufferBytes = 4u << 20;  // grows while one unit does not fit
    size_t maxEventBytes =
        256u << 20;  // one event (or metadata value) larger than this is an error
    BufferExchange* exchange = nullptr;
    EventJumps* jumps = nullptr;  // not with `exchange`
};

struct ReaderResult {
    bool objectForm = false;
    bool sawTraceEvents = false;
    // Decompressed bytes read: to the end of the input, or, where reading
    // stopped before it (malformed text, data after the document), up to
    // where it stopped, so that it does not depend on the buffering.
    uint64_t bytesRead = 0;
};

class TraceJsonReader {
  public:
    TraceJsonReader(ByteSource& source, EventSink& sink, ImportReport& report,
                    ReaderOptions options);

    // Throws LoadError when nothing usable could be read, LoadCancelled on cancel.
    ReaderResult run();

  private:
    enum class Unit { Done, Eof, Stop };

    bool refill(size_t keepFrom);
    void seekTo(uint64_t offset);  // forward only
    int peekNonWs();               // -1 at end of input
    uint64_t offsetOf(size_t pos) const { return base_ + pos; }
    [[noreturn]] void fail(size_t pos, const std::string& what) const;
    [[noreturn]] void failTooLarge(size_t pos) const;
    void stopEarly(size_t pos, const std::string& why);

    void readTopObject();
    Unit readEventsArray();
    bool readKey(std::string& key);
    void readMetadataValue(const std::string& key);
    std::string describeStart() const;

    ByteSource& source_;
    EventSink& sink_;
    ImportReport& report_;
    ReaderOptions options_;
    ReaderResult result_;

    RawBuffer buf_;
    size_t pos_ = 0, end_ = 0;
    uint64_t base_ = 0;  // stream offset of buf_[0]
    bool eof_ = false;
    bool stopped_ = false;
    uint64_t stoppedBeforeEnd_ = UINT64_MAX;  // where reading stopped before the input's end
    uint64_t jumpCheck_ = UINT64_MAX;         // options_.jumps->nextCheck(), cached
    std::string topKeys_;                     // for the error when there is no traceEvents

    EventParser parser_;
    RawEvent event_;
};

}  // namespace gapscope
