// libFuzzer target for the Nsight Systems reader: SQLite opened on the
// input's bytes (read-only, immutable, limited), the schema read from the
// file, every table's rows to events, then the builder and the queries.
// Straight to the reader, not through the sniffer. An export of several
// ranks' processes (its context table) is read as its second rank's part,
// as the loader reads it. An input whose last byte is odd is also a file
// (in memory) opened where it lies, as an export on disk is: its events
// keep their rows, and the args the queries fetch are composed from the
// file then (format/nsight/nsight_args_decoder.h). Seeds: small exports of
// two releases' schemas, broken ones among them (make_seeds.py --nsight).

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>

#include "analysis/gpu_busy.h"
#include "exercise.h"
#include "format/args_decoder.h"
#include "format/nsight/nsight_processes.h"
#include "format/nsight/nsight_reader.h"
#include "format/nsight/sqlite_db.h"
#include "model/trace_builder.h"
#include "util/load_error.h"
#include "util/unique_fd.h"

namespace {

// The bytes as a file in memory.
gapscope::UniqueFd memoryFile(const uint8_t* data, size_t size) {
    gapscope::UniqueFd fd(::memfd_create("fuzz-nsight", MFD_CLOEXEC));
    if (!fd.valid()) std::abort();
    for (size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd.get(), data + done, size - done);
        if (n <= 0) std::abort();
        done += static_cast<size_t>(n);
    }
    return fd;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gapscope;
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    const bool onDisk = size > 0 && (data[size - 1] & 1);
    auto trace = std::make_shared<Trace>();
    TraceBuilder builder(*trace);
    builder.setMemoryLimit(512u << 20);  // inside libFuzzer's -rss_limit_mb
    try {
        ReaderOptions options;
        std::optional<sqlite::Database> opened;
        if (onDisk) {
            UniqueFd file = memoryFile(data, size);
            struct stat st {};
            if (::fstat(file.get(), &st) != 0) std::abort();
            opened.emplace(sqlite::Database::openDescriptor(file.get(), nullptr));
            trace->argsStore.useFile(std::move(file), size,
                                     st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec,
                                     makeArgsDecoder(InputFormat::NsightSqlite));
            options.argsStayInFile = true;
        } else {
            opened.emplace(sqlite::Database::openBytes(bytes, nullptr));
        }
        const sqlite::Database& db = *opened;
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
