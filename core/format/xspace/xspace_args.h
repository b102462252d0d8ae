#pragma once
// The args of an XSpace event, decoded from the file when a person looks at
// it: the reader keeps each event's place (its bytes' offset and length)
// instead of composing its stats into JSON at load. The decoder finds the
// plane that holds the event and reads that plane's names (its metadata,
// not its lines) once.

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "format/args_decoder.h"

namespace gapscope::xspace {

class XSpaceArgsDecoder final : public ArgsDecoder {
  public:
    XSpaceArgsDecoder();
    ~XSpaceArgsDecoder() override;
    bool decode(std::string_view record, uint64_t offset, const FileBytesReader& read,
                std::string& json, std::string& error) const override;

  private:
    struct Plane;
    const Plane* planeAt(uint64_t offset, const FileBytesReader& read) const;

    mutable std::mutex mutex_;
    mutable bool indexed_ = false;
    mutable std::vector<std::unique_ptr<Plane>> planes_;  // by offset
};

}  // namespace gapscope::xspace
