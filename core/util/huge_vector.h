#pragma once
// std::vector on transparent huge pages, for the model's big arrays.
//
// On the virtual machines Gapscope targets a 4 KiB first-touch page fault
// costs more than the work that fills the page (~4 s of system time per GB);
// with 2 MiB pages it is ~0.2 s. THP is usually "madvise" only, and a
// std::vector growing by doubling copies half of its data into memory that
// was never advised. This allocator maps every block of 1 MiB or more
// itself and advises huge pages before anything touches it; smaller blocks
// come from operator new as usual.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <type_traits>
#include <vector>

#if defined(__has_feature)  // clang spells "AddressSanitizer is on" this way
#if __has_feature(address_sanitizer)
#define GAPSCOPE_ASAN 1
#endif
#endif

namespace gapscope {

namespace huge_detail {
void* mapAdvised(size_t bytes);  // throws std::bad_alloc
void unmap(void* p, size_t bytes) noexcept;
#if defined(__SANITIZE_ADDRESS__) || defined(GAPSCOPE_ASAN)
// Under AddressSanitizer every array comes from operator new, so overruns of
// the model's arrays are caught (mapped blocks would hide them).
inline constexpr size_t kMinMappedBytes = SIZE_MAX;
#else
inline constexpr size_t kMinMappedBytes = size_t{1} << 20;
#endif
}  // namespace huge_detail

template <class T>
struct HugePageAllocator {
    using value_type = T;
    HugePageAllocator() noexcept = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(size_t n) {
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        const size_t bytes = n * sizeof(T);
        if (bytes < huge_detail::kMinMappedBytes) return static_cast<T*>(::operator new(bytes));
        return static_cast<T*>(huge_detail::mapAdvised(bytes));
    }
    void deallocate(T* p, size_t n) noexcept {
        const size_t bytes = n * sizeof(T);
        if (bytes < huge_detail::kMinMappedBytes) {
            ::operator delete(p);
        } else {
            huge_detail::unmap(p, bytes);
        }
    }
    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept {
        return true;
    }
};

template <class T>
using HugeVector = std::vector<T, HugePageAllocator<T>>;

// A fixed array of T whose all-zero bytes are its empty value, on huge
// pages, written by nothing before its first use: a fresh mapping is zero
// already, so a table of a hundred MB is not written twice (cleared, then
// filled) as a vector's would be.
template <class T>
class ZeroedHugeArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>);

  public:
    explicit ZeroedHugeArray(size_t n) : n_(n) {
        if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
        if (bytes() >= huge_detail::kMinMappedBytes) {
            data_ = static_cast<T*>(huge_detail::mapAdvised(bytes()));
        } else {
            data_ = static_cast<T*>(::operator new(bytes()));
            std::memset(static_cast<void*>(data_), 0, bytes());
        }
    }
    ~ZeroedHugeArray() {
        if (bytes() >= huge_detail::kMinMappedBytes) {
            huge_detail::unmap(data_, bytes());
        } else {
            ::operator delete(data_);
        }
    }
    ZeroedHugeArray(const ZeroedHugeArray&) = delete;
    ZeroedHugeArray& operator=(const ZeroedHugeArray&) = delete;

    T& operator[](size_t i) { return data_[i]; }
    const T& operator[](size_t i) const { return data_[i]; }
    size_t size() const { return n_; }

  private:
    size_t bytes() const { return n_ * sizeof(T); }
    size_t n_;
    T* data_;
};

}  // namespace gapscope
