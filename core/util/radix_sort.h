#pragma once
// A stable sort by an unsigned 64-bit key: LSD radix, one pass per byte of
// the key that is not the same in every item. A million keys that differ
// in their low three bytes (correlation ids) take three linear passes,
// where std::sort's comparisons cost several times as much.

#include <array>
#include <cstdint>
#include <vector>

namespace gapscope {

// Sorts `items` by keyOf(item) (a uint64_t), keeping the order of equal keys.
template <class T, class KeyOf>
void radixSort(std::vector<T>& items, KeyOf keyOf) {
    if (items.size() < 2) return;
    uint64_t all = ~uint64_t{0}, any = 0;
    for (const T& item : items) {
        const uint64_t k = keyOf(item);
        all &= k;
        any |= k;
    }
    const uint64_t varying = all ^ any;  // bits that are not the same everywhere
    std::vector<T> scratch(items.size());
    for (int shift = 0; shift < 64; shift += 8) {
        if (((varying >> shift) & 0xFF) == 0) continue;
        std::array<size_t, 257> at{};
        for (const T& item : items)
            ++at[((keyOf(item) >> shift) & 0xFF) + 1];
        for (size_t d = 1; d < at.size(); ++d)
            at[d] += at[d - 1];
        for (const T& item : items)
            scratch[at[(keyOf(item) >> shift) & 0xFF]++] = item;
        items.swap(scratch);
    }
}

}  // namespace gapscope
