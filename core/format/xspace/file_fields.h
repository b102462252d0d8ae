#pragma once
// The fields of a protobuf message that lies in a file, read a window at a
// time instead of whole: the tags and lengths of a plane's fields, so its
// lines can be passed over and its (small) metadata read, without holding
// the plane. Every length is checked against the message's end.

#include <cstdint>
#include <string>
#include <string_view>

#include "format/args_decoder.h"
#include "format/proto_wire.h"

namespace gapscope::xspace {

// A field's head: its number and type, and where its payload lies.
struct FieldHead {
    uint32_t number = 0;
    wire::WireType type = wire::WireType::Varint;
    uint64_t offset = 0;         // of the tag
    uint64_t payloadOffset = 0;  // Bytes: of the payload
    uint64_t length = 0;         // Bytes: the payload's length
    uint64_t value = 0;          // Varint, Fixed64, Fixed32
};

class FileFields {
  public:
    // The message at [begin, end) of the file; `end` UINT64_MAX: to the end
    // of the file (the top level of an XSpace). Throws WireError when a
    // field is malformed or runs past `end`, and FileReadError when the
    // file cannot be read.
    FileFields(const FileBytesReader& read, uint64_t begin, uint64_t end);

    // The next field's head (its payload passed over); false at the end.
    bool next(FieldHead& head);
    // `length` bytes at `offset` (within the message), valid until the next call.
    std::string_view bytes(uint64_t offset, uint64_t length);

  private:
    // At least `n` bytes at `at` in the window, fewer only at the file's end.
    size_t window(uint64_t at, size_t n);

    const FileBytesReader& read_;
    uint64_t at_, end_;
    std::string window_;
    uint64_t windowStart_ = 0;
    std::string big_;       // bytes() of more than a window
    bool skipped_ = false;  // the last field passed over more than a window
};

// The file could not be read (it changed, or an I/O error): what happened.
struct FileReadError {
    std::string what;
};

}  // namespace gapscope::xspace
