#pragma once
// Raw JSON text of event args, parsed (nlohmann/json) only when a person
// looks at one event. Held whole they would cost more memory than the rest of
// the model, so: for an uncompressed file they stay in the file and are read
// back by offset; otherwise they are kept compressed in blocks. Appends are
// single-threaded (the builder); fetches are thread-safe.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "util/unique_fd.h"

namespace gapscope {

class ArgsStore {
  public:
    ArgsStore();
    ~ArgsStore();
    ArgsStore(ArgsStore&&) noexcept;
    ArgsStore& operator=(ArgsStore&&) noexcept;

    // Args live in this (uncompressed) file at the offsets the reader saw.
    // The descriptor is kept open, so deleting or replacing the file does not
    // matter; rewriting it in place does (size and mtime are checked).
    void useFile(UniqueFd fd, uint64_t size, int64_t mtimeNs);
    bool fileBacked() const { return fd_.valid(); }
    // True once a fetch found the file changed since loading.
    bool fileChanged() const { return fileChanged_; }

    // Returns the offset of the appended text (not file-backed only).
    uint64_t append(std::string_view text);
    // Compresses the last partial block; call once when building is done.
    void seal();
    std::string fetch(uint64_t offset, uint32_t length) const;

    uint64_t rawBytes() const { return rawBytes_; }

    // The sealed compressed blocks, for the index cache (not file-backed).
    struct Blocks {
        std::vector<std::vector<char>> frames;  // zstd frames
        std::vector<uint64_t> starts;           // raw offset of each block
        uint64_t rawBytes = 0;
    };
    const std::vector<std::vector<char>>& frames() const { return blocks_; }
    const std::vector<uint64_t>& blockStarts() const { return blockStart_; }
    void restore(Blocks b);
    size_t memoryBytes() const;

  private:
    void compressCurrent();
    void decompressBlock(size_t block) const;

    static constexpr size_t kBlockBytes = 256 * 1024;

    std::vector<std::vector<char>> blocks_;  // zstd frames
    std::vector<uint64_t> blockStart_;       // raw offset of each block
    std::string current_;                    // raw text of the block being filled
    uint64_t rawBytes_ = 0;

    std::string fetchFromFile(uint64_t offset, uint32_t length) const;

    UniqueFd fd_;
    uint64_t fileSize_ = 0;
    int64_t fileMtimeNs_ = 0;
    mutable bool fileChanged_ = false;

    // One-block cache of the last decompressed block (fetch is for humans).
    mutable std::unique_ptr<std::mutex> mutex_;
    mutable size_t cachedBlock_ = SIZE_MAX;
    mutable std::string cached_;
};

}  // namespace gapscope
