#pragma once
// Streaming gzip (and zlib) decompression of a file, including files made of
// several concatenated gzip members.

#include <memory>
#include <vector>

#include "io/byte_source.h"

namespace gapscope {

class GzipSource final : public ByteSource {
  public:
    explicit GzipSource(std::unique_ptr<ByteSource> compressed);
    ~GzipSource() override;

    size_t read(char* dst, size_t capacity) override;
    uint64_t filePosition() const override;

  private:
    // More compressed input into input_; 0 at the end of the file, which
    // inside a member means the stream is truncated (noted in problem()).
    size_t refillInput(bool inMember);

    struct State;
    std::unique_ptr<ByteSource> file_;  // the compressed input
    std::unique_ptr<State> state_;
    std::vector<char> input_;
    bool finished_ = false;
    // The decoder has handed out all it can from its input so far. Until
    // then it may hold decoded bytes of its own (a small caller buffer
    // filled up), and must be drained before more input is read, or before
    // the end of input is taken as the end of the stream.
    bool drained_ = true;
};

}  // namespace gapscope
