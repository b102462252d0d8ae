#pragma once
// Helpers for tests: write JSON text (optionally compressed) to a temporary
// file, load it, and read a trace through a byte source that hands out a few
// bytes at a time (to exercise every split point of the tokenizer).

#include <QTemporaryDir>
#include <memory>
#include <string>

#include "io/byte_source.h"
#include "loader/loader.h"

namespace gapscope::test {

std::string gzipBytes(const std::string& raw);
std::string zstdBytes(const std::string& raw);
bool writeFile(const std::string& path, const std::string& bytes);

// Loads `json` written to a temporary file; fails the test on I/O errors.
LoadResult loadJsonText(const std::string& json, Compression compression = Compression::None);

// Reads `json` with a reader buffer that starts at `chunk` bytes (and a source
// returning at most `chunk` bytes per read): split points all over the input.
// `pipelined`: through readPipelined (reader thread -> builder) instead.
std::shared_ptr<const Trace> loadInChunks(const std::string& json, size_t chunk,
                                          bool pipelined = false);

// A bare-array trace of `count` complete events on one thread, event i at
// ts = i; with `distinctNames` each is named "n<i>", else all "n".
std::string manyEvents(int count, bool distinctNames = false);

// A canonical text dump of the whole model, for byte-identical comparisons:
// each slice with its args' text, not where they are kept (a plain file
// and a compressed copy of it give the same dump).
std::string canonicalDump(const Trace& trace);

// The file at `path` loaded twice through a fresh index cache: the dump of
// the second load, which the cache served ("" when it did not).
std::string dumpOfCacheHit(const std::string& path);

}  // namespace gapscope::test
