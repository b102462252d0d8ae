#pragma once
// XSpace against JSON on the same events: an XSpace of N events written by
// the project's own writer (tests/support/xspace_writer.h) and the trace
// viewer's JSON of the same events, each loaded in a child process: seconds
// per million events, peak RSS against the file size.

#include <cstdint>

namespace gapscope::bench {

void printXSpaceTable(uint64_t events);

}  // namespace gapscope::bench
