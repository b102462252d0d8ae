#pragma once
// Reads the SQLite export of an Nsight Systems report (`nsys export --type
// sqlite`) into an EventSink: each GPU a process ("GPU N", its streams as
// threads) holding its kernels, copies and memsets; each profiled process
// with its threads holding CUDA runtime and driver calls, NVTX ranges and
// OS runtime calls; a launch flow from each call to the GPU work it
// started (by correlation id); NVTX ranges also projected onto the GPU
// work launched inside them, as Nsight's nvtx_gpu_proj_trace does.
//
// The schema is read from the file (it changes between releases): a table
// that is absent has no rows, an optional column that is absent is left
// out, and a required column that is absent is a LoadError naming the
// table and the column. What each row means is in docs/analyses.md.

#include <cstdint>
#include <string>
#include <string_view>

#include "format/import_report.h"
#include "format/nsight/sqlite_db.h"
#include "format/raw_event.h"
#include "format/reader_options.h"

namespace gapscope {

struct NsightResult {
    uint64_t rows = 0;    // rows read into events
    std::string release;  // "2024.5.1.113" when META_DATA_EXPORT says
    std::string schema;   // "3.13.2"
};

// The categories the reader gives its events (model/vocabulary/nsight.cpp
// says what each is).
namespace nsight {
inline constexpr std::string_view kKernel = "CUDA kernel";
inline constexpr std::string_view kMemcpy = "CUDA memcpy";
inline constexpr std::string_view kMemset = "CUDA memset";
inline constexpr std::string_view kRuntime = "CUDA runtime";
inline constexpr std::string_view kDriver = "CUDA driver";
inline constexpr std::string_view kNvtx = "NVTX";
inline constexpr std::string_view kNvtxGpu = "NVTX (GPU projection)";
inline constexpr std::string_view kOsRuntime = "OS runtime";
inline constexpr std::string_view kLaunchFlow = "CUDA launch";
// The trace's metadata key for the export's facts (JSON: its version, …).
inline constexpr std::string_view kMetadataKey = "nsightSystems";
}  // namespace nsight

NsightResult readNsightExport(const sqlite::Database& db, EventSink& sink, ImportReport& report,
                              const ReaderOptions& options);

}  // namespace gapscope
