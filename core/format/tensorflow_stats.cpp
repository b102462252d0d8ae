#include "format/tensorflow_stats.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace gapscope::tensorflow {

namespace {

// "key:value key:value ..." -> the value of `key`, or empty.
std::string_view field(std::string_view details, std::string_view key) {
    size_t at = 0;
    while (at < details.size()) {
        const size_t end = std::min(details.find(' ', at), details.size());
        const std::string_view token = details.substr(at, end - at);
        if (token.size() > key.size() && token.substr(0, key.size()) == key &&
            token[key.size()] == ':')
            return token.substr(key.size() + 1);
        at = end + 1;
    }
    return {};
}

// The whole text as a number (no trailing garbage, no NaN or infinity).
template <typename T>
bool number(std::string_view text, T& out) {
    T v{};
    const auto r = std::from_chars(text.data(), text.data() + text.size(), v);
    if (r.ec != std::errc() || text.empty() || r.ptr != text.data() + text.size()) return false;
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(v)) return false;
    }
    out = v;
    return true;
}

// "160,1,1" -> {160, 1, 1}
void dims(std::string_view text, int32_t (&out)[3]) {
    for (int k = 0; k < 3 && !text.empty(); ++k) {
        const size_t comma = std::min(text.find(','), text.size());
        number(text.substr(0, comma), out[k]);
        text.remove_prefix(std::min(text.size(), comma + 1));
    }
}

}  // namespace

bool readDetailsStat(std::string_view name, std::string_view text, ExtractedArgs& known) {
    if (name == "kernel_details") {
        number(field(text, "regs"), known.registersPerThread);
        // Bytes per block: CUPTI writes them as 32-bit unsigned numbers.
        uint32_t shared = 0, dynamicShared = 0;
        if (number(field(text, "shm"), shared) || number(field(text, "static_shared"), shared)) {
            number(field(text, "dynamic_shared"), dynamicShared);
            known.sharedMemory = int64_t{shared} + int64_t{dynamicShared};
        }
        dims(field(text, "grid"), known.grid);
        dims(field(text, "block"), known.block);
        float occupancy = -1;
        if (number(field(text, "occ_pct"), occupancy)) known.occupancyPercent = occupancy;
        return true;
    }
    if (name == "memcpy_details" || name == "Memset_details" || name == "memset_details" ||
        name == "memalloc_details") {
        int64_t bytes = -1;
        if (number(field(text, "size"), bytes) || number(field(text, "num_bytes"), bytes))
            known.bytes = bytes;
        return true;
    }
    return false;
}

int64_t stepNumberOf(std::string_view text, bool isNumber) {
    if (const size_t dot = text.find('.'); isNumber && dot != std::string_view::npos) {
        if (text.find_first_not_of('0', dot + 1) != std::string_view::npos) return -1;
        text = text.substr(0, dot);
    }
    if (text.empty() || text.size() > 10) return -1;
    int64_t v = 0;
    for (const char c : text) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return v <= INT32_MAX ? v : -1;
}

}  // namespace gapscope::tensorflow
