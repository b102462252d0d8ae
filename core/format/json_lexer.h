#pragma once
// Low-level JSON scanning over a byte range that may end mid-value: every
// function reports NeedMore when it reaches the end of the available bytes,
// so the caller can refill its buffer and restart the unit it was reading.
// No allocation except for strings with escapes (into a caller's scratch).

#include <cstdint>
#include <string>
#include <string_view>

namespace gapscope::json {

enum class Status { Ok, NeedMore, Error };

struct Cursor {
    const char* p = nullptr;
    const char* end = nullptr;
    const char* error = nullptr;  // what was expected, when Status::Error (at p)

    Status fail(const char* what) {
        error = what;
        return Status::Error;
    }
};

inline bool isWs(char c) {
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

// The end of the whitespace starting at p (p itself when there is none).
const char* skipWsRun(const char* p, const char* end);

inline void skipWs(Cursor& c) {
    // Most often there is nothing to skip, or one space (", "); indentation
    // runs (pretty-printed traces) go 16 bytes at a time.
    if (c.p < c.end && !isWs(*c.p)) return;
    c.p = skipWsRun(c.p, c.end);
}

// c.p at '"'. On Ok, `out` is the unescaped text: a view of the input when it
// has no escapes, else of `scratch`. \u escapes become UTF-8; lone surrogates
// become U+FFFD. c.p moves past the closing quote.
Status scanString(Cursor& c, std::string& scratch, std::string_view& out);

// Like scanString but only finds the end.
Status skipString(Cursor& c);

// c.p at '-' or a digit. `out` is the number's text.
Status scanNumber(Cursor& c, std::string_view& out);

// Skips one value of any type, iteratively: any depth in constant stack.
// NaN, Infinity and -Infinity (which Python's json module writes) count as values.
Status skipValue(Cursor& c);

// At NaN, Infinity or -Infinity.
bool startsNonFinite(const Cursor& c);
Status skipNonFinite(Cursor& c);

// Inside an object, before a member: skips whitespace and stray commas, then
// either finds the closing '}' (closed = true, c.p after it) or reads the
// key and its ':' (c.p at the value). `what` names the object in errors.
Status readMemberKey(Cursor& c, std::string& scratch, std::string_view& key, bool& closed,
                     const char* what);

enum class ValueKind { String, Number, True, False, Null, Object, Array };

// One scalar or composite value inside a complete JSON text.
struct Value {
    ValueKind kind = ValueKind::Null;
    std::string_view text;  // unescaped string, number text, or raw composite text
};

// Reads one value at c.p (after whitespace). Composite values are skipped
// and returned as raw text.
Status readValue(Cursor& c, std::string& scratch, Value& out);

// Calls fn(key, value) for each member of the complete object `text`. Returns
// false if `text` is not a well-formed object. Keys and values are views that
// live until the next call of fn.
template <class Fn>
bool forEachMember(std::string_view text, Fn&& fn) {
    Cursor c{text.data(), text.data() + text.size()};
    std::string keyScratch, valueScratch;
    skipWs(c);
    if (c.p >= c.end || *c.p != '{') return false;
    ++c.p;
    for (;;) {
        std::string_view key;
        bool closed = false;
        if (readMemberKey(c, keyScratch, key, closed, "a key string or '}'") != Status::Ok)
            return false;
        if (closed) return true;
        skipWs(c);
        Value v;
        if (readValue(c, valueScratch, v) != Status::Ok) return false;
        fn(key, v);
    }
}

}  // namespace gapscope::json
