#pragma once
// Case-insensitive matching of ASCII words in names (kernel, op and track
// names): ASCII only, because std::tolower's locale lookup per character
// cost a sixth of the whole-trace advice. `word` is lower case.

#include <cstddef>
#include <string_view>

namespace gapscope {

inline char lowerAscii(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

inline bool startsWithNoCase(std::string_view text, size_t at, std::string_view word) {
    if (at > text.size() || word.size() > text.size() - at) return false;
    for (size_t k = 0; k < word.size(); ++k)
        if (lowerAscii(text[at + k]) != word[k]) return false;
    return true;
}

inline bool containsNoCase(std::string_view text, std::string_view word) {
    for (size_t i = 0; i + word.size() <= text.size(); ++i)
        if (startsWithNoCase(text, i, word)) return true;
    return false;
}

}  // namespace gapscope
