#pragma once
// Room for open files. A job of many ranks keeps each rank's file open
// (its args are read back from it), and a desktop's soft limit on open
// files is often 1024 while its hard limit is far higher: the soft limit
// is raised as far as a job needs, never past the hard one.

#include <cstddef>
#include <string>

namespace gapscope {

// Raises this process's soft limit on open files to `wanted` where it is
// lower and the hard limit allows; returns the soft limit after (SIZE_MAX
// where there is none).
size_t makeRoomForOpenFiles(size_t wanted);

// What to add to "Too many open files": the limit and how to raise it.
std::string openFilesHint();

}  // namespace gapscope
