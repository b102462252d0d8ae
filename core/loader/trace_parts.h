#pragma once
// Files that hold several ranks: an Nsight Systems report of a job run
// under one nsys (`nsys profile mpirun -np 4 ...`) holds every rank's
// process. Such a file opens as ranks, one process each, each read alone
// (LoadOptions::part) with an index cache entry of its own.

#include <string>
#include <vector>

#include "loader/loader.h"

namespace gapscope {

// One part per process that ran CUDA work, by pid (rank i is the i-th);
// the first part also keeps the processes that are no rank's (a launcher),
// so that every event is in some rank. Empty for a file of one such
// process, any other input, and a file that cannot be read (its load says
// why). Reads only the export's small tables.
std::vector<TracePart> tracePartsOf(const std::string& path);

}  // namespace gapscope
