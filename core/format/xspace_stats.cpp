#include "format/xspace_stats.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

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

namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one.
size_t utf8Length(std::string_view s, size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    size_t n = 0;
    uint32_t cp = 0;
    if (b < 0x80) return 1;
    if ((b & 0xE0) == 0xC0) {
        n = 2;
        cp = b & 0x1F;
    } else if ((b & 0xF0) == 0xE0) {
        n = 3;
        cp = b & 0x0F;
    } else if ((b & 0xF8) == 0xF0) {
        n = 4;
        cp = b & 0x07;
    } else {
        return 0;
    }
    if (i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k) {
        const auto c = static_cast<unsigned char>(s[i + k]);
        if ((c & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (c & 0x3F);
    }
    // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
    static constexpr uint32_t kMin[5] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
    return n;
}

}  // namespace

void appendJsonString(std::string& out, std::string_view text) {
    out += '"';
    for (size_t i = 0; i < text.size();) {
        // A run of printable ASCII other than '"' and '\\' (nearly every
        // name) is copied at once.
        size_t run = i;
        while (run < text.size()) {
            const auto r = static_cast<unsigned char>(text[run]);
            if (r < 0x20 || r >= 0x80 || r == '"' || r == '\\') break;
            ++run;
        }
        if (run > i) {
            out.append(text.data() + i, run - i);
            i = run;
            continue;
        }
        const auto c = static_cast<unsigned char>(text[i]);
        if (c >= 0x80) {
            const size_t n = utf8Length(text, i);
            if (n == 0) {
                out += "\xEF\xBF\xBD";  // U+FFFD
                ++i;
            } else {
                out.append(text.substr(i, n));
                i += n;
            }
            continue;
        }
        ++i;
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (c < 0x20) {
                    char buf[8];
                    std::snprintf(buf, sizeof buf, "\\u%04x", c);
                    out += buf;
                } else {
                    out += static_cast<char>(c);
                }
        }
    }
    out += '"';
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
