#pragma once
// Streams a Chrome Trace Event Format document (bare array or object form)
// from a ByteSource through a reused buffer, handing each event to a sink.
// Truncated input keeps everything before the cut and says so in the report.

#include <cstdint>
#include <string>
#include <vector>

#include "format/event_parser.h"
#include "format/import_report.h"
#include "format/reader_options.h"
#include "io/byte_source.h"

namespace gapscope {

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
