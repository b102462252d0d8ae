#pragma once
// Exact conversion of Trace Event Format times (decimal microseconds) to
// int64 nanoseconds. Epoch-based values such as 1712195495519689.047 have more
// significant digits than a double holds, so the decimal text is converted
// digit by digit, never through floating point.

#include <cstdint>
#include <string_view>

namespace gapscope {

enum class DecimalStatus { Ok, Invalid, Overflow };

struct DecimalResult {
    DecimalStatus status = DecimalStatus::Invalid;
    int64_t value = 0;
};

// Parses a JSON-style number (optional '-', digits, optional fraction and
// exponent) that counts `unit` of 10^unitExponent and returns it scaled by
// 10^scaleExponent, rounded half away from zero. Leading '+' and surrounding
// whitespace are rejected, as in JSON. Examples with scaleExponent = 3:
// "1.5" -> 1500, "40.959000000000003" -> 40959, "1e3" -> 1000000.
DecimalResult parseScaledDecimal(std::string_view text, int scaleExponent);

// Microseconds text -> nanoseconds.
inline DecimalResult parseMicrosToNanos(std::string_view text) {
    return parseScaledDecimal(text, 3);
}

// Plain JSON integer text (no fraction) -> int64; fractions are rounded.
inline DecimalResult parseInteger(std::string_view text) {
    return parseScaledDecimal(text, 0);
}

}  // namespace gapscope
