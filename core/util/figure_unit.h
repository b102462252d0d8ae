#pragma once
// What kind of quantity a figure is, decided where it is computed so that
// no view guesses it from a name: every rendering (text, CSV, JSON, the
// panels) formats and types a figure by its unit alone.

#include <cstdint>

namespace gapscope {

enum class Unit : uint8_t {
    Text,
    Count,     // an integer count or identifier (device, step number)
    Duration,  // ns (integer, or fractional for a mean)
    Time,      // an absolute point in time, integer ns as the trace wrote it
    Bytes,
    Share,   // a fraction in [0, 1], shown as a percentage
    Number,  // any other quantity (GB/s, r²), with `decimals`
    Flag,    // yes / no / unknown: JSON true / false / null
};

// Whether a JSON or CSV value of this unit is an integer when it is whole
// (ns, bytes, counts, points in time).
constexpr bool isIntegerUnit(Unit unit) {
    return unit == Unit::Count || unit == Unit::Duration || unit == Unit::Time ||
           unit == Unit::Bytes;
}

}  // namespace gapscope
