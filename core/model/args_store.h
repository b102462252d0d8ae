#pragma once
// Raw JSON text of event args, parsed (nlohmann/json) only when a person
// looks at one event. Held whole they would cost more memory than the rest of
// the model, so they live in one of two places, told apart by the offset:
//  - in the trace file itself (an uncompressed trace): read back by offset
//    through a descriptor kept open, as the file's JSON text, or in the
//    file's binary form, which the reader's ArgsDecoder turns into text
//    then (an XSpace event's stats), or as a reference the decoder
//    resolves in the file (an Nsight export's row: rowid and table);
//  - in the store's own zstd-compressed blocks (compressed traces, and args
//    a reader composed itself rather than found as JSON text in the file,
//    e.g. the stats of a binary format): offsets with kOwnedBit set.
// Appends are single-threaded (the builder; full blocks are compressed on
// a thread of the store's own meanwhile); fetches are thread-safe once
// sealed (before, not beside appends) and say why when the text cannot be
// had.
//
// The ranks of a job merged into one trace (model/merge_traces.h) keep each
// rank's store whole as a part: its offsets carry the part's number in
// bits 48..62 (offsets of a file or of owned blocks stay below 2^48).

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "format/args_decoder.h"
#include "util/raw_buffer.h"
#include "util/unique_fd.h"

namespace gapscope {

// The args text of one event, or why it could not be read.
struct ArgsText {
    std::string json;   // "" with an error, or when the event has no args
    std::string error;  // e.g. "the trace file changed since it was loaded"
    bool ok() const { return error.empty(); }
};

class ArgsStore {
  public:
    static constexpr uint64_t kOwnedBit = uint64_t{1} << 63;

    ArgsStore();
    ~ArgsStore();
    ArgsStore(ArgsStore&&) noexcept;
    ArgsStore& operator=(ArgsStore&&) noexcept;

    // Args of the file live at the offsets the reader saw in this
    // (uncompressed) file. The descriptor is kept open, so deleting or
    // replacing the file does not matter; rewriting it in place does (size
    // and mtime are checked on every fetch). With a `decoder`, the bytes at
    // an offset are the file's own form of the args, decoded on fetch.
    void useFile(UniqueFd fd, uint64_t size, int64_t mtimeNs,
                 std::shared_ptr<const ArgsDecoder> decoder = nullptr);
    bool fileBacked() const;  // its own file, or a part's
    // The size and mtime of its own file as loaded (0 without one).
    uint64_t fileSize() const { return fileSize_; }
    int64_t fileMtimeNs() const { return fileMtimeNs_; }
    // True once a fetch found the file changed since loading.
    bool fileChanged() const;

    // Keeps `text` in the store's own blocks; returns its offset (kOwnedBit set).
    uint64_t append(std::string_view text);
    // Compresses the last partial block; call once when building is done.
    void seal();
    ArgsText fetch(uint64_t offset, uint32_t length) const;

    uint64_t rawBytes() const { return rawBytes_; }  // of the owned blocks

    // Takes `part` whole; returns what to OR into its offsets.
    uint64_t adoptPart(ArgsStore part);
    static constexpr int kPartShift = 48;
    static constexpr uint64_t kPartMask = uint64_t{0x7FFF} << kPartShift;
    static constexpr size_t kMaxParts = 0x7FFF;
    size_t partCount() const { return parts_.size(); }
    const ArgsStore& part(size_t i) const { return *parts_[i]; }
    ArgsStore& part(size_t i) { return *parts_[i]; }

    // The sealed compressed blocks, for the index cache.
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
    ArgsText fetchFromFile(uint64_t offset, uint32_t length) const;
    // Up to `length` bytes at `offset` (fewer only at the end of the file).
    bool readFile(uint64_t offset, uint64_t length, std::string& out, std::string& error) const;
    bool fileUnchanged(std::string& error) const;  // size and mtime as loaded
    ArgsText fetchOwned(uint64_t offset, uint32_t length) const;

    static constexpr size_t kBlockBytes = 256 * 1024;

    std::vector<std::vector<char>> blocks_;  // zstd frames
    std::vector<uint64_t> blockStart_;       // raw offset of each block
    std::string current_;                    // raw text of the block being filled
    uint64_t rawBytes_ = 0;
    // While appending: the thread that compresses the full blocks, with
    // its context and output buffer (making them anew for each block costs
    // more than compressing a block of args); dropped by seal(). The block
    // it compresses is the one after blocks_.
    class Compressor;
    std::unique_ptr<Compressor> compressor_;
    void takeFrame();  // the frame of the block being compressed, into blocks_

    std::vector<std::unique_ptr<ArgsStore>> parts_;

    UniqueFd fd_;
    std::shared_ptr<const ArgsDecoder> decoder_;
    uint64_t fileSize_ = 0;
    int64_t fileMtimeNs_ = 0;
    mutable std::atomic<bool> fileChanged_{false};

    // One-block cache of the last decompressed block (fetch is for humans).
    mutable std::unique_ptr<std::mutex> mutex_;
    mutable size_t cachedBlock_ = SIZE_MAX;
    mutable std::string cached_;
};

}  // namespace gapscope
