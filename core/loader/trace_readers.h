#pragma once
// The loader's "reader for this input" step: one entry per input format,
// chosen from what the bytes are (format/input_format.h). Each reader
// streams its input into the TraceBuilder and fills the trace's report; a
// new format (XSpace, ...) is one more entry here and one reader in format/.

#include <memory>

#include "format/input_format.h"
#include "format/trace_json_reader.h"
#include "io/byte_source.h"
#include "loader/loader.h"
#include "model/trace.h"
#include "model/trace_builder.h"

namespace gapscope {

struct ReadRequest {
    std::unique_ptr<ByteSource> source;  // positioned at the first byte
    Compression compression = Compression::None;
    TraceBuilder& builder;
    Trace& trace;
    ReaderOptions reader;  // cancel, progress, limits, buffer size
    ReadingMode mode = ReadingMode::Auto;
    int plainFileFd = -1;   // an uncompressed file: a descriptor to read chunks of it with
    size_t chunkBytes = 0;  // LoadOptions::chunkBytes
    uint64_t memoryLimit = UINT64_MAX;  // what a reader may hold besides the model
};

using TraceReaderFn = void (*)(ReadRequest& request);

// The reader for `format`; Unknown goes to the JSON reader, whose messages
// say what was found instead.
TraceReaderFn readerFor(InputFormat format);

}  // namespace gapscope
