#pragma once
// Raw JSON text of event args, kept compressed in blocks: held whole they
// would cost more memory than the rest of the model. Parsed (nlohmann/json)
// only when a person looks at one event. Appends are single-threaded (the
// builder); fetches are thread-safe.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

class ArgsStore {
  public:
    ArgsStore();
    ~ArgsStore();
    ArgsStore(ArgsStore&&) noexcept;
    ArgsStore& operator=(ArgsStore&&) noexcept;

    // Returns the offset of the appended text.
    uint64_t append(std::string_view text);
    // Compresses the last partial block; call once when building is done.
    void seal();
    std::string fetch(uint64_t offset, uint32_t length) const;

    uint64_t rawBytes() const { return rawBytes_; }
    size_t memoryBytes() const;

  private:
    void compressCurrent();
    void decompressBlock(size_t block) const;

    static constexpr size_t kBlockBytes = 256 * 1024;

    std::vector<std::vector<char>> blocks_;  // zstd frames
    std::vector<uint64_t> blockStart_;       // raw offset of each block
    std::string current_;                    // raw text of the block being filled
    uint64_t rawBytes_ = 0;

    // One-block cache of the last decompressed block (fetch is for humans).
    mutable std::unique_ptr<std::mutex> mutex_;
    mutable size_t cachedBlock_ = SIZE_MAX;
    mutable std::string cached_;
};

}  // namespace gapscope
