#pragma once
// Which rank of a distributed job a trace is, as the trace says it:
// Kineto's top-level "distributedInfo" ({"backend": "nccl", "rank": 3,
// "world_size": 8, ...}) and a top-level "hostname" where the trace has
// one. (An XSpace's own "hostnames" are not used: in TensorFlow's
// multi-worker recordings every worker's file names the chief.)

#include <cstdint>
#include <optional>
#include <string>

#include "model/trace.h"

namespace gapscope {

struct DistributedInfo {
    std::optional<int64_t> rank;
    std::optional<int64_t> worldSize;
    std::string backend;
    std::string host;  // "" when the trace does not say
};

// Values of the wrong type, or an unreadable "distributedInfo", are left out.
DistributedInfo distributedInfo(const Trace& trace);

}  // namespace gapscope
