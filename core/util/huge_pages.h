#pragma once
// Big arrays on transparent huge pages. On the virtual machines Gapscope
// targets, first-touch page faults on fresh memory cost more than the work
// that fills it (~4 s of system time per GB with 4 KiB pages, ~0.2 s with
// 2 MiB ones). Where THP is "madvise", an array must ask for it before it is
// touched: reserve, advise, then fill.

#include <cstddef>
#include <vector>

namespace gapscope {

// Advises huge pages for the 2 MiB-aligned part of [data, data + bytes).
void adviseHugePages(void* data, size_t bytes);

// Reserves room for `n` elements and advises huge pages when it is big
// enough to matter; the elements are not touched.
template <class T>
void reserveHuge(std::vector<T>& v, size_t n) {
    if (n <= v.capacity()) return;
    v.reserve(n);
    if (n * sizeof(T) >= (size_t{4} << 20)) adviseHugePages(v.data(), v.capacity() * sizeof(T));
}

}  // namespace gapscope
