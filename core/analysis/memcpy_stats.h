#pragma once
// Copies and memsets per (device, kind, name): count, total time, bytes and
// bandwidth where every event of the group says its size (args.bytes),
// direction (HtoD, DtoH, DtoD, PtoP, other) and host memory (Kineto names
// say "Pageable" or "Pinned"). Raw durations; an event counts when it
// starts inside the window. Sorted by total time, then device, kind, name.

#include <optional>
#include <vector>

#include "analysis/gpu_activity.h"
#include "util/cancel_token.h"

namespace gapscope {

enum class HostMemory : uint8_t { Unknown, Pageable, Pinned };

struct CopyStats {
    int device = 0;
    ActivityKind kind = ActivityKind::Memcpy;  // Memcpy or Memset
    StringId name = 0;
    uint32_t longestSlice = kNone;           // the group's longest event
    std::optional<CopyDirection> direction;  // memcpy only
    HostMemory memory = HostMemory::Unknown;
    uint64_t count = 0;
    TimeNs total = 0;
    std::optional<int64_t> bytes;
    std::optional<double> bandwidthGBps;  // bytes per ns
};

std::vector<CopyStats> memcpyStats(const Trace& trace, Interval window = kWholeTrace,
                                   const CancelToken* cancel = nullptr);

}  // namespace gapscope
