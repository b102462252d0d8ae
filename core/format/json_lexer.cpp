#include "format/json_lexer.h"

#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace gapscope::json {
namespace {

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string& s, uint32_t cp) {
    if (cp < 0x80) {
        s.push_back(static_cast<char>(cp));
    } else if (cp < 0x800) {
        s.push_back(static_cast<char>(0xC0 | (cp >> 6)));
        s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        s.push_back(static_cast<char>(0xE0 | (cp >> 12)));
        s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    } else {
        s.push_back(static_cast<char>(0xF0 | (cp >> 18)));
        s.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
        s.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
        s.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
    }
}

// Reads 4 hex digits at p (p + 4 <= end checked by the caller).
int readHex4(const char* p) {
    int v = 0;
    for (int i = 0; i < 4; ++i) {
        const int h = hexValue(p[i]);
        if (h < 0) return -1;
        v = v * 16 + h;
    }
    return v;
}

// The first '"' or '\\' in [p, end), or end. Strings are most of a trace's
// bytes (kernel names run to hundreds), so 16 bytes are tested at once.
const char* findQuoteOrBackslash(const char* p, const char* end) {
#if defined(__SSE2__)
    const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
    while (end - p >= 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const int hits = _mm_movemask_epi8(
            _mm_or_si128(_mm_cmpeq_epi8(chunk, quote), _mm_cmpeq_epi8(chunk, backslash)));
        if (hits != 0) return p + __builtin_ctz(static_cast<unsigned>(hits));
        p += 16;
    }
#endif
    while (p < end && *p != '"' && *p != '\\')
        ++p;
    return p;
}

}  // namespace

const char* skipWsRun(const char* p, const char* end) {
    // A lone space first: the common separator.
    if (p < end && *p == ' ') ++p;
    if (p < end && !isWs(*p)) return p;
#if defined(__SSE2__)
    const __m128i space = _mm_set1_epi8(' '), newline = _mm_set1_epi8('\n'),
                  ret = _mm_set1_epi8('\r'), tab = _mm_set1_epi8('\t');
    while (end - p >= 16) {
        const __m128i chunk = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
        const __m128i ws =
            _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(chunk, space), _mm_cmpeq_epi8(chunk, newline)),
                         _mm_or_si128(_mm_cmpeq_epi8(chunk, ret), _mm_cmpeq_epi8(chunk, tab)));
        const unsigned other = ~static_cast<unsigned>(_mm_movemask_epi8(ws)) & 0xFFFFu;
        if (other != 0) return p + __builtin_ctz(other);
        p += 16;
    }
#endif
    while (p < end && isWs(*p))
        ++p;
    return p;
}

namespace {

bool isNumberChar(char c) {
    return (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E';
}

}  // namespace

Status skipString(Cursor& c) {
    const char* p = c.p + 1;
    for (;;) {
        const void* hit = std::memchr(p, '"', static_cast<size_t>(c.end - p));
        if (!hit) return Status::NeedMore;
        const char* q = static_cast<const char*>(hit);
        // The quote is escaped iff an odd number of backslashes precede it.
        const char* b = q;
        while (b > p && b[-1] == '\\')
            --b;
        if (((q - b) & 1) == 0) {
            c.p = q + 1;
            return Status::Ok;
        }
        p = q + 1;
    }
}

Status scanString(Cursor& c, std::string& scratch, std::string_view& out) {
    const char* begin = c.p + 1;
    const char* p = begin;
    // Fast path: find the closing quote or the first backslash.
    p = findQuoteOrBackslash(p, c.end);
    if (p >= c.end) return Status::NeedMore;
    if (*p == '"') {
        out = std::string_view(begin, static_cast<size_t>(p - begin));
        c.p = p + 1;
        return Status::Ok;
    }
    scratch.assign(begin, p);
    while (p < c.end) {
        const char ch = *p;
        if (ch == '"') {
            out = scratch;
            c.p = p + 1;
            return Status::Ok;
        }
        if (ch != '\\') {
            scratch.push_back(ch);
            ++p;
            continue;
        }
        if (p + 1 >= c.end) return Status::NeedMore;
        const char esc = p[1];
        p += 2;
        switch (esc) {
            case '"':
                scratch.push_back('"');
                break;
            case '\\':
                scratch.push_back('\\');
                break;
            case '/':
                scratch.push_back('/');
                break;
            case 'b':
                scratch.push_back('\b');
                break;
            case 'f':
                scratch.push_back('\f');
                break;
            case 'n':
                scratch.push_back('\n');
                break;
            case 'r':
                scratch.push_back('\r');
                break;
            case 't':
                scratch.push_back('\t');
                break;
            case 'u': {
                if (c.end - p < 4) return Status::NeedMore;
                int cp = readHex4(p);
                if (cp < 0) {
                    c.p = p;
                    return c.fail("four hex digits after \\u");
                }
                p += 4;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    // A high surrogate must be followed by \u and a low one.
                    if (c.end - p < 6) return Status::NeedMore;
                    const int low = (p[0] == '\\' && p[1] == 'u') ? readHex4(p + 2) : -1;
                    if (low >= 0xDC00 && low <= 0xDFFF) {
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                        p += 6;
                    } else {
                        cp = 0xFFFD;
                    }
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    cp = 0xFFFD;
                }
                appendUtf8(scratch, static_cast<uint32_t>(cp));
                break;
            }
            default:
                c.p = p - 1;
                return c.fail("a valid escape after '\\' in a string");
        }
    }
    return Status::NeedMore;
}

