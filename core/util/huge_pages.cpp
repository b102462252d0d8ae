#include "util/huge_pages.h"

#include <sys/mman.h>

#include <cstdint>

#include "util/huge_vector.h"

namespace gapscope {

void adviseHugePages(void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
    constexpr uintptr_t kHuge = uintptr_t{2} << 20;
    const auto begin = reinterpret_cast<uintptr_t>(data);
    const uintptr_t first = (begin + kHuge - 1) & ~(kHuge - 1);
    const uintptr_t last = (begin + bytes) & ~(kHuge - 1);
    // Best effort: where THP is off or "never" this fails harmlessly.
    if (last > first) ::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
#else
    (void)data;
    (void)bytes;
#endif
}

namespace huge_detail {

void* mapAdvised(size_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) throw std::bad_alloc();
    adviseHugePages(p, bytes);
    return p;
}

void unmap(void* p, size_t bytes) noexcept {
    ::munmap(p, bytes);
}

}  // namespace huge_detail

}  // namespace gapscope
