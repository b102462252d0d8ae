#pragma once
// Streaming zstd decompression of a file (one or more frames).

#include <memory>
#include <vector>

#include "io/byte_source.h"

namespace gapscope {

class ZstdSource final : public ByteSource {
  public:
    explicit ZstdSource(std::unique_ptr<ByteSource> compressed);
    ~ZstdSource() override;

    size_t read(char* dst, size_t capacity) override;
    uint64_t filePosition() const override;

  private:
    struct State;
    std::unique_ptr<ByteSource> file_;  // the compressed input
    std::unique_ptr<State> state_;
    std::vector<char> input_;
    bool finished_ = false;
};

}  // namespace gapscope