Status scanNumber(Cursor& c, std::string_view& out) {
    const char* p = c.p;
    while (p < c.end && isNumberChar(*p))
        ++p;
    if (p >= c.end) return Status::NeedMore;  // the number may continue
    out = std::string_view(c.p, static_cast<size_t>(p - c.p));
    c.p = p;
    return Status::Ok;
}

namespace {

Status skipLiteral(Cursor& c, const char* word, size_t len) {
    const size_t avail = static_cast<size_t>(c.end - c.p);
    const size_t n = avail < len ? avail : len;
    if (std::memcmp(c.p, word, n) != 0) return c.fail("a JSON value");
    if (n < len) return Status::NeedMore;
    c.p += len;
    return Status::Ok;
}

}  // namespace

Status skipNonFinite(Cursor& c) {
    if (c.p < c.end && *c.p == 'N') return skipLiteral(c, "NaN", 3);
    if (c.p < c.end && *c.p == 'I') return skipLiteral(c, "Infinity", 8);
    return skipLiteral(c, "-Infinity", 9);
}

bool startsNonFinite(const Cursor& c) {
    if (c.p >= c.end) return false;
    if (*c.p == 'N' || *c.p == 'I') return true;
    return *c.p == '-' && c.p + 1 < c.end && c.p[1] == 'I';
}

Status skipValue(Cursor& c) {
    // Depth is only counted, never recursed into: any nesting is skipped in
    // constant stack space.
    int64_t depth = 0;
    for (;;) {
        skipWs(c);
        if (c.p >= c.end) return Status::NeedMore;
        const char ch = *c.p;
        Status s = Status::Ok;
        switch (ch) {
            case '{':
            case '[':
                ++depth;
                ++c.p;
                continue;  // the first member or element follows
            case '}':
            case ']':
                if (depth == 0) return c.fail("a JSON value");
                --depth;
                ++c.p;
                break;
            case '"':
                s = skipString(c);
                break;
            case 't':
                s = skipLiteral(c, "true", 4);
                break;
            case 'f':
                s = skipLiteral(c, "false", 5);
                break;
            case 'n':
                s = skipLiteral(c, "null", 4);
                break;
            default:
                if (startsNonFinite(c)) {
                    s = skipNonFinite(c);
                } else if (ch == '-' || (ch >= '0' && ch <= '9')) {
                    std::string_view num;
                    s = scanNumber(c, num);
                } else {
                    return c.fail("a JSON value");
                }
        }
        if (s != Status::Ok) return s;
        // After a value inside a composite: a separator, a key or the close.
        for (;;) {
            if (depth == 0) return Status::Ok;
            skipWs(c);
            if (c.p >= c.end) return Status::NeedMore;
            if (*c.p == ',' || *c.p == ':') {
                ++c.p;
                continue;
            }
            if (*c.p == '}' || *c.p == ']') {
                --depth;
                ++c.p;
                continue;
            }
            break;  // the next value or key
        }
    }
}

Status readMemberKey(Cursor& c, std::string& scratch, std::string_view& key, bool& closed,
                     const char* what) {
    closed = false;
    for (;;) {
        skipWs(c);
        if (c.p >= c.end) return Status::NeedMore;
        if (*c.p == ',') {  // trailing and doubled commas are tolerated
            ++c.p;
            continue;
        }
        if (*c.p == '}') {
            ++c.p;
            closed = true;
            return Status::Ok;
        }
        if (*c.p != '"') return c.fail(what);
        const Status s = scanString(c, scratch, key);
        if (s != Status::Ok) return s;
        skipWs(c);
        if (c.p >= c.end) return Status::NeedMore;
        if (*c.p != ':') return c.fail("':' after a key");
        ++c.p;
        skipWs(c);
        return c.p >= c.end ? Status::NeedMore : Status::Ok;
    }
}

Status readValue(Cursor& c, std::string& scratch, Value& out) {
    skipWs(c);
    if (c.p >= c.end) return Status::NeedMore;
    const char* start = c.p;
    if (startsNonFinite(c)) {  // NaN, Infinity: a number that is no number
        out.kind = ValueKind::Null;
        out.text = {};
        return skipNonFinite(c);
    }
    switch (*c.p) {
        case '"':
            out.kind = ValueKind::String;
            return scanString(c, scratch, out.text);
        case '{':
        case '[': {
            out.kind = *c.p == '{' ? ValueKind::Object : ValueKind::Array;
            const Status s = skipValue(c);
            out.text = std::string_view(start, static_cast<size_t>(c.p - start));
            return s;
        }
        case 't':
            out.kind = ValueKind::True;
            return skipLiteral(c, "true", 4);
        case 'f':
            out.kind = ValueKind::False;
            return skipLiteral(c, "false", 5);
        case 'n':
            out.kind = ValueKind::Null;
            return skipLiteral(c, "null", 4);
        default:
            if (*c.p == '-' || (*c.p >= '0' && *c.p <= '9')) {
                out.kind = ValueKind::Number;
                // Inside a complete text the number may end the buffer.
                const char* p = c.p;
                while (p < c.end && isNumberChar(*p))
                    ++p;
                out.text = std::string_view(c.p, static_cast<size_t>(p - c.p));
                c.p = p;
                return Status::Ok;
            }
            return c.fail("a JSON value");
    }
}

}  // namespace gapscope::json
