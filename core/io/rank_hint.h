#pragma once
// The rank a Kineto trace states, read from the head of its file only: a
// hint for the order in which a job's files are loaded (so that the ranks
// can be merged as they load), never its rank (that comes from the whole
// trace, model/distributed_info.h). PyTorch names rank files by host and
// pid, not rank, and writes distributedInfo before the events.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gapscope {

// The integer "rank" member of the top-level "distributedInfo" object in
// `head` (the start of a JSON trace, possibly cut anywhere); nullopt when
// it is not all there.
std::optional<int64_t> rankInTraceHead(std::string_view head);

// The same for a file (decompressed first where it is compressed): its
// first 64 KiB. Nullopt when it cannot be read.
std::optional<int64_t> rankInFileHead(const std::string& path);

}  // namespace gapscope
