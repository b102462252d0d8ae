#include "io/rank_hint.h"

#include <exception>

#include "io/byte_source.h"

namespace gapscope {

namespace {

constexpr size_t kHeadBytes = 64 * 1024;

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

// Past the string that starts at `at` (a quote); npos when it is cut.
size_t pastString(std::string_view s, size_t at) {
    for (size_t i = at + 1; i < s.size(); ++i) {
        if (s[i] == '\\') {
            ++i;
        } else if (s[i] == '"') {
            return i + 1;
        }
    }
    return std::string_view::npos;
}

size_t skipSpace(std::string_view s, size_t i) {
    while (i < s.size() && isSpace(s[i]))
        ++i;
    return i;
}

}  // namespace

std::optional<int64_t> rankInTraceHead(std::string_view head) {
    constexpr std::string_view kKey = "\"distributedInfo\"";
    const size_t key = head.find(kKey);
    if (key == std::string_view::npos) return std::nullopt;
    size_t i = skipSpace(head, key + kKey.size());
    if (i >= head.size() || head[i] != ':') return std::nullopt;
    i = skipSpace(head, i + 1);
    if (i >= head.size() || head[i] != '{') return std::nullopt;
    // Its members, at depth 1: the first "rank" whose value is an integer.
    int depth = 0;
    bool expectKey = true;  // at depth 1, the next string is a key
    while (i < head.size()) {
        const char c = head[i];
        if (c == '"') {
            const size_t end = pastString(head, i);
            if (end == std::string_view::npos) return std::nullopt;
            const bool isRank = depth == 1 && expectKey && head.substr(i, end - i) == "\"rank\"";
            if (depth == 1) expectKey = false;
            i = end;
            if (!isRank) continue;
            i = skipSpace(head, i);
            if (i >= head.size() || head[i] != ':') return std::nullopt;
            i = skipSpace(head, i + 1);
            const bool negative = i < head.size() && head[i] == '-';
            if (negative) ++i;
            int64_t value = 0;
            size_t digits = 0;
            while (i < head.size() && head[i] >= '0' && head[i] <= '9' && digits < 18) {
                value = value * 10 + (head[i] - '0');
                ++i;
                ++digits;
            }
            // Whole and an integer: followed by the member's end.
            const size_t after = skipSpace(head, i);
            if (digits == 0 || after >= head.size() || (head[after] != ',' && head[after] != '}'))
                return std::nullopt;
            return negative ? -value : value;
        }
        if (c == '{' || c == '[') {
            ++depth;
            expectKey = c == '{' && depth == 1;
        } else if (c == '}' || c == ']') {
            if (--depth == 0) return std::nullopt;  // the object ended without one
        } else if (c == ',' && depth == 1) {
            expectKey = true;
        }
        ++i;
    }
    return std::nullopt;
}

std::optional<int64_t> rankInFileHead(const std::string& path) {
    try {
        OpenedSource opened = openTraceSource(path);
        std::string head(kHeadBytes, '\0');
        size_t got = 0;
        while (got < head.size()) {
            const size_t n = opened.source->read(head.data() + got, head.size() - got);
            if (n == 0) break;
            got += n;
        }
        head.resize(got);
        return rankInTraceHead(head);
    } catch (const std::exception&) {  // unreadable: no hint
        return std::nullopt;
    }
}

}  // namespace gapscope
