#pragma once
// Streams an XSpace protobuf (the TensorFlow / JAX profiler's *.xplane.pb)
// into an EventSink as the trace viewer shows it: each plane with lines is a
// process named after the plane ("/device:GPU:0", "/host:CPU"), each line a
// thread (its display_name when set, lines of one display_id in one row),
// each event a complete event named by its metadata's display_name (else
// name; a step_name stat names a step) with every stat as an arg. Times are
// the line's timestamp_ns plus the event's offset_ps, rounded to the ns at
// both ends, so two events that touch in ps still touch in ns. Plane stats,
// host names and the profiler's own errors go to the trace's metadata and
// report.
//
// One plane at a time is held in memory: a plane's event and stat names come
// after its lines in the file, so its lines cannot be named until it is all
// there. Nothing is allocated from a length field before the bytes arrive.

#include <cstdint>
#include <memory>
#include <string>

#include "format/import_report.h"
#include "format/raw_event.h"
#include "format/reader_options.h"
#include "io/byte_source.h"

namespace gapscope {

// About what one event takes in an XSpace (a quarter of its JSON), for
// sizing the model's arrays ahead.
inline constexpr uint64_t kXSpaceBytesPerEvent = 25;

struct XSpaceResult {
    uint64_t bytesRead = 0;  // decompressed bytes consumed
    uint64_t planes = 0;
};

// One host's file among several in one timeline (a profile run's folder):
// its processes are named "HOST PLANE" ("10.0.0.1_6009 /device:GPU:0") and
// numbered from `pidBase`, so hosts never share a process; its metadata
// keys name the host too.
struct XSpaceHost {
    std::string name;  // empty: a single file, planes keep their own names
    int64_t pidBase = 0;
};

class XSpaceReader {
  public:
    XSpaceReader(ByteSource& source, EventSink& sink, ImportReport& report, ReaderOptions options,
                 XSpaceHost host = {});
    ~XSpaceReader();

    // Throws LoadError when nothing usable could be read, LoadCancelled on
    // cancel. A cut-off file keeps the planes before the cut (report.truncated).
    XSpaceResult run();

  private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace gapscope
