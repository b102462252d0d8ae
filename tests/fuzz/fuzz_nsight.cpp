// libFuzzer target for the Nsight Systems reader: SQLite opened on the
// input's bytes (read-only, immutable, limited), the schema read from the
// file, every table's rows to events, then the builder and the queries.
// Straight to the reader, not through the sniffer. An export of several
// ranks' processes (its context table) is read as its second rank's part,
// as the loader reads it. Seeds: small exports of two releases' schemas,
// broken ones among them (make_seeds.py --nsight).

#include <cstdint>
#include <memory>
#include <string>

#include "analysis/gpu_busy.h"
#include "exercise.h"
#include "format/nsight/nsight_processes.h"
#include "format/nsight/nsight_reader.h"
#include "format/nsight/sqlite_db.h"
#include "model/trace_builder.h"
#include "util/load_error.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gapscope;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    auto trace = std::make_shared<Trace>();
    TraceBuilder builder(*trace);
    builder.setMemoryLimit(512u << 20);  // inside libFuzzer's -rss_limit_mb
    try {
        const sqlite::Database db = sqlite::Database::openBytes(bytes, nullptr);
        ReaderOptions options;
        const std::vector<NsightProcess> processes = nsightCudaProcesses(db);
        if (processes.size() >= 2) options.processes.pids = {processes[1].pid};
        readNsightExport(db, builder, trace->report, options);
        builder.finish(nullptr);
        computeGpuBusy(*trace);
        fuzz::exercise(*trace);
    } catch (const LoadError&) {
    }
    return 0;
}
