// libFuzzer target for the XSpace reader (*.xplane.pb): the wire decoder,
// plane buffering, metadata tables, stats to args, then the builder and the
// queries. Straight to the reader, not through the sniffer, so that inputs
// whose first bytes no longer look like a plane still reach it. Seeds: the
// real XSpace files and the writer's fixtures (make_seeds.py --xspace).
// The first byte picks the source's chunk size (1..254 bytes, 0: whole), or
// (255) a file in memory read where it lies: planes located and their lines
// read one at a time, args left in the file and decoded when fetched
// (format/xspace/xspace_args.h), as for a plain file on disk.

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "analysis/gpu_busy.h"
#include "exercise.h"
#include "format/args_decoder.h"
#include "format/xspace/xspace_reader.h"
#include "io/byte_source.h"
#include "model/trace_builder.h"
#include "util/load_error.h"
#include "util/unique_fd.h"

namespace {

// The bytes as a file in memory; its path.
std::string memoryFile(const uint8_t* data, size_t size) {
    const int fd = ::memfd_create("fuzz-xspace", MFD_CLOEXEC);
    if (fd < 0) std::abort();
    for (size_t done = 0; done < size;) {
        const ssize_t n = ::write(fd, data + done, size - done);
        if (n <= 0) std::abort();
        done += static_cast<size_t>(n);
    }
    return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace gapscope;
    if (size == 0) return 0;
    if (data[0] == 255) {
        const std::string path = memoryFile(data + 1, size - 1);
        auto trace = std::make_shared<Trace>();
        TraceBuilder builder(*trace);
        builder.setMemoryLimit(512u << 20);
        try {
            OpenedSource opened = openTraceSource(path);
            ReaderOptions ro;
            ro.fileSize = opened.fileSize;
            ro.decompressed = opened.compression != Compression::None;
            const UniqueFd readFd(::fcntl(opened.fileFd.get(), F_DUPFD_CLOEXEC, 0));
            ro.fileFd = readFd.get();
            ro.argsStayInFile = opened.fileFd.valid();
            if (ro.argsStayInFile)
                trace->argsStore.useFile(std::move(opened.fileFd), opened.fileSize,
                                         opened.fileMtimeNs, makeArgsDecoder(InputFormat::XSpace));
            XSpaceReader(*opened.source, builder, trace->report, ro).run();
            builder.finish(nullptr);
            computeGpuBusy(*trace);
            fuzz::exercise(*trace);
        } catch (const LoadError&) {
        }
        ::close(std::stoi(path.substr(path.rfind('/') + 1)));
        return 0;
    }
    const size_t chunk = data[0] == 0 ? SIZE_MAX : data[0];
    auto trace = std::make_shared<Trace>();
    TraceBuilder builder(*trace);
    builder.setMemoryLimit(512u << 20);  // inside libFuzzer's -rss_limit_mb
    try {
        // Compressed inputs are inflated; archives (ZIP, tar) are refused
        // here with a LoadError, as loadTrace refuses them.
        OpenedSource opened =
            openMemorySource(std::string(reinterpret_cast<const char*>(data + 1), size - 1), chunk);
        XSpaceReader(*opened.source, builder, trace->report, ReaderOptions{}).run();
        builder.finish(nullptr);
        computeGpuBusy(*trace);
        fuzz::exercise(*trace);
    } catch (const LoadError&) {
    }
    return 0;
}
