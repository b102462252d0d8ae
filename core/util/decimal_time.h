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

// A number at the front of [p, end), for a reader that has not found its end
// yet: Ok when it is in the common form parseScaledDecimal reads in one pass
// ("-123.456789": no exponent, at most 18 digits with the scale) and is
// followed by a byte that cannot continue a JSON number (`value` is then
// what parseScaledDecimal gives for [p, stop)); NeedMore when its digits
// reach `end`; Other for any other form (the caller finds its end and calls
// parseScaledDecimal).
enum class PrefixStatus { Ok, NeedMore, Other };
PrefixStatus parseSimplePrefix(const char* p, const char* end, int scaleExponent, int64_t& value,
                               const char*& stop);

// Microseconds text -> nanoseconds.
inline DecimalResult parseMicrosToNanos(std::string_view text) {
    return parseScaledDecimal(text, 3);
}

// Plain JSON integer text (no fraction) -> int64; fractions are rounded.
inline DecimalResult parseInteger(std::string_view text) {
    return parseScaledDecimal(text, 0);
}

}  // namespace gapscope
