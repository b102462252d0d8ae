// libFuzzer target for the whole loading path: sniffing, gzip and zstd
// decoding, the tokenizer at every split point, the builder, the index and
// the queries a person triggers. Built by the `fuzz` preset (clang).
//
// The first input byte chooses how the rest is fed: plain, gzip- or
// zstd-compressed (so the JSON behind a decoder is fuzzed too), or as a
// file (so the decoders see hostile compressed data, and plain JSON goes
// through the chunks parsed ahead on a second core, format/chunked_events.h),
// and the reader's chunk size. A file with bit 7 set is compressed first
// (zstd or gzip), so that the chunks take their text from the
// decompressing thread.

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <string>

#include "exercise.h"
#include "io/compress.h"
#include "loader/loader.h"

namespace {

// The input as a file in memory, loaded the way a file on disk is (auto
// threads), with chunks of 16 bytes and up so that their starts land
// everywhere.
gapscope::LoadResult loadAsFile(const std::string& bytes, gapscope::LoadOptions options,
                                size_t chunkBytes) {
    const int fd = ::memfd_create("fuzz-input", MFD_CLOEXEC);
    if (fd < 0) std::abort();
    for (size_t done = 0; done < bytes.size();) {
        const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
        if (n <= 0) std::abort();
        done += static_cast<size_t>(n);
    }
    options.mode = gapscope::ReadingMode::Auto;
    options.chunkBytes = chunkBytes;
    gapscope::LoadResult r = gapscope::loadTrace("/proc/self/fd/" + std::to_string(fd), options);
    ::close(fd);
    return r;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) return 0;
    const uint8_t mode = data[0];
    std::string bytes(reinterpret_cast<const char*>(data + 1), size - 1);
    if ((mode & 3) == 1) bytes = gapscope::gzipCompress(bytes, 1);
    if ((mode & 3) == 2) bytes = gapscope::zstdCompress(bytes, 1);
    gapscope::LoadOptions options;
    options.memoryLimitBytes = 512u << 20;  // stay inside libFuzzer's -rss_limit_mb
    options.maxEventBytes = 8u << 20;
    // Both loading paths: bit 7 of the mode byte picks the two-thread pipeline.
    options.mode =
        (mode & 0x80) ? gapscope::ReadingMode::Pipelined : gapscope::ReadingMode::OneThread;
    const size_t chunk = ((mode & 0x7f) >> 2) == 0 ? SIZE_MAX : ((mode & 0x7f) >> 2);
    if ((mode & 3) == 3 && (mode & 0x80))
        bytes = (chunk & 1) ? gapscope::gzipCompress(bytes, 1) : gapscope::zstdCompress(bytes, 1);
    const gapscope::LoadResult r =
        (mode & 3) == 3
            ? loadAsFile(bytes, options, 16 + chunk % 64 * 29)
            : gapscope::loadTraceFromBytes(std::move(bytes), "fuzz-input", options, chunk);
    if (r.trace) gapscope::fuzz::exercise(*r.trace);
    return 0;
}
