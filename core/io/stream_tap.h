#pragma once
// A look at a stream's bytes as they are produced, before the reader gets
// them: the decompressing thread (ReadAheadSource) shows each block to a tap,
// so that other cores can parse text the reader has not reached yet
// (format/chunked_events.h). Offsets count the stream's bytes from 0.

#include <cstddef>
#include <cstdint>

namespace gapscope {

class StreamTap {
  public:
    virtual ~StreamTap() = default;
    // The bytes at [offset, offset + size), in stream order and without gaps.
    virtual void onBytes(uint64_t offset, const char* data, size_t size) noexcept = 0;
    // The stream ended (normally or not) after `size` bytes; nothing follows.
    virtual void onEnd(uint64_t size) noexcept = 0;
};

}  // namespace gapscope
