#pragma once
// A plane read where it lies in a file instead of held whole: its names,
// name and stats (small) read into one buffer, its lines (nearly all of
// its bytes) only located, to be read one at a time.

#include <cstdint>
#include <string>

#include "format/args_decoder.h"
#include "format/xspace/xspace_plane.h"

namespace gapscope::xspace {

// The plane at [begin, end) of the file; `store` holds what `out` views.
// Throws WireError (malformed) and FileReadError (the file unreadable).
void readPlaneInFile(const FileBytesReader& read, uint64_t begin, uint64_t end, std::string& store,
                     PlaneParts& out);

}  // namespace gapscope::xspace
