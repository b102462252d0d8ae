#pragma once
// The GPU work of a whole trace as the critical path reads it, built once
// per trace (the index keeps it): every launch that queued work on a
// stream, by time, with how much work its stream held when it was launched
// and when it started; the work and the sync records each runtime call
// has; and the event records' streams. A step's path then costs only its
// own work.

#include <map>
#include <utility>
#include <vector>

#include "analysis/launch_calls.h"
#include "model/trace.h"
#include "model/vocabulary/vocabulary.h"
#include "util/cancel_token.h"

namespace gapscope {

// A GPU stream: its device and its number.
using StreamKey = std::pair<int, int64_t>;
StreamKey streamOfActivity(const Trace& trace, uint32_t slice);

struct QueuedLaunch {
    TimeNs at = 0;  // the call's start
    uint32_t call = kNone, activity = kNone;
    uint32_t thread = kNone;  // the call's track
    StreamKey stream;
    // Work queued on the stream just after the launch (itself counted) and
    // just after its work started (no longer counted).
    int64_t queuedAtLaunch = 0, queuedAtStart = 0;
};

// What a cuda_sync record says, from its args.
struct SyncRecord {
    uint32_t slice = kNone;
    vocabulary::CudaSyncRecord kind = vocabulary::CudaSyncRecord::None;
    int64_t waitOnStream = -1;
    int64_t recordCorrelation = -1;
};

class LaunchQueues {
  public:
    LaunchQueues(const Trace& trace, const LaunchCalls& calls, const CancelToken* cancel = nullptr);

    const std::vector<QueuedLaunch>& launches() const { return launches_; }  // by time
    // An activity's queued launch (an index of launches()); kNone.
    uint32_t launchOf(uint32_t activity) const {
        return activity < launchOf_.size() ? launchOf_[activity] : kNone;
    }
    // The GPU activities and the sync records a runtime call has.
    template <class F>
    void forEachOfCall(uint32_t call, F&& f) const {
        auto it = std::lower_bound(byCall_.begin(), byCall_.end(), std::pair{call, 0u});
        for (; it != byCall_.end() && it->first == call; ++it)
            f(it->second);
    }
    // Every (call, activity or sync record) pair, by call: one pass over
    // many calls costs less than a search for each.
    const std::vector<std::pair<uint32_t, uint32_t>>& byCall() const { return byCall_; }
    const std::vector<SyncRecord>& syncs() const { return syncs_; }
    // What a CPU slice is the call of (a byte by slice): GPU activities
    // (kCallLaunches), sync records whose wait ends the call
    // (kCallWaits: not a stream's wait for an event); 0 for the others.
    static constexpr uint8_t kCallLaunches = 1, kCallWaits = 2;
    uint8_t workOfCall(uint32_t slice) const {
        return slice < workOfCall_.size() ? workOfCall_[slice] : 0;
    }
    void prefetchWorkOfCall(uint32_t slice) const {
        if (slice < workOfCall_.size()) __builtin_prefetch(&workOfCall_[slice]);
    }
    const SyncRecord* syncOf(uint32_t slice) const;
    // The activity an event waits on: the last launched onto the stream it
    // was recorded on, from any thread, before the record call (kNone).
    uint32_t recordedActivity(int64_t recordCorrelation, const LaunchCalls& calls) const;
    // The activity a stream's wait holds back: the next the thread that
    // waited launched onto that stream (kNone).
    uint32_t nextLaunched(uint32_t waitCall, const StreamKey& stream) const;
    bool cancelled() const { return cancelled_; }

  private:
    const Trace& trace_;
    std::vector<QueuedLaunch> launches_;
    std::vector<uint32_t> launchOf_;                       // by slice
    std::vector<std::pair<uint32_t, uint32_t>> byCall_;    // (call, activity or sync), sorted
    std::vector<SyncRecord> syncs_;                        // by slice
    std::vector<uint8_t> workOfCall_;                      // by slice
    std::map<int64_t, StreamKey> recordedOn_;              // event record correlation
    std::map<StreamKey, std::vector<uint32_t>> onStream_;  // launches by stream
    std::map<std::pair<uint32_t, StreamKey>, std::vector<uint32_t>> fromThread_;
    bool cancelled_ = false;
};

}  // namespace gapscope
