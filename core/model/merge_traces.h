#pragma once
// The ranks of a distributed job in one trace, for one timeline: each rank's
// trace (loaded alone, model/trace.h) appended whole, in rank order. What a
// rank's analyses see of it does not change:
//  - its processes, tracks, slices, instants, counters and flows are copied
//    with their indices moved, its strings and categories interned again;
//  - its GPUs get the next global indices (GPU 0 of rank 1 follows the
//    last GPU of rank 0), everywhere a device is named (args.device too);
//  - correlation and external ids below 2^40 get the rank's place in bits
//    40 and up, so no kernel is matched with another rank's launch;
//  - its processes and GPUs carry its group (Trace::ranks), which the
//    analyses that look at "the host" (the gap causes) keep to;
//  - its args stay where they were (its args store becomes a part of the
//    merged one);
//  - with an offset, every time moves by it (ranks aligned on a step).
// Process names are prefixed "rank N · " (and the host, when known).

#include <memory>
#include <string>
#include <vector>

#include "model/trace.h"

namespace gapscope {

struct RankPart {
    int64_t rank = 0;
    std::string host;
    std::string file;
    TimeNs offset = 0;
    std::shared_ptr<Trace> trace;  // given up: freed once it is copied
    std::string part;              // TraceRank::part
};

// `path` names the merged trace (the folder, or the files' common folder).
// Throws std::length_error past the model's limits (65535 categories,
// 32767 ranks, 2^32 slices) or when an offset would carry a rank's times
// out of the int64 range.
std::shared_ptr<Trace> mergeRankTraces(std::vector<RankPart> parts, const std::string& path);

}  // namespace gapscope
