#pragma once
// The Protocol Buffers wire format over bytes in memory, checked at every
// step: a length is compared with what is left and never trusted for an
// allocation, a varint has at most 10 bytes, groups nest at most 32 deep,
// wire types 6 and 7 (which no encoder writes) are errors. The project's own
// decoder for XSpace profiles: it walks the bytes and hands out views, so a
// multi-GB profile is never turned into a tree of messages (no generated
// code, no libprotobuf; docs/ARCHITECTURE.md says why).

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>

namespace gapscope::wire {

enum class WireType : uint8_t {
    Varint = 0,
    Fixed64 = 1,
    Bytes = 2,
    StartGroup = 3,
    EndGroup = 4,
    Fixed32 = 5
};

// Malformed input: where (a byte offset in the stream) and what.
class WireError : public std::runtime_error {
  public:
    WireError(uint64_t offset, const std::string& what)
        : std::runtime_error(what), offset_(offset) {}
    uint64_t offset() const { return offset_; }

  private:
    uint64_t offset_;
};

struct Field {
    uint32_t number = 0;
    WireType type = WireType::Varint;
    uint64_t value = 0;      // Varint, Fixed64, Fixed32 (the bits)
    std::string_view bytes;  // Bytes: the payload (a view of the input)
    uint64_t offset = 0;     // of the tag, in the stream
    uint64_t payloadOffset = 0;

    int64_t asInt64() const { return static_cast<int64_t>(value); }
    double asDouble() const {
        double d;
        std::memcpy(&d, &value, sizeof d);
        return d;
    }
};

// Reads one varint at `p`; `offset` is p's offset in the stream (for errors).
uint64_t readVarint(const char*& p, const char* end, uint64_t offset);

// The fields of one message, in order. Groups (proto2, never in XSpace) are
// skipped whole; unknown field numbers are the caller's to ignore.
class Reader {
  public:
    Reader() = default;
    Reader(std::string_view message, uint64_t offset)
        : begin_(message.data()),
          p_(message.data()),
          end_(message.data() + message.size()),
          base_(offset) {}
    // A reader over a Bytes field's payload (a nested message).
    static Reader of(const Field& f) { return Reader(f.bytes, f.payloadOffset); }

    // The next field; false at the end of the message. Throws WireError.
    bool next(Field& f);
    uint64_t offset() const { return base_ + static_cast<uint64_t>(p_ - begin_); }

  private:
    void skipGroup(uint32_t number, uint64_t at, int depth);

    const char* begin_ = nullptr;
    const char* p_ = nullptr;
    const char* end_ = nullptr;
    uint64_t base_ = 0;
};

}  // namespace gapscope::wire
