#pragma once
// The processes of an Nsight Systems export that ran CUDA work, as its
// small TARGET_INFO_CUDA_CONTEXT_INFO table lists them (one row per CUDA
// context): several of them in one report are the ranks of a job run under
// one nsys (`nsys profile mpirun -np 4 ...`), which the loader opens as
// ranks, one process each.

#include <cstdint>
#include <string>
#include <vector>

#include "format/nsight/sqlite_db.h"

namespace gapscope {

struct NsightProcess {
    int64_t pid = 0;
    std::string name;              // PROCESSES' name; "" when it has none
    std::vector<int64_t> devices;  // the GPUs it had a context on, ascending
};

// By pid. Empty when the export cannot tell its processes' GPU work apart
// (no context table, or GPU tables without a globalPid column) or holds
// more than 256 of them: it is then read as one trace. Throws LoadError as
// Database does.
std::vector<NsightProcess> nsightCudaProcesses(const sqlite::Database& db);

}  // namespace gapscope
