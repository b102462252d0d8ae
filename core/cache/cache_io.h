#pragma once
// Binary streams for the index cache: a writer and a reader over a file
// descriptor that hash every byte they pass (so a reader can tell a corrupt
// file from a good one) and move big arrays with one read(2)/write(2) each,
// straight into their destination. The reader never trusts a length: every
// count is checked against the bytes left in the file before allocating.

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "util/raw_buffer.h"

namespace gapscope {

// The cache file cannot be used (short, corrupt, inconsistent); never shown
// as an error to the user: the trace is parsed again.
class CacheCorrupt : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

class CacheWriter {
  public:
    explicit CacheWriter(int fd);
    void bytes(const void* data, size_t size);
    template <class T>
    void pod(const T& value) {
        static_assert(std::is_trivially_copyable_v<T>);
        bytes(&value, sizeof value);
    }
    template <class T, class A>
    void podVector(const std::vector<T, A>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        pod<uint64_t>(v.size());
        bytes(v.data(), v.size() * sizeof(T));
    }
    void string(std::string_view s);
    void flush();  // throws std::runtime_error with errno text
    uint64_t hash() const { return hash_; }
    uint64_t written() const { return written_; }

  private:
    void writeAll(const char* data, size_t size);
    int fd_;
    RawBuffer buffer_;
    size_t used_ = 0;
    uint64_t hash_ = 0;
    uint64_t written_ = 0;
};

class CacheReader {
  public:
    // Reads from the descriptor's current position; `available` is the
    // number of bytes the file holds from there.
    CacheReader(int fd, uint64_t available);
    void bytes(void* data, size_t size);
    template <class T>
    T pod() {
        static_assert(std::is_trivially_copyable_v<T>);
        T value;
        bytes(&value, sizeof value);
        return value;
    }
    template <class T, class A>
    void podVector(std::vector<T, A>& v) {
        static_assert(std::is_trivially_copyable_v<T>);
        const uint64_t n = count(sizeof(T));
        v.clear();
        v.resize(static_cast<size_t>(n));
        bytes(v.data(), v.size() * sizeof(T));
    }
    // A count of items of `itemBytes` each, checked against what is left.
    uint64_t count(size_t itemBytes);
    std::string string();
    uint64_t hash() const { return hash_; }
    uint64_t left() const { return available_; }

  private:
    size_t fill();
    int fd_;
    uint64_t available_;
    RawBuffer buffer_;
    size_t pos_ = 0, end_ = 0;
    uint64_t hash_ = 0;
};

}  // namespace gapscope
