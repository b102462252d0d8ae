#pragma once
// JSON text written by readers that compose args (XSpace stats, Nsight
// Systems columns) rather than find them as JSON in the file.

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>

namespace gapscope {

// JSON string text: quotes, escapes, invalid UTF-8 replaced by U+FFFD.
void appendJsonString(std::string& out, std::string_view text);

// A `"key": value` appender for args composed from columns (it replaces
// what `out` held).
class JsonObjectWriter {
  public:
    explicit JsonObjectWriter(std::string& out) : out_(out) { out_.assign(1, '{'); }
    void number(std::string_view key, int64_t v) {
        this->key(key);
        char buf[24];
        const auto r = std::to_chars(buf, buf + sizeof buf, v);
        out_.append(buf, r.ptr);
    }
    // Text values are for a person to read in Details: a hostile export's
    // huge string is cut, not copied into every row's args.
    void text(std::string_view key, std::string_view v) {
        this->key(key);
        constexpr size_t kMostBytes = 4096;
        appendJsonString(out_, v.substr(0, kMostBytes));
    }
    void triple(std::string_view key, const int32_t v[3]) {
        this->key(key);
        char buf[48];
        char* at = buf;
        for (int i = 0; i < 3; ++i) {
            *at++ = i ? ',' : '[';
            at = std::to_chars(at, buf + sizeof buf - 2, v[i]).ptr;
        }
        *at++ = ']';
        out_.append(buf, at);
    }
    void close() { out_ += '}'; }

  private:
    // Keys are the reader's own plain ASCII: written as they are.
    void key(std::string_view k) {
        if (out_.size() > 1) out_ += ',';
        out_ += '"';
        out_.append(k);
        out_.append("\":", 2);
    }
    std::string& out_;
};

}  // namespace gapscope
