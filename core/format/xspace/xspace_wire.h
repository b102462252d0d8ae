#pragma once
// What xplane.proto's field numbers are (tsl/profiler/protobuf/xplane.proto)
// and the checked reads of one field every XSpace decoder shares: the
// reader that streams a file, the plane decoder and the args decoder that
// turns an event's stats into text when a person looks at it.

#include <cstdint>
#include <string>
#include <string_view>

#include "format/proto_wire.h"

namespace gapscope::xspace {

namespace XSpaceField {
constexpr uint32_t kPlanes = 1, kErrors = 2, kWarnings = 3, kHostnames = 4;
}
namespace PlaneField {
constexpr uint32_t kId = 1, kName = 2, kLines = 3, kEventMetadata = 4, kStatMetadata = 5,
                   kStats = 6;
}
namespace LineField {
constexpr uint32_t kId = 1, kName = 2, kTimestampNs = 3, kEvents = 4, kDisplayId = 10,
                   kDisplayName = 11;
}
namespace EventField {
constexpr uint32_t kMetadataId = 1, kOffsetPs = 2, kDurationPs = 3, kStats = 4, kNumOccurrences = 5;
}
namespace StatField {
constexpr uint32_t kMetadataId = 1, kDouble = 2, kUint64 = 3, kInt64 = 4, kStr = 5, kBytes = 6,
                   kRef = 7;
}
namespace MetadataField {  // XEventMetadata and XStatMetadata
constexpr uint32_t kId = 1, kName = 2, kDisplayName = 4, kStats = 5;
}

// A message's bytes and where they lie in the (decompressed) input.
struct Span {
    std::string_view bytes;
    uint64_t offset = 0;
};

inline std::string_view bytesOf(const wire::Field& f, const char* what) {
    if (f.type != wire::WireType::Bytes)
        throw wire::WireError(f.offset, std::string(what) + " is not length-delimited (wire type " +
                                            std::to_string(static_cast<int>(f.type)) + ")");
    return f.bytes;
}

inline uint64_t varintOf(const wire::Field& f, const char* what) {
    if (f.type != wire::WireType::Varint)
        throw wire::WireError(f.offset, std::string(what) + " is not a varint (wire type " +
                                            std::to_string(static_cast<int>(f.type)) + ")");
    return f.value;
}

}  // namespace gapscope::xspace
