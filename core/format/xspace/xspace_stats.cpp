#include "format/xspace/xspace_stats.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "format/json_text.h"

namespace gapscope::xspace {

bool StatValue::integral(int64_t& out) const {
    switch (kind) {
        case Kind::Int64:
            out = i;
            return true;
        case Kind::Uint64:
            if (u > static_cast<uint64_t>(std::numeric_limits<int64_t>::max())) return false;
            out = static_cast<int64_t>(u);
            return true;
        case Kind::Double:
            if (!std::isfinite(d) || std::floor(d) != d || std::fabs(d) > 9.0e18) return false;
            out = static_cast<int64_t>(d);
            return true;
        case Kind::Text: {
            const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
            return r.ec == std::errc() && r.ptr == text.data() + text.size();
        }
        default:
            return false;
    }
}

void appendStat(std::string& json, bool first, std::string_view name, const StatValue& v) {
    if (!first) json += ',';
    appendJsonString(json, name);
    json += ':';
    char buf[40];
    switch (v.kind) {
        case StatValue::Kind::None:
            json += "null";
            break;
        case StatValue::Kind::Double:
            if (std::isfinite(v.d)) {  // to_chars: the shortest exact form, in no locale
                const auto end = std::to_chars(buf, buf + sizeof buf, v.d).ptr;
                json.append(buf, static_cast<size_t>(end - buf));
            } else {
                appendJsonString(json, std::isnan(v.d) ? "nan" : v.d > 0 ? "inf" : "-inf");
            }
            break;
        case StatValue::Kind::Uint64:
            json.append(buf,
                        static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, v.u).ptr - buf));
            break;
        case StatValue::Kind::Int64:
            json.append(buf,
                        static_cast<size_t>(std::to_chars(buf, buf + sizeof buf, v.i).ptr - buf));
            break;
        case StatValue::Kind::Text:
            appendJsonString(json, v.text);
            break;
        case StatValue::Kind::Bytes:
            std::snprintf(buf, sizeof buf, "\"<%zu bytes>\"", v.text.size());
            json += buf;
            break;
    }
}

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

bool extractKnownStat(std::string_view name, const StatValue& v, ExtractedArgs& known) {
    int64_t n = 0;
    if (name == "correlation_id") {
        if (!v.integral(n)) return false;
        known.correlation = n;
        return true;
    }
    if (v.kind != StatValue::Kind::Text) return false;
    if (name == "kernel_details") {
        number(field(v.text, "regs"), known.registersPerThread);
        // Bytes per block: CUPTI writes them as 32-bit unsigned numbers.
        uint32_t shared = 0, dynamicShared = 0;
        if (number(field(v.text, "shm"), shared) ||
            number(field(v.text, "static_shared"), shared)) {
            number(field(v.text, "dynamic_shared"), dynamicShared);
            known.sharedMemory = int64_t{shared} + int64_t{dynamicShared};
        }
        dims(field(v.text, "grid"), known.grid);
        dims(field(v.text, "block"), known.block);
        float occupancy = -1;
        if (number(field(v.text, "occ_pct"), occupancy)) known.occupancyPercent = occupancy;
        return true;
    }
    if (name == "memcpy_details" || name == "Memset_details" || name == "memset_details" ||
        name == "memalloc_details") {
        int64_t bytes = -1;
        if (number(field(v.text, "size"), bytes) || number(field(v.text, "num_bytes"), bytes))
            known.bytes = bytes;
        return true;
    }
    return false;
}

}  // namespace gapscope::xspace
