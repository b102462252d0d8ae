#pragma once
// Args a reader leaves in the file in the file's own form: the trace keeps
// where they lie, and a person who looks at one event gets them as JSON
// text, decoded then. No text is composed at load, and none is held. A
// record is either bytes of the file (an XSpace event's stats: the store
// reads them) or a reference the decoder resolves in the file itself (a row
// of an SQLite export: its table and rowid).

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

    // Whether records are references (offset and length are the reader's
    // own numbers, not a place in the file): then decodeReference, given a
    // descriptor of the file, resolves them instead.
    virtual bool resolvesReferences() const { return false; }
    virtual bool decodeReference(uint64_t offset, uint32_t length, int fileFd, std::string& json,
                                 std::string& error) const;
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
