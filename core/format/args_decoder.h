#pragma once
// Args a reader leaves in the file in the file's own binary form (an
// XSpace event's stats): the trace keeps where they lie, and a person who
// looks at one event gets them as JSON text, decoded then. No text is
// composed at load, and none is held.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

#include "format/input_format.h"

namespace gapscope {

// Reads up to `length` bytes of the trace file at `offset` into `out`
// (fewer only at the end of the file); false with `error` set when the
// file cannot be read or changed since it was loaded.
using FileBytesReader =
    std::function<bool(uint64_t offset, uint64_t length, std::string& out, std::string& error)>;

class ArgsDecoder {
  public:
    virtual ~ArgsDecoder() = default;
    // The JSON args of the record whose bytes are `record`, at `offset` of
    // the file; `read` reads the rest of the file (what the record's ids
    // name). False with `error` set when the file does not say.
    virtual bool decode(std::string_view record, uint64_t offset, const FileBytesReader& read,
                        std::string& json, std::string& error) const = 0;
};

// Where the args of an uncompressed file of `format` stay: nowhere (the
// reader composes them into the store), as the file's own JSON text, or in
// its binary form for a decoder.
enum class ArgsInFile { No, AsText, Decoded };
ArgsInFile argsInFile(InputFormat format);

// A decoder for `format`'s args, one per loaded file (it remembers what it
// read of that file); null unless argsInFile(format) is Decoded.
std::shared_ptr<const ArgsDecoder> makeArgsDecoder(InputFormat format);

}  // namespace gapscope
