#include "format/xspace/xspace_stats.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <type_traits>

#include "format/json_text.h"
#include "format/tensorflow_stats.h"

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

bool extractKnownStat(std::string_view name, const StatValue& v, ExtractedArgs& known) {
    int64_t n = 0;
    if (name == tensorflow::kCorrelationStat) {
        if (!v.integral(n)) return false;
        known.correlation = n;
        return true;
    }
    if (name == tensorflow::kStepNumberStat) {
        known.stepNumber = v.integral(n) ? (n >= 0 && n <= INT32_MAX ? n : -1)
                           : v.kind == StatValue::Kind::Text
                               ? tensorflow::stepNumberOf(v.text, false)
                               : -1;
        return known.stepNumber >= 0;
    }
    return v.kind == StatValue::Kind::Text && tensorflow::readDetailsStat(name, v.text, known);
}

}  // namespace gapscope::xspace
