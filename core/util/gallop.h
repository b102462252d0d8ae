#pragma once
// lower_bound for a sorted range whose answer is usually near its start:
// steps of 1, 2, 4, ... from the front, then a binary search inside the last
// step. O(log d) for an answer d elements in, touching only memory near the
// front, where std::lower_bound over a long range pays a cache miss on most
// of its log n probes. Drawing a frame asks this once per block of slices
// and once per pixel column of a counter, each a little past the previous.

#include <algorithm>
#include <iterator>

namespace gapscope {

// The first element e of [first, last) with !less(e, value), as
// std::lower_bound(first, last, value, less) returns it.
template <class It, class T, class Less>
It gallopLowerBound(It first, It last, const T& value, Less less) {
    using Diff = typename std::iterator_traits<It>::difference_type;
    const Diff n = last - first;
    if (n == 0 || !less(*first, value)) return first;
    Diff lo = 0, step = 1;  // invariant: less(first[lo], value)
    while (step < n - lo && less(first[lo + step], value)) {
        lo += step;
        step *= 2;
    }
    const Diff hi = step < n - lo ? lo + step : n;  // the answer is in (lo, hi]
    return std::lower_bound(first + lo + 1, first + hi, value, less);
}

template <class It, class T>
It gallopLowerBound(It first, It last, const T& value) {
    return gallopLowerBound(first, last, value, [](const auto& a, const T& b) { return a < b; });
}

}  // namespace gapscope
