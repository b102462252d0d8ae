#pragma once
// The model's binary form for the index cache: every array written whole in
// its in-memory layout (so reading is one copy), and a validation pass that
// checks every stored index before the model is used, so even a crafted cache
// file cannot make the viewer read out of bounds.

#include "cache/cache_io.h"
#include "model/trace.h"

namespace gapscope {

void writeTraceBody(const Trace& trace, CacheWriter& out);

// Fills `trace` (except path, stamp and a file-backed args store); throws
// CacheCorrupt.
void readTraceBody(CacheReader& in, Trace& trace);

// Throws CacheCorrupt when any stored reference is out of range.
void validateTrace(const Trace& trace);

}  // namespace gapscope
