#pragma once
// Decompression on a second core: a thread pulls from the wrapped source
// (a gzip or zstd decoder) into a few 1 MiB blocks while the caller parses
// the previous ones. The bytes, the end of the stream, its problem() and any
// exception arrive exactly as from the wrapped source, so the reader cannot
// tell the difference; only the wall time changes. A tap, if given, sees
// every block before the reader can (see io/stream_tap.h).

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
#include "io/stream_tap.h"

namespace gapscope {

class ReadAheadSource final : public ByteSource {
  public:
    static constexpr size_t kBlockBytes = 1u << 20;
    static constexpr size_t kBlocks = 4;
    // Bytes produced ahead of what the reader has taken, at least, whenever
    // the producer waits for the reader (all blocks but the reader's), with
    // the default blocks.
    static constexpr size_t kAheadBytes = (kBlocks - 1) * kBlockBytes;

    // `tap` must outlive this source.
    explicit ReadAheadSource(std::unique_ptr<ByteSource> inner, size_t blockBytes = kBlockBytes,
                             size_t blocks = kBlocks, StreamTap* tap = nullptr);
    ~ReadAheadSource() override;  // stops the thread, even mid-stream (cancel)

    size_t read(char* dst, size_t capacity) override;
    uint64_t skip(uint64_t bytes) override;
    uint64_t filePosition() const override;

  private:
    struct Block {
        std::vector<char> bytes;
        size_t size = 0;
    };
    void produce();
    // The next block to consume is current_; false at the end of the stream.
    bool nextBlock();

    std::unique_ptr<ByteSource> inner_;
    StreamTap* tap_ = nullptr;
    uint64_t produced_ = 0;  // stream bytes produced (the producer's)
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
