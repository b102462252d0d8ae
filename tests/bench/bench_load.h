#pragma once
// Loading figures: parse, cache write, reopen, peak RSS, against `cat` and
// `zstd -dc` / `gzip -dc` of the same file in the same run.

#include <cstdint>
#include <string>
#include <vector>

#include "model/trace.h"

namespace gapscope {
class IndexCache;
}

namespace gapscope::bench {

struct LoadFigures {
    double wall = 0;
    double storeWall = 0;  // writing the index cache entry, after the load
    long peakRssKb = 0;
    uint64_t events = 0, slices = 0, jsonBytes = 0, modelBytes = 0;
    uint64_t eventsParsedAhead = 0;  // on other cores (ImportReport::eventsParsedAhead)
    bool ok = false, fromCache = false;
    Trace::MemoryParts parts;  // the model's bytes, by what holds them
};

enum class CacheMode { None, Write, Read };

// Loads in a child process: wall time and the child's own peak RSS. With
// CacheMode::Write the parsed model is then stored in `cache` (timed apart);
// with Read it must come from there.
// `threads`: LoadOptions::threads (0 auto).
LoadFigures loadInChild(const std::string& path, CacheMode mode, const IndexCache& cache,
                        int threads = 0);

// Each file's load, and each compressed file's against its plain twin (the
// same name without .zst or .gz) when that is among `files`.
void printLoadTable(const std::vector<std::string>& files);

}  // namespace gapscope::bench
