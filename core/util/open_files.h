#pragma once
// Room for open files. A job of many ranks keeps each rank's file open
// (its args are read back from it), and a desktop's soft limit on open
// files is often 1024 while its hard limit is far higher: the soft limit
// is raised for a job, never past the hard one and never lowered.

#include <cstddef>
#include <string>

namespace gapscope {

// Raises this process's soft limit on open files to the hard limit where
// the soft one is below `wanted` (to `wanted` where the hard limit is
// unlimited). Thread-safe.
void makeRoomForOpenFiles(size_t wanted);

// What to add to an open that failed with `error` (EMFILE: this process's
// limit and how to raise it; ENFILE: the system's); "" for other errors.
std::string openFilesHint(int error);

}  // namespace gapscope
