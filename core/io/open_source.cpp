#include <algorithm>
#include <array>
#include <cstring>

#include "io/byte_source.h"
#include "io/file_source.h"
#include "io/gzip_source.h"
#include "io/memory_source.h"
#include "io/zstd_source.h"
#include "util/load_error.h"

namespace gapscope {

uint64_t ByteSource::skip(uint64_t bytes) {
    std::array<char, 64 * 1024> scratch;
    uint64_t done = 0;
    while (done < bytes) {
        const size_t n = read(
            scratch.data(), static_cast<size_t>(std::min<uint64_t>(scratch.size(), bytes - done)));
        if (n == 0) break;
        done += n;
    }
    return done;
}

const char* compressionName(Compression c) {
    switch (c) {
        case Compression::Gzip:
            return "gzip";
        case Compression::Zstd:
            return "zstd";
        case Compression::None:
            break;
    }
    return "none";
}

OpenedSource sniffSource(std::unique_ptr<ByteSource> raw, std::string_view head, uint64_t size) {
    OpenedSource opened;
    opened.fileSize = size;
    const auto* magic = reinterpret_cast<const unsigned char*>(head.data());
    const size_t got = head.size();
    if (got == 0) throw LoadError("byte 0", "the file is empty");
    if (got >= 2 && magic[0] == 0x1f && magic[1] == 0x8b) {
        opened.compression = Compression::Gzip;
        opened.source = std::make_unique<GzipSource>(std::move(raw));
    } else if (got >= 4 && magic[0] == 0x28 && magic[1] == 0xb5 && magic[2] == 0x2f &&
               magic[3] == 0xfd) {
        opened.compression = Compression::Zstd;
        opened.source = std::make_unique<ZstdSource>(std::move(raw));
    } else if (got >= 4 && std::memcmp(magic, "PK\x03\x04", 4) == 0) {
        throw LoadError("byte 0",
                        "this is a ZIP archive, not a trace: extract the trace file first");
    } else {
        opened.source = std::move(raw);
    }
    return opened;
}

OpenedSource openTraceSource(const std::string& path) {
    auto file = std::make_unique<FileSource>(path);
    std::array<char, 4> magic{};
    const size_t got = file->peek(0, magic.data(), magic.size());
    const uint64_t size = file->size();
    const int64_t mtime = file->mtimeNs();
    const FileStamp stamp = file->stamp();
    const bool plain = !(got >= 2 && magic[0] == '\x1f') && !(got >= 1 && magic[0] == '\x28');
    UniqueFd dup(plain ? file->duplicateFd() : -1);
    OpenedSource opened = sniffSource(std::move(file), std::string_view(magic.data(), got), size);
    opened.fileMtimeNs = mtime;
    opened.stamp = stamp;
    if (opened.compression == Compression::None) opened.fileFd = std::move(dup);
    return opened;
}

OpenedSource openMemorySource(std::string bytes, size_t chunk) {
    const std::string head = bytes.substr(0, 4);
    const uint64_t size = bytes.size();
    return sniffSource(std::make_unique<MemorySource>(std::move(bytes), chunk), head, size);
}

}  // namespace gapscope
