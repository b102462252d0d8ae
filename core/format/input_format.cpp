#include "format/input_format.h"

#include <cstdint>

namespace gapscope {

const char* inputFormatName(InputFormat f) {
    switch (f) {
        case InputFormat::ChromeJson:
            return "Chrome trace JSON";
        case InputFormat::XSpace:
            return "XSpace protobuf";
        case InputFormat::NsightSqlite:
            return "Nsight Systems SQLite export";
        case InputFormat::Unknown:
            break;
    }
    return "unknown";
}

namespace {

bool looksLikeJson(std::string_view head) {
    if (head.substr(0, 3) == "\xEF\xBB\xBF") head.remove_prefix(3);  // UTF-8 BOM
    for (const char c : head) {
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r') continue;
        return c == '[' || c == '{';
    }
    return false;
}

// XSpace's first field is nearly always `planes` (field 1, length-delimited:
// tag 0x0A), a varint length, then an XPlane whose first field is one of its
// own (id, name, lines, event/stat metadata, stats: tags 0x08..0x32).
bool looksLikeXSpace(std::string_view head) {
    const auto* b = reinterpret_cast<const unsigned char*>(head.data());
    if (head.size() < 3 || b[0] != 0x0A) return false;
    size_t i = 1;
    while (i < head.size() && i <= 10 && (b[i] & 0x80))
        ++i;
    if (i >= head.size() || i > 10) return false;
    ++i;  // the varint's last byte
    if (i >= head.size()) return false;
    const unsigned tag = b[i];
    return tag == 0x08 || tag == 0x12 || tag == 0x1A || tag == 0x22 || tag == 0x2A || tag == 0x32;
}

}  // namespace

InputFormat detectInputFormat(std::string_view head) {
    if (looksLikeJson(head)) return InputFormat::ChromeJson;
    if (looksLikeXSpace(head)) return InputFormat::XSpace;
    if (head.substr(0, 16) == std::string_view("SQLite format 3\0", 16))
        return InputFormat::NsightSqlite;
    return InputFormat::Unknown;
}

}  // namespace gapscope
