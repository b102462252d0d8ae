#include "util/decimal_time.h"

#include <limits>

namespace gapscope {
namespace {

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

// Appends one decimal digit to `acc`, reporting overflow of uint64 magnitude.
bool appendDigit(uint64_t& acc, int digit) {
    constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
    if (acc > (kMax - static_cast<uint64_t>(digit)) / 10) return false;
    acc = acc * 10 + static_cast<uint64_t>(digit);
    return true;
}

// The common case, "123456.789" with a few digits and no exponent, in one
// pass from p: false for everything else (the general path decides those).
// p is left where the digits end.
bool readSimple(const char*& p, const char* const end, int scaleExponent, int64_t& value) {
    const bool negative = p < end && *p == '-';
    p += negative ? 1 : 0;
    const char* const intBegin = p;
    uint64_t magnitude = 0;
    while (p < end && isDigit(*p))
        magnitude = magnitude * 10 + static_cast<uint64_t>(*p++ - '0');
    const auto intLen = p - intBegin;
    // 18 digits plus the scale fit in uint64 without overflow checks.
    if (intLen == 0 || intLen + scaleExponent > 18 || scaleExponent < 0) return false;
    int fracTaken = 0, roundDigit = 0;
    if (p < end && *p == '.') {
        ++p;
        const char* const fracBegin = p;
        while (p < end && isDigit(*p)) {
            if (fracTaken < scaleExponent) {
                magnitude = magnitude * 10 + static_cast<uint64_t>(*p - '0');
                ++fracTaken;
            } else if (p - fracBegin == scaleExponent) {
                roundDigit = *p - '0';
            }
            ++p;
        }
        if (p == fracBegin) return false;
    }
    for (int k = fracTaken; k < scaleExponent; ++k)
        magnitude *= 10;
    if (roundDigit >= 5) ++magnitude;
    value = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    return true;
}

bool parseSimple(std::string_view text, int scaleExponent, DecimalResult& result) {
    const char* p = text.data();
    const char* const end = p + text.size();
    int64_t value = 0;
    if (!readSimple(p, end, scaleExponent, value) || p != end)
        return false;  // an exponent, or not a number
    result.status = DecimalStatus::Ok;
    result.value = value;
    return true;
}

bool continuesNumber(char c) {
    return isDigit(c) || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

PrefixStatus parseSimplePrefix(const char* p, const char* end, int scaleExponent, int64_t& value,
                               const char*& stop) {
    if (!readSimple(p, end, scaleExponent, value)) return PrefixStatus::Other;
    if (p == end) return PrefixStatus::NeedMore;
    if (continuesNumber(*p)) return PrefixStatus::Other;  // "1e3", "1.2.3"
    stop = p;
    return PrefixStatus::Ok;
}

DecimalResult parseScaledDecimal(std::string_view text, int scaleExponent) {
    DecimalResult result;
    if (parseSimple(text, scaleExponent, result)) return result;
    size_t i = 0;
    const size_t n = text.size();
    bool negative = false;
    if (i < n && text[i] == '-') {
        negative = true;
        ++i;
    }
    // Significant digits: integer part then fraction part, as one digit string.
    const size_t intBegin = i;
    while (i < n && isDigit(text[i]))
        ++i;
    const size_t intEnd = i;
    size_t fracBegin = i, fracEnd = i;
    if (i < n && text[i] == '.') {
        ++i;
        fracBegin = i;
        while (i < n && isDigit(text[i]))
            ++i;
        fracEnd = i;
        if (fracEnd == fracBegin) return result;  // "1." is not JSON
    }
    if (intEnd == intBegin) return result;  // ".5" and "-" are not JSON
    int64_t exponent = 0;
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool expNegative = false;
        if (i < n && (text[i] == '+' || text[i] == '-')) {
            expNegative = text[i] == '-';
            ++i;
        }
        const size_t expBegin = i;
        while (i < n && isDigit(text[i])) {
            // Clamp: anything past +-100000 is far outside int64 range anyway.
            if (exponent < 100000) exponent = exponent * 10 + (text[i] - '0');
            ++i;
        }
        if (i == expBegin) return result;
        if (expNegative) exponent = -exponent;
    }
    if (i != n) return result;

    // value = digits * 10^(scale), where digits = int part ++ fraction part.
    const int64_t fracLen = static_cast<int64_t>(fracEnd - fracBegin);
    const int64_t scale = exponent - fracLen + scaleExponent;
    const int64_t totalDigits = static_cast<int64_t>((intEnd - intBegin) + (fracEnd - fracBegin));
    // Digits kept before the decimal point of the scaled value.
    const int64_t keep = scale >= 0 ? totalDigits : totalDigits + scale;

    uint64_t magnitude = 0;
    int64_t index = 0;
    int roundDigit = 0;
    auto digitAt = [&](int64_t k) -> int {
        const int64_t intLen = static_cast<int64_t>(intEnd - intBegin);
        return k < intLen ? text[intBegin + static_cast<size_t>(k)] - '0'
                          : text[fracBegin + static_cast<size_t>(k - intLen)] - '0';
    };
    for (; index < totalDigits; ++index) {
        if (keep < 0) break;  // the first dropped digit is an implicit leading zero
        if (index >= keep) {
            roundDigit = digitAt(index);
            break;
        }
        if (!appendDigit(magnitude, digitAt(index))) {
            result.status = DecimalStatus::Overflow;
            return result;
        }
    }
    if (scale > 0) {
        for (int64_t k = 0; k < scale; ++k) {
            if (magnitude == 0) break;  // 0 * 10^k stays 0, whatever k is
            if (!appendDigit(magnitude, 0)) {
                result.status = DecimalStatus::Overflow;
                return result;
            }
        }
    }
    if (roundDigit >= 5) ++magnitude;
    constexpr uint64_t kMaxPositive = static_cast<uint64_t>(std::numeric_limits<int64_t>::max());
    if (magnitude > kMaxPositive + (negative ? 1u : 0u)) {
        result.status = DecimalStatus::Overflow;
        return result;
    }
    result.status = DecimalStatus::Ok;
    result.value = negative ? static_cast<int64_t>(0 - magnitude) : static_cast<int64_t>(magnitude);
    return result;
}

}  // namespace gapscope
