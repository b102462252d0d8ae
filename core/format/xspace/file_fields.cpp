#include "format/xspace/file_fields.h"

#include <algorithm>
#include <cstring>

namespace gapscope::xspace {

namespace {
constexpr size_t kWindowBytes = 64u << 10;
constexpr size_t kHeadBytes = 4u << 10;
}  // namespace

FileFields::FileFields(const FileBytesReader& read, uint64_t begin, uint64_t end)
    : read_(read), at_(begin), end_(end) {}

size_t FileFields::window(uint64_t at, size_t n) {
    const uint64_t have = window_.size();
    if (at >= windowStart_ && at - windowStart_ <= have && n <= have - (at - windowStart_))
        return n;
    // After passing over a long field (a line), only its successor's head is
    // wanted: a small read, not a window of the field's bytes.
    const size_t want = std::max(n, skipped_ ? kHeadBytes : kWindowBytes);
    std::string error;
    if (!read_(at, want, window_, error)) throw FileReadError{error};
    windowStart_ = at;
    return std::min<size_t>(n, window_.size());
}

bool FileFields::next(FieldHead& head) {
    if (at_ >= end_) return false;
    // A tag and a length are at most 20 bytes.
    const size_t got = window(at_, 20);
    if (got == 0) {
        if (end_ != UINT64_MAX) throw wire::WireError(at_, "the file ends inside a message");
        return false;  // the end of the file: the end of the top level
    }
    const char* const base = window_.data() + (at_ - windowStart_);
    const char* p = base;
    const char* const limit = base + std::min<uint64_t>(got, end_ - at_);
    const auto offsetOf = [&](const char* q) { return at_ + static_cast<uint64_t>(q - base); };
    head = FieldHead{};
    head.offset = at_;
    // The messages are wire::Reader's: a field is as wrong read here as in memory.
    const uint64_t tag = wire::readVarint(p, limit, at_);
    const uint64_t number = tag >> 3;
    const auto type = static_cast<unsigned>(tag & 7);
    if (number == 0 || number > 0x1FFFFFFF)
        throw wire::WireError(at_, "field number " + std::to_string(number) + " is not valid");
    head.number = static_cast<uint32_t>(number);
    head.type = static_cast<wire::WireType>(type);
    uint64_t size = 0;
    switch (type) {
        case 0:
            head.value = wire::readVarint(p, limit, offsetOf(p));
            break;
        case 1:
        case 5:
            size = type == 1 ? 8 : 4;
            break;
        case 2: {
            const uint64_t lengthAt = offsetOf(p);
            size = wire::readVarint(p, limit, lengthAt);
            const uint64_t payloadAt = offsetOf(p);
            const uint64_t left = end_ - payloadAt;  // end_ may be UINT64_MAX: no wrap below
            if (size > left)
                throw wire::WireError(
                    lengthAt, "field " + std::to_string(number) + " says " + std::to_string(size) +
                                  " bytes, but its message has " + std::to_string(left) + " left");
            break;
        }
        case 3: {
            // A group (never in an XSpace): passed over as in memory, within
            // a window.
            const uint64_t n = std::min<uint64_t>(end_ - at_, kWindowBytes);
            const size_t have = window(at_, static_cast<size_t>(n));
            wire::Reader r(std::string_view(window_).substr(at_ - windowStart_, have), at_);
            wire::Field f;
            r.next(f);
            at_ = r.offset();
            skipped_ = false;
            return true;
        }
        case 4:
            throw wire::WireError(at_, "the end of a group that never started (field " +
                                           std::to_string(number) + ")");
        default:
            throw wire::WireError(at_, "wire type " + std::to_string(type) +
                                           " does not exist (field " + std::to_string(number) +
                                           ")");
    }
    // Where the payload starts, taken before any other read of the window.
    const uint64_t payload = offsetOf(p);
    if (size > end_ - payload)
        throw wire::WireError(
            head.offset, "field " + std::to_string(number) + " runs past the end of its message");
    if (type == 1 || type == 5) {
        if (window(payload, static_cast<size_t>(size)) < size)
            throw wire::WireError(head.offset, "field " + std::to_string(number) +
                                                   " runs past the end of its message");
        std::memcpy(&head.value, window_.data() + (payload - windowStart_),
                    static_cast<size_t>(size));
    }
    head.payloadOffset = payload;
    head.length = type == 2 ? size : 0;
    at_ = payload + size;  // no wrap: size <= end_ - payload
    skipped_ = size > kWindowBytes;
    return true;
}

std::string_view FileFields::bytes(uint64_t offset, uint64_t length) {
    if (length <= kWindowBytes) {
        if (window(offset, length) < length)
            throw wire::WireError(offset, "the file ends inside a field");
        return std::string_view(window_).substr(offset - windowStart_, length);
    }
    std::string error;
    if (!read_(offset, length, big_, error)) throw FileReadError{error};
    if (big_.size() < length) throw wire::WireError(offset, "the file ends inside a field");
    return big_;
}

}  // namespace gapscope::xspace
