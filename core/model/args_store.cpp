#include "model/args_store.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include <algorithm>

namespace gapscope {

ArgsStore::ArgsStore() : mutex_(std::make_unique<std::mutex>()) {}
ArgsStore::~ArgsStore() = default;
ArgsStore::ArgsStore(ArgsStore&&) noexcept = default;
ArgsStore& ArgsStore::operator=(ArgsStore&&) noexcept = default;

void ArgsStore::useFile(UniqueFd fd, uint64_t size, int64_t mtimeNs) {
    fd_ = std::move(fd);
    fileSize_ = size;
    fileMtimeNs_ = mtimeNs;
}

std::string ArgsStore::fetchFromFile(uint64_t offset, uint32_t length) const {
    const int fd = fd_.get();
    struct stat st {};
    std::string out;
    const bool same = ::fstat(fd, &st) == 0 && static_cast<uint64_t>(st.st_size) == fileSize_ &&
                      st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec == fileMtimeNs_;
    if (same && offset + length <= fileSize_) {
        out.resize(length);
        size_t got = 0;
        while (got < length) {
            const ssize_t n =
                ::pread(fd, out.data() + got, length - got, static_cast<off_t>(offset + got));
            if (n <= 0) break;
            got += static_cast<size_t>(n);
        }
        out.resize(got);
    }
    if (!same) fileChanged_ = true;
    return out;
}

uint64_t ArgsStore::append(std::string_view text) {
    const uint64_t offset = rawBytes_;
    // A block holds whole args texts so a fetch never spans blocks.
    if (!current_.empty() && current_.size() + text.size() > kBlockBytes) compressCurrent();
    if (current_.empty()) blockStart_.push_back(offset);
    current_.append(text);
    rawBytes_ += text.size();
    return offset;
}

void ArgsStore::compressCurrent() {
    std::vector<char> frame(ZSTD_compressBound(current_.size()));
    // Level 1: args are written once and rarely read; favour load speed.
    const size_t n = ZSTD_compress(frame.data(), frame.size(), current_.data(), current_.size(), 1);
    frame.resize(ZSTD_isError(n) ? 0 : n);
    frame.shrink_to_fit();
    blocks_.push_back(std::move(frame));
    current_.clear();
}

void ArgsStore::seal() {
    if (!current_.empty()) compressCurrent();
    current_.shrink_to_fit();
}

void ArgsStore::decompressBlock(size_t block) const {
    const auto& frame = blocks_[block];
    const uint64_t end = block + 1 < blockStart_.size() ? blockStart_[block + 1] : rawBytes_;
    cached_.resize(static_cast<size_t>(end - blockStart_[block]));
    const size_t n = ZSTD_decompress(cached_.data(), cached_.size(), frame.data(), frame.size());
    if (ZSTD_isError(n)) cached_.clear();
    cachedBlock_ = block;
}

std::string ArgsStore::fetch(uint64_t offset, uint32_t length) const {
    if (length == 0) return {};
    if (fileBacked()) {
        std::lock_guard lock(*mutex_);
        return fetchFromFile(offset, length);
    }
    if (offset + length > rawBytes_) return {};
    const auto it = std::upper_bound(blockStart_.begin(), blockStart_.end(), offset);
    const auto block = static_cast<size_t>(it - blockStart_.begin()) - 1;
    std::lock_guard lock(*mutex_);
    if (block >= blocks_.size()) {  // not sealed yet: still in current_
        const uint64_t local = offset - blockStart_[block];
        return current_.substr(static_cast<size_t>(local), length);
    }
    if (cachedBlock_ != block) decompressBlock(block);
    const uint64_t local = offset - blockStart_[block];
    if (local + length > cached_.size()) return {};
    return cached_.substr(static_cast<size_t>(local), length);
}

void ArgsStore::restore(Blocks b) {
    blocks_ = std::move(b.frames);
    blockStart_ = std::move(b.starts);
    rawBytes_ = b.rawBytes;
    current_.clear();
    cachedBlock_ = SIZE_MAX;
}

size_t ArgsStore::memoryBytes() const {
    size_t total = current_.capacity() + cached_.capacity() + blockStart_.capacity() * 8;
    for (const auto& b : blocks_)
        total += b.capacity();
    return total;
}

}  // namespace gapscope
