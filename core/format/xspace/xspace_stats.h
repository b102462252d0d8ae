#pragma once
// XSpace stats as the rest of Gapscope sees them: each event's stats become
// its args (a JSON object, every stat under its own name, so the Details
// panel shows them all), and the ones analyses need fill the same
// ExtractedArgs the JSON reader fills (correlation, launch parameters,
// bytes). Value kinds vary per occurrence of one stat name (a writer stores
// 2.0 as an int64), so every kind is accepted for every stat.

#include <cstdint>
#include <string>
#include <string_view>

#include "format/extracted_args.h"

namespace gapscope::xspace {

// One stat's value, whichever kind it was written as.
struct StatValue {
    enum class Kind : uint8_t { None, Double, Uint64, Int64, Text, Bytes };
    Kind kind = Kind::None;
    double d = 0;
    uint64_t u = 0;
    int64_t i = 0;
    std::string_view text;  // Text (str_value, or the name a ref_value points at), Bytes

    bool integral(int64_t& out) const;  // Int64, Uint64 within range, integral Double
    static StatValue textOf(std::string_view text) {
        StatValue v;
        v.kind = Kind::Text;
        v.text = text;
        return v;
    }
};

// Appends `"name": value` (with a leading comma unless `first`) to a JSON
// object being written: numbers as numbers (non-finite ones as text),
// text escaped and made valid UTF-8, bytes as "<N bytes>".
void appendStat(std::string& json, bool first, std::string_view name, const StatValue& value);

// Fills what the analyses need from one stat (correlation_id, and the
// details format/tensorflow_stats.h reads); true when it was one of them.
bool extractKnownStat(std::string_view name, const StatValue& value, ExtractedArgs& known);

}  // namespace gapscope::xspace
