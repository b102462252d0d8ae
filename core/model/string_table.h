#pragma once
// Interned strings: each distinct string is stored once and named by a dense
// 32-bit id (a kernel name repeats millions of times in a trace). Id 0 is the
// empty string. Views stay valid for the table's lifetime.

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

namespace gapscope {

using StringId = uint32_t;

class StringTable {
  public:
    StringTable();
    StringTable(StringTable&&) noexcept = default;
    StringTable& operator=(StringTable&&) noexcept = default;

    StringId intern(std::string_view s);
    // Returns the id of `s` if it was interned, else nullopt-like UINT32_MAX.
    StringId find(std::string_view s) const;
    std::string_view view(StringId id) const { return strings_[id]; }
    size_t size() const { return strings_.size(); }
    size_t memoryBytes() const;

    static constexpr StringId kNotFound = UINT32_MAX;

  private:
    std::string_view store(std::string_view s);
    void grow();
    size_t slotOf(std::string_view s, uint64_t hash) const;

    std::vector<std::unique_ptr<char[]>> blocks_;
    size_t blockUsed_ = 0;
    size_t blockSize_ = 0;
    std::vector<std::string_view> strings_;
    std::vector<uint32_t> hashes_;  // low 32 bits of each string's hash
    std::vector<uint32_t> slots_;   // open addressing: id + 1, 0 = empty
};

}  // namespace gapscope
