#pragma once
// The model's binary form for the index cache: every array written whole in
// its in-memory layout (so reading is one copy), and a validation pass that
// checks every stored index before the model is used, so even a crafted cache
// file cannot make the viewer read out of bounds.

#include "cache/cache_io.h"
#include "model/trace.h"

namespace gapscope {

// `attachment`: what the writer keeps beside the model (a job's ranks'
// figures, loader/job_cache.h), read back whole.
void writeTraceBody(const Trace& trace, CacheWriter& out, std::string_view attachment = {});

// What an entry holds beside the model.
struct StoredExtras {
    // A rank whose args part reads its file, and that file as it was loaded.
    struct PartFile {
        uint32_t rank = 0;
        uint64_t size = 0;
        int64_t mtimeNs = 0;
    };
    std::vector<PartFile> partsInFile;
    std::string attachment;
};

// Fills `trace` (except path, stamp and the args stores that read files);
// throws CacheCorrupt.
void readTraceBody(CacheReader& in, Trace& trace, StoredExtras& extras);

// Throws CacheCorrupt when any stored reference is out of range.
void validateTrace(const Trace& trace);

}  // namespace gapscope
