#include "format/proto_wire.h"

namespace gapscope::wire {

namespace {

constexpr int kMaxGroupDepth = 32;

}  // namespace

uint64_t readVarint(const char*& p, const char* end, uint64_t offset) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (p == end) throw WireError(offset, "a number runs past the end of its message");
        const auto b = static_cast<unsigned char>(*p++);
        if (shift == 63 && b > 1) throw WireError(offset, "a number is longer than 64 bits");
        v |= static_cast<uint64_t>(b & 0x7F) << shift;
        if (!(b & 0x80)) return v;
    }
    throw WireError(offset, "a number is longer than 10 bytes");
}

bool Reader::next(Field& f) {
    if (p_ >= end_) return false;
    f.offset = offset();
    const uint64_t tag = readVarint(p_, end_, f.offset);
    const uint64_t number = tag >> 3;
    const auto type = static_cast<unsigned>(tag & 7);
    if (number == 0 || number > 0x1FFFFFFF)
        throw WireError(f.offset, "field number " + std::to_string(number) + " is not valid");
    f.number = static_cast<uint32_t>(number);
    f.type = static_cast<WireType>(type);
    f.bytes = {};
    f.value = 0;
    switch (type) {
        case 0:
            f.value = readVarint(p_, end_, offset());
            break;
        case 1:
        case 5: {
            const size_t n = type == 1 ? 8 : 4;
            if (static_cast<size_t>(end_ - p_) < n)
                throw WireError(f.offset, "field " + std::to_string(number) +
                                              " runs past the end of its message");
            uint64_t v = 0;
            for (size_t i = 0; i < n; ++i)
                v |= static_cast<uint64_t>(static_cast<unsigned char>(p_[i])) << (8 * i);
            f.value = v;
            p_ += n;
            break;
        }
        case 2: {
            const uint64_t at = offset();
            const uint64_t length = readVarint(p_, end_, at);
            const auto left = static_cast<uint64_t>(end_ - p_);
            if (length > left)
                throw WireError(at, "field " + std::to_string(number) + " says " +
                                        std::to_string(length) + " bytes, but its message has " +
                                        std::to_string(left) + " left");
            f.payloadOffset = offset();
            f.bytes = std::string_view(p_, static_cast<size_t>(length));
            p_ += length;
            break;
        }
        case 3:
            skipGroup(f.number, f.offset, 1);
            break;
        case 4:
            throw WireError(f.offset, "the end of a group that never started (field " +
                                          std::to_string(number) + ")");
        default:
            throw WireError(f.offset, "wire type " + std::to_string(type) +
                                          " does not exist (field " + std::to_string(number) + ")");
    }
    return true;
}

void Reader::skipGroup(uint32_t number, uint64_t at, int depth) {
    if (depth > kMaxGroupDepth)
        throw WireError(at, "groups nest more than " + std::to_string(kMaxGroupDepth) + " deep");
    for (;;) {
        if (p_ >= end_)
            throw WireError(at, "a group (field " + std::to_string(number) +
                                    ") runs past the end of its message");
        const char* save = p_;
        const uint64_t tagAt = offset();
        const uint64_t tag = readVarint(p_, end_, tagAt);
        if ((tag & 7) == 4) {
            if ((tag >> 3) != number)
                throw WireError(tagAt, "a group (field " + std::to_string(number) +
                                           ") ends with the end of field " +
                                           std::to_string(tag >> 3));
            return;
        }
        if ((tag & 7) == 3) {
            skipGroup(static_cast<uint32_t>(tag >> 3), tagAt, depth + 1);
            continue;
        }
        p_ = save;
        Field inner;
        next(inner);
    }
}

}  // namespace gapscope::wire
