#include "model/string_table.h"

#include <cstring>

namespace gapscope {
namespace {

constexpr size_t kBlockBytes = 1 << 20;

uint64_t hashBytes(std::string_view s) {
    // FNV-1a over 8-byte words, then a final mix: fast for short names,
    // adequate spread for an open-addressing table.
    uint64_t h = 0xcbf29ce484222325ull ^ s.size();
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
        uint64_t w;
        std::memcpy(&w, s.data() + i, 8);
        h = (h ^ w) * 0x100000001b3ull;
        h ^= h >> 29;
    }
    for (; i < s.size(); ++i)
        h = (h ^ static_cast<unsigned char>(s[i])) * 0x100000001b3ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return h;
}

}  // namespace

StringTable::StringTable() {
    slots_.assign(1024, 0);
    intern({});
}

size_t StringTable::slotOf(std::string_view s, uint64_t hash) const {
    const size_t mask = slots_.size() - 1;
    size_t i = static_cast<size_t>(hash) & mask;
    const auto h32 = static_cast<uint32_t>(hash);
    while (slots_[i] != 0) {
        const uint32_t id = slots_[i] - 1;
        if (hashes_[id] == h32 && strings_[id] == s) return i;
        i = (i + 1) & mask;
    }
    return i;
}

StringId StringTable::find(std::string_view s) const {
    const size_t slot = slotOf(s, hashBytes(s));
    return slots_[slot] ? slots_[slot] - 1 : kNotFound;
}

StringId StringTable::intern(std::string_view s) {
    const uint64_t hash = hashBytes(s);
    size_t slot = slotOf(s, hash);
    if (slots_[slot] != 0) return slots_[slot] - 1;
    const auto id = static_cast<StringId>(strings_.size());
    strings_.push_back(store(s));
    hashes_.push_back(static_cast<uint32_t>(hash));
    slots_[slot] = id + 1;
    if (strings_.size() * 2 > slots_.size()) grow();
    return id;
}

std::string_view StringTable::store(std::string_view s) {
    if (s.empty()) return {};
    if (blocks_.empty() || blockUsed_ + s.size() > blockSize_) {
        blockSize_ = s.size() > kBlockBytes ? s.size() : kBlockBytes;
        blocks_.push_back(std::make_unique<char[]>(blockSize_));
        blockUsed_ = 0;
    }
    char* dst = blocks_.back().get() + blockUsed_;
    std::memcpy(dst, s.data(), s.size());
    blockUsed_ += s.size();
    return {dst, s.size()};
}

void StringTable::grow() {
    std::vector<uint32_t> old(slots_.size() * 2, 0);
    slots_.swap(old);
    const size_t mask = slots_.size() - 1;
    for (StringId id = 0; id < strings_.size(); ++id) {
        size_t i = hashes_[id] & mask;  // low hash bits suffice: mask < 2^32
        while (slots_[i] != 0)
            i = (i + 1) & mask;
        slots_[i] = id + 1;
    }
}

size_t StringTable::memoryBytes() const {
    return blocks_.size() * kBlockBytes + strings_.capacity() * sizeof(std::string_view) +
           hashes_.capacity() * 4 + slots_.capacity() * 4;
}

}  // namespace gapscope
