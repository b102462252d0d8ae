#pragma once
// Identifiers of the trace: pid, tid and flow/async ids may be JSON numbers
// or strings. A string holding a canonical integer ("25738") is the same key
// as that number (old Kineto traces mix both for one thread; Chrome's viewer
// treats them alike); other strings ("stream 7", "0x1f") are keys of their own.

#include <cstdint>
#include <functional>

#include "model/string_table.h"
#include "util/types.h"

namespace gapscope {

struct IdKey {
    int64_t number = 0;
    StringId text = 0;
    bool isText = false;

    static IdKey fromNumber(int64_t n) { return IdKey{n, 0, false}; }
    static IdKey fromText(StringId s) { return IdKey{0, s, true}; }
    bool operator==(const IdKey&) const = default;
};

struct IdKeyHash {
    size_t operator()(const IdKey& k) const noexcept {
        const uint64_t v = k.isText ? (static_cast<uint64_t>(k.text) | (1ull << 63))
                                    : static_cast<uint64_t>(k.number);
        return std::hash<uint64_t>{}(v * 0x9e3779b97f4a7c15ull);
    }
};

}  // namespace gapscope
