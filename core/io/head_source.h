#pragma once
// Reads the first bytes of a stream ahead so the loader can tell what the
// data is (JSON, XSpace, ...) before choosing a reader, then hands out the
// same bytes again followed by the rest of the stream, unchanged. The
// wrapped source's problem() is passed on when the stream ends.
//
// The head is read into a large buffer (kHeadBytes), not just the few bytes
// the sniffer needs: a decompressor asked for a handful of bytes decodes
// into buffers of its own, and a corrupt stream would then lose what it had
// decoded before the damage; asked for a large block it writes straight
// into it, as it does for the reader.

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <string_view>

#include "io/byte_source.h"

namespace gapscope {

class HeadSource final : public ByteSource {
  public:
    static constexpr size_t kHeadBytes = 256 * 1024;

    // Reads until at least `wanted` bytes (or the end) are in the head.
    HeadSource(std::unique_ptr<ByteSource> inner, size_t wanted) : inner_(std::move(inner)) {
        head_.resize(std::max(wanted, kHeadBytes));
        size_t got = 0;
        while (got < wanted) {
            const size_t n = inner_->read(head_.data() + got, head_.size() - got);
            if (n == 0) break;
            got += n;
        }
        head_.resize(got);
    }

    // The first bytes read (at least `wanted` unless the stream is shorter).
    std::string_view head() const { return head_; }

    size_t read(char* dst, size_t capacity) override {
        if (pos_ < head_.size()) {
            const size_t n = std::min(capacity, head_.size() - pos_);
            std::memcpy(dst, head_.data() + pos_, n);
            pos_ += n;
            return n;
        }
        const size_t n = inner_->read(dst, capacity);
        if (n == 0 && inner_->problem()) problem_ = inner_->problem();
        return n;
    }
    uint64_t skip(uint64_t bytes) override {
        const uint64_t inHead = std::min<uint64_t>(bytes, head_.size() - pos_);
        pos_ += static_cast<size_t>(inHead);
        return inHead + (bytes > inHead ? inner_->skip(bytes - inHead) : 0);
    }
    uint64_t filePosition() const override { return inner_->filePosition(); }

  private:
    std::unique_ptr<ByteSource> inner_;
    std::string head_;
    size_t pos_ = 0;
};

}  // namespace gapscope
