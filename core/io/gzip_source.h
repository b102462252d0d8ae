#pragma once
// Streaming gzip (and zlib) decompression of a file, including files made of
// several concatenated gzip members.

#include <memory>
#include <vector>

#include "io/byte_source.h"

namespace gapscope {

class FileSource;

class GzipSource final : public ByteSource {
  public:
    explicit GzipSource(std::unique_ptr<FileSource> file);
    ~GzipSource() override;

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
