#pragma once
// Decompression on a second core: a thread pulls from the wrapped source
// (a gzip or zstd decoder) into a few 1 MiB blocks while the caller parses
// the previous ones. The bytes, the end of the stream, its problem() and any
// exception arrive exactly as from the wrapped source, so the reader cannot
// tell the difference; only the wall time changes.

#include <condition_variable>
#include <deque>
#include <exception>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "io/byte_source.h"

namespace gapscope {

class ReadAheadSource final : public ByteSource {
  public:
    explicit ReadAheadSource(std::unique_ptr<ByteSource> inner, size_t blockBytes = 1u << 20,
                             size_t blocks = 4);
    ~ReadAheadSource() override;  // stops the thread, even mid-stream (cancel)

    size_t read(char* dst, size_t capacity) override;
    uint64_t filePosition() const override;

  private:
    struct Block {
        std::vector<char> bytes;
        size_t size = 0;
    };
    void produce();

    std::unique_ptr<ByteSource> inner_;
    mutable std::mutex mutex_;
    std::condition_variable cv_;
    std::deque<Block> full_;    // filled, in stream order
    std::vector<Block> free_;   // spent, to refill
    bool ended_ = false;        // the producer saw the end (or an error)
    bool stopping_ = false;     // the consumer is gone
    std::exception_ptr error_;  // thrown by the wrapped source
    std::optional<std::string> endProblem_;
    uint64_t position_ = 0;  // filePosition() of the wrapped source
    Block current_;          // being consumed
    size_t consumed_ = 0;
    bool finished_ = false;  // the consumer reached the end
    std::thread thread_;
};

}  // namespace gapscope
