#pragma once
// A stable sort by an unsigned 64-bit key: LSD radix, one pass per 12-bit
// digit of the key that is not the same in every item. A million keys that
// differ in their low three bytes (correlation ids) take two linear passes,
// times that span a minute in nanoseconds (36 bits) three, where
// std::sort's comparisons cost several times as much. (Digits of 12 bits
// rather than 8: fewer passes over the items, each scattering them to
// 4096 places; measured on the critical path's rows, the sort's share of
// its part halved.)

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gapscope {

// Sorts `items` by keyOf(item) (a uint64_t), keeping the order of equal keys.
template <class T, class KeyOf>
void radixSort(std::vector<T>& items, KeyOf keyOf) {
    if (items.size() < 2) return;
    constexpr int kDigitBits = 12;
    constexpr uint64_t kDigitMask = (uint64_t{1} << kDigitBits) - 1;
    uint64_t all = ~uint64_t{0}, any = 0;
    for (const T& item : items) {
        const uint64_t k = keyOf(item);
        all &= k;
        any |= k;
    }
    const uint64_t varying = all ^ any;  // bits that are not the same everywhere
    std::vector<T> scratch(items.size());
    std::vector<size_t> at(size_t{1} << kDigitBits);
    for (int shift = 0; shift < 64; shift += kDigitBits) {
        if (((varying >> shift) & kDigitMask) == 0) continue;
        std::fill(at.begin(), at.end(), size_t{0});
        for (const T& item : items)
            ++at[(keyOf(item) >> shift) & kDigitMask];
        size_t sum = 0;
        for (size_t& count : at)
            sum += std::exchange(count, sum);
        for (const T& item : items)
            scratch[at[(keyOf(item) >> shift) & kDigitMask]++] = item;
        items.swap(scratch);
    }
}

}  // namespace gapscope
