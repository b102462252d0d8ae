#include "io/zstd_source.h"

#include <zstd.h>

#include <string>

namespace gapscope {

struct ZstdSource::State {
    ZSTD_DStream* stream = nullptr;
    ZSTD_inBuffer in{nullptr, 0, 0};
    size_t lastHint = 0;  // 0 once a frame is complete
};

ZstdSource::ZstdSource(std::unique_ptr<ByteSource> compressed)
    : file_(std::move(compressed)),
      state_(std::make_unique<State>()),
      input_(ZSTD_DStreamInSize()) {
    state_->stream = ZSTD_createDStream();
    if (!state_->stream) {
        problem_ = "zstd could not be initialised";
        finished_ = true;
        return;
    }
    ZSTD_initDStream(state_->stream);
    // Bound the window (and so the memory) a hostile frame header may ask for.
    ZSTD_DCtx_setParameter(state_->stream, ZSTD_d_windowLogMax, 31);
}

ZstdSource::~ZstdSource() {
    ZSTD_freeDStream(state_->stream);
}

uint64_t ZstdSource::filePosition() const {
    return file_->filePosition();
}

size_t ZstdSource::read(char* dst, size_t capacity) {
    // At most one zstd block (128 KiB) of output per call: when a call meets
    // corrupt data, what it decoded in that call is lost, so a bigger window
    // would drop good data before the damage depending on the caller's
    // buffer size.
    size_t produced = 0;
    while (!finished_ && produced < capacity) {
        ZSTD_outBuffer out{dst + produced,
                           std::min<size_t>(capacity - produced, ZSTD_BLOCKSIZE_MAX), 0};
        if (state_->in.pos == state_->in.size) {
            const size_t n = file_->read(input_.data(), input_.size());
            if (n == 0) {
                finished_ = true;
                if (state_->lastHint != 0) {
                    problem_ = "the zstd stream is truncated (the file ends inside a frame)";
                }
                break;
            }
            state_->in = ZSTD_inBuffer{input_.data(), n, 0};
        }
        const size_t rc = ZSTD_decompressStream(state_->stream, &out, &state_->in);
        if (ZSTD_isError(rc)) {
            const uint64_t at = file_->filePosition() - (state_->in.size - state_->in.pos);
            problem_ = "corrupt zstd data near compressed byte " + std::to_string(at) + " (" +
                       ZSTD_getErrorName(rc) + ")";
            finished_ = true;
            break;
        }
        state_->lastHint = rc;
        produced += out.pos;
    }
    return produced;
}

}  // namespace gapscope
