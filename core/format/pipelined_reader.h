#pragma once
// Reading and building on two cores. The reader (decompress + tokenize) runs
// on a second thread and hands over whole buffers together with the events
// parsed from them; the calling thread feeds them, in file order, to the
// sink (the builder). The sink sees exactly the calls a direct
// TraceJsonReader::run() would make, so both paths build the same model.
//
// Errors travel both ways: a reader error is rethrown here after the events
// before it were built; a sink error (memory limit, cancel) stops the reader.

#include "format/trace_json_reader.h"

namespace gapscope {

// Like TraceJsonReader(source, sink, report, options).run(), pipelined.
// The reader's report entries (event count, truncation, warnings) are merged
// into `report` after the last event, where the direct path puts them.
ReaderResult readPipelined(ByteSource& source, EventSink& sink, ImportReport& report,
                           ReaderOptions options);

}  // namespace gapscope
