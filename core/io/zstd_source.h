#pragma once
// Streaming zstd decompression of a file (one or more frames).

#include <memory>
#include <vector>

#include "io/byte_source.h"

namespace gapscope {

class FileSource;

class ZstdSource final : public ByteSource {
  public:
    explicit ZstdSource(std::unique_ptr<FileSource> file);
    ~ZstdSource() override;

    size_t read(char* dst, size_t capacity) override;
    uint64_t filePosition() const override;

  private:
    struct State;
    std::unique_ptr<FileSource> file_;
    std::unique_ptr<State> state_;
    std::vector<char> input_;
    bool finished_ = false;
};

}  // namespace gapscope
