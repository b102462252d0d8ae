#pragma once
// What every reader of a trace format takes: cancel and progress, the
// limits on what hostile input can make it allocate, and the hooks the
// loader uses to read on several cores (a BufferExchange for the pipelined
// reader, EventJumps for events parsed ahead in chunks).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "format/raw_event.h"  // EventSink
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

// The processes whose events a reader keeps: all of them, those named, or
// all but those named. A file that holds several ranks' processes (an
// Nsight Systems report of a job run under one nsys) is read as one rank
// per process; the first rank's part also keeps the processes that are no
// rank's (a launcher), so that no event is left out of every rank.
struct ProcessFilter {
    std::vector<int64_t> pids;  // ascending
    bool allBut = false;        // every process but `pids`
    bool whole() const { return pids.empty() && !allBut; }
    bool keeps(int64_t pid) const {
        if (whole()) return true;
        return std::binary_search(pids.begin(), pids.end(), pid) != allBut;
    }
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
    ProcessFilter processes;      // only readers of such files take one (the loader checks)
    // An uncompressed file: a descriptor to read it at random (an XSpace
    // plane where it lies, a line at a time, instead of held whole).
    int fileFd = -1;
    // The trace's args store reads args back from this file (with the
    // format's ArgsDecoder): a reader leaves them there instead of
    // composing text (RawEvent::argsInInput).
    bool argsStayInFile = false;
};

}  // namespace gapscope
