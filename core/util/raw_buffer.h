#pragma once
// A growable byte buffer that never zero-fills: the reader overwrites what it
// reads, and zeroing 4 MiB for a 2 kB file (or every fuzz input) is waste.

#include <cstddef>
#include <cstring>
#include <memory>

namespace gapscope {

class RawBuffer {
  public:
    explicit RawBuffer(size_t size = 0) : data_(size ? new char[size] : nullptr), size_(size) {}
    char* data() { return data_.get(); }
    const char* data() const { return data_.get(); }
    size_t size() const { return size_; }
    char& operator[](size_t i) { return data_[i]; }
    char operator[](size_t i) const { return data_[i]; }
    // Grows to `size`, keeping the first `keep` bytes.
    void grow(size_t size, size_t keep) {
        std::unique_ptr<char[]> bigger(new char[size]);
        if (keep) std::memcpy(bigger.get(), data_.get(), keep);
        data_ = std::move(bigger);
        size_ = size;
    }

  private:
    std::unique_ptr<char[]> data_;
    size_t size_;
};

}  // namespace gapscope
