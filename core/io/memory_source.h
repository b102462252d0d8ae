#pragma once
// Bytes held in memory as a source: for fuzzing, tests and embedded data.
// `chunk` caps each read, to exercise every split point of the reader.

#include <algorithm>
#include <cstring>
#include <string>

#include "io/byte_source.h"

namespace gapscope {

class MemorySource final : public ByteSource {
  public:
    explicit MemorySource(std::string data, size_t chunk = SIZE_MAX)
        : data_(std::move(data)), chunk_(chunk == 0 ? 1 : chunk) {}

    size_t read(char* dst, size_t capacity) override {
        const size_t n = std::min({capacity, chunk_, data_.size() - pos_});
        std::memcpy(dst, data_.data() + pos_, n);
        pos_ += n;
        return n;
    }
    uint64_t filePosition() const override { return pos_; }
    const std::string& data() const { return data_; }

  private:
    std::string data_;
    size_t chunk_;
    size_t pos_ = 0;
};

}  // namespace gapscope
