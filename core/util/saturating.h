#pragma once
// Integer sums that stop at the ends of int64 instead of wrapping: a
// hostile file's times and sizes, a what-if's scaled weights.

#include <cstdint>

namespace gapscope {

inline int64_t saturatingAdd(int64_t a, int64_t b) {
    int64_t r = 0;
    if (__builtin_add_overflow(a, b, &r)) return b > 0 ? INT64_MAX : INT64_MIN;
    return r;
}

inline int64_t saturatingSub(int64_t a, int64_t b) {
    int64_t r = 0;
    if (__builtin_sub_overflow(a, b, &r)) return b < 0 ? INT64_MAX : INT64_MIN;
    return r;
}

}  // namespace gapscope
