#include "io/gzip_source.h"

#include <zlib.h>

#include <string>

namespace gapscope {

struct GzipSource::State {
    z_stream zs{};
    bool inMember = false;  // inside a gzip member (between header and trailer)
};

GzipSource::GzipSource(std::unique_ptr<ByteSource> compressed)
    : file_(std::move(compressed)), state_(std::make_unique<State>()), input_(1 << 18) {
    // 15 + 32: any window size, detect the gzip or zlib header automatically.
    if (inflateInit2(&state_->zs, 15 + 32) != Z_OK) {
        problem_ = "zlib could not be initialised";
        finished_ = true;
    }
}

GzipSource::~GzipSource() {
    inflateEnd(&state_->zs);
}

uint64_t GzipSource::filePosition() const {
    return file_->filePosition();
}

size_t GzipSource::read(char* dst, size_t capacity) {
    z_stream& zs = state_->zs;
    size_t produced = 0;
    while (!finished_ && produced < capacity) {
        if (zs.avail_in == 0) {
            const size_t n = file_->read(input_.data(), input_.size());
            if (n == 0) {
                finished_ = true;
                if (state_->inMember) {
                    problem_ =
                        "the gzip stream is truncated (the file ends inside compressed data)";
                }
                break;
            }
            zs.next_in = reinterpret_cast<Bytef*>(input_.data());
            zs.avail_in = static_cast<uInt>(n);
        }
        zs.next_out = reinterpret_cast<Bytef*>(dst + produced);
        zs.avail_out = static_cast<uInt>(capacity - produced);
        state_->inMember = true;
        const int rc = inflate(&zs, Z_NO_FLUSH);
        produced = capacity - zs.avail_out;
        if (rc == Z_STREAM_END) {
            // Another member may follow (pigz, concatenated files).
            state_->inMember = false;
            inflateReset(&zs);
            continue;
        }
        if (rc != Z_OK && rc != Z_BUF_ERROR) {
            const uint64_t at = file_->filePosition() - zs.avail_in;
            problem_ = "corrupt gzip data near compressed byte " + std::to_string(at) + " (" +
                       (zs.msg ? zs.msg : "inflate failed") + ")";
            finished_ = true;
            break;
        }
    }
    return produced;
}

}  // namespace gapscope
