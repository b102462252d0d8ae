#include "io/gzip_source.h"

#include <algorithm>
#include <cstdint>
#include <string>

#ifdef GAPSCOPE_HAVE_ISAL
#include <isa-l/igzip_lib.h>
#else
#include <zlib.h>
#endif

namespace gapscope {

// Two inflaters behind one interface: ISA-L's igzip (about 9x zlib's speed
// on trace JSON, which matters when a 1 GB trace is a 80 MB .gz) where the
// build found it, zlib otherwise.
#ifdef GAPSCOPE_HAVE_ISAL

struct GzipSource::State {
    inflate_state is{};
    bool inMember = false;  // inside a gzip member (between header and trailer)

    void startMember() {
        isal_inflate_reset(&is);
        is.crc_flag = ISAL_GZIP;  // parse the header, verify the CRC trailer
    }
};

namespace {
const char* isalError(int rc) {
    switch (rc) {
        case ISAL_INVALID_BLOCK:
            return "invalid deflate block";
        case ISAL_INVALID_SYMBOL:
            return "invalid deflate symbol";
        case ISAL_INVALID_LOOKBACK:
            return "invalid back-reference distance";
        case ISAL_INVALID_WRAPPER:
            return "incorrect gzip header";
        case ISAL_UNSUPPORTED_METHOD:
            return "unknown compression method";
        case ISAL_INCORRECT_CHECKSUM:
            return "incorrect data check";
        default:
            return "inflate failed";
    }
}
}  // namespace

GzipSource::GzipSource(std::unique_ptr<ByteSource> compressed)
    : file_(std::move(compressed)), state_(std::make_unique<State>()), input_(1 << 18) {
    isal_inflate_init(&state_->is);
    state_->is.crc_flag = ISAL_GZIP;
}

GzipSource::~GzipSource() = default;

size_t GzipSource::read(char* dst, size_t capacity) {
    inflate_state& is = state_->is;
    size_t produced = 0;
    while (!finished_ && produced < capacity) {
        if (is.avail_in == 0 && drained_) {
            const size_t n = refillInput(state_->inMember);
            if (n == 0) break;
            is.next_in = reinterpret_cast<uint8_t*>(input_.data());
            is.avail_in = static_cast<uint32_t>(n);
        }
        const size_t room = std::min<size_t>(capacity - produced, UINT32_MAX);
        is.next_out = reinterpret_cast<uint8_t*>(dst + produced);
        is.avail_out = static_cast<uint32_t>(room);
        if (is.avail_in > 0) state_->inMember = true;  // (a drain call adds no input)
        const int rc = isal_inflate(&is);
        produced += room - is.avail_out;
        drained_ = is.avail_out > 0;
        if (rc < 0) {
            const uint64_t at = file_->filePosition() - is.avail_in;
            problem_ = "corrupt gzip data near compressed byte " + std::to_string(at) + " (" +
                       isalError(rc) + ")";
            finished_ = true;
            break;
        }
        if (is.block_state == ISAL_BLOCK_FINISH) {
            // Another member may follow (pigz, concatenated files). A
            // finished member holds no decoded bytes back.
            state_->inMember = false;
            state_->startMember();
            drained_ = true;
        }
    }
    return produced;
}

#else  // zlib

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

size_t GzipSource::read(char* dst, size_t capacity) {
    z_stream& zs = state_->zs;
    size_t produced = 0;
    while (!finished_ && produced < capacity) {
        if (zs.avail_in == 0 && drained_) {
            const size_t n = refillInput(state_->inMember);
            if (n == 0) break;
            zs.next_in = reinterpret_cast<Bytef*>(input_.data());
            zs.avail_in = static_cast<uInt>(n);
        }
        zs.next_out = reinterpret_cast<Bytef*>(dst + produced);
        zs.avail_out = static_cast<uInt>(capacity - produced);
        if (zs.avail_in > 0) state_->inMember = true;  // (a drain call adds no input)
        const int rc = inflate(&zs, Z_NO_FLUSH);
        produced = capacity - zs.avail_out;
        drained_ = zs.avail_out > 0;
        if (rc == Z_STREAM_END) {
            // Another member may follow (pigz, concatenated files).
            state_->inMember = false;
            inflateReset(&zs);
            drained_ = true;  // a finished member holds no decoded bytes back
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

#endif

size_t GzipSource::refillInput(bool inMember) {
    const size_t n = file_->read(input_.data(), input_.size());
    if (n == 0) {
        finished_ = true;
        if (inMember)
            problem_ = "the gzip stream is truncated (the file ends inside compressed data)";
    }
    return n;
}

uint64_t GzipSource::filePosition() const {
    return file_->filePosition();
}

}  // namespace gapscope
