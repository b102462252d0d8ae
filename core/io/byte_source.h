#pragma once
// A forward-only stream of bytes: a file, or a decompressor over one. The
// reader pulls from it into its own reused buffer, so no layer ever holds a
// whole multi-GB file.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "io/file_stamp.h"
#include "util/unique_fd.h"

namespace gapscope {

class ByteSource {
  public:
    virtual ~ByteSource() = default;
    ByteSource() = default;
    ByteSource(const ByteSource&) = delete;
    ByteSource& operator=(const ByteSource&) = delete;

    // Reads up to `capacity` bytes into `dst`; returns 0 at the end of the
    // stream (normal or not: see problem()). Throws LoadError on I/O errors.
    virtual size_t read(char* dst, size_t capacity) = 0;

    // Passes over the next `bytes` of the stream; returns how many there
    // were (fewer at its end). Reads and drops them unless a source can seek.
    virtual uint64_t skip(uint64_t bytes);

    // Bytes of the underlying file consumed so far, for progress.
    virtual uint64_t filePosition() const = 0;

    // Why the stream ended early (a truncated or corrupt compressed stream).
    // The data returned before it is good and is kept.
    const std::optional<std::string>& problem() const { return problem_; }

  protected:
    std::optional<std::string> problem_;
};

enum class Compression { None, Gzip, Zstd };

const char* compressionName(Compression c);

struct OpenedSource {
    std::unique_ptr<ByteSource> source;
    Compression compression = Compression::None;
    uint64_t fileSize = 0;
    int64_t fileMtimeNs = 0;
    FileStamp stamp;  // invalid for bytes in memory
    UniqueFd fileFd;  // a plain file on disk: a second descriptor of it (to read args later)
};

// Opens `path` and picks the decompressor from the magic bytes (never from the
// extension). Throws LoadError for files that cannot be read or are archives.
OpenedSource openTraceSource(const std::string& path);

// The same for bytes in memory (fuzzing, tests); `chunk` caps each read.
OpenedSource openMemorySource(std::string bytes, size_t chunk = SIZE_MAX);

}  // namespace gapscope
