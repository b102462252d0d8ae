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
#include <set>
#include <string>
#include <unordered_map>
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

// The merge one rank at a time, so that a job's ranks can be merged as they
// load and each freed at once: the ranks are appended in the order they are
// to have (rank order), each rank's part becoming group 0, 1, 2... Throws as
// mergeRankTraces says.
class RankMerger {
  public:
    // `expectedBytes`: the size of all the ranks' files, for reserving the
    // merged arrays ahead (0: grown as needed).
    explicit RankMerger(std::string path, uint64_t expectedBytes = 0);
    ~RankMerger();
    RankMerger(const RankMerger&) = delete;
    RankMerger& operator=(const RankMerger&) = delete;

    // Reserves exactly what all of `parts` hold (when they are all at hand).
    void reserve(const std::vector<RankPart>& parts);
    void append(RankPart part);  // frees part.trace
    size_t size() const { return groups_; }
    // The merged trace, indexed; the merger is spent.
    std::shared_ptr<Trace> finish();

  private:
    std::shared_ptr<Trace> trace_;
    uint64_t expectedBytes_ = 0, bytesSoFar_ = 0;
    bool reserved_ = false;
    bool estimating_ = true;  // false once an estimate could not be had
    uint32_t groups_ = 0;
    int nextDevice_ = 0;
    std::unordered_map<StringId, uint16_t> categoryIndex_;
    std::set<std::string> counted_;
};

// `path` names the merged trace (the folder, or the files' common folder).
// Throws std::length_error past the model's limits (65535 categories,
// 32767 ranks, 2^32 slices) or when an offset would carry a rank's times
// out of the int64 range.
std::shared_ptr<Trace> mergeRankTraces(std::vector<RankPart> parts, const std::string& path);

}  // namespace gapscope
