#include "analysis/launch_queues.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <tuple>

#include "analysis/gpu_activity.h"
#include "model/slice_kind.h"

namespace gapscope {

StreamKey streamOfActivity(const Trace& t, uint32_t s) {
    const Slice& sl = t.slices[s];
    const Track& track = t.tracks[t.trackOfSlice(s)];
    int64_t stream = -1;
    if (sl.args < t.args.size() && t.args[sl.args].extracted != kNone)
        stream = t.ids[t.args[sl.args].extracted].stream;
    return {deviceOfSlice(t, track, sl), stream >= 0 ? stream : track.tid.number};
}

namespace {

SyncRecord syncRecordOf(const Trace& t, uint32_t s) {
    SyncRecord r;
    r.slice = s;
    r.kind = vocabulary::kinetoCudaSync(t.str(t.slices[s].name));
    if (r.kind != vocabulary::CudaSyncRecord::Event &&
        r.kind != vocabulary::CudaSyncRecord::StreamWaitEvent)
        return r;
    const ArgsText text = t.argsText(t.slices[s].args);
    const auto args = nlohmann::json::parse(text.json, nullptr, false);
    if (!args.is_object()) return r;
    auto integer = [&](const char* key) -> int64_t {
        const auto it = args.find(key);
        return it != args.end() && it->is_number_integer() ? it->get<int64_t>() : -1;
    };
    r.waitOnStream = integer("wait_on_stream");
    r.recordCorrelation = integer("wait_on_cuda_event_record_corr_id");
    return r;
}

}  // namespace

LaunchQueues::LaunchQueues(const Trace& t, const LaunchCalls& calls, const CancelToken* cancel)
    : trace_(t) {
    workOfCall_.assign(t.slices.size(), 0);
    // Every GPU row: a GPU's rows without activity ("Device 0" of Kineto's)
    // hold its sync records.
    for (const Track& track : t.tracks) {
        if (track.gpuDevice < 0) continue;
        if (cancel && cancel->isCancelled()) {
            cancelled_ = true;
            return;
        }
        for (uint32_t k = track.sliceBegin; k < track.sliceEnd; ++k) {
            const Slice& s = t.slices[k];
            if (s.flags & kSliceGpuActivity) {
                const uint32_t call = calls.first(k);
                if (call == kNone) continue;
                byCall_.emplace_back(call, k);
                workOfCall_[call] |= kCallLaunches;
                if (vocabulary::queuesGpuWork(t.str(t.slices[call].name))) {
                    QueuedLaunch l;
                    l.at = t.slices[call].start;
                    l.call = call;
                    l.activity = k;
                    l.thread = t.trackOfSlice(call);
                    l.stream = streamOfActivity(t, k);
                    launches_.push_back(l);
                }
                continue;
            }
            if (vocabulary::kinetoCudaSync(t.str(s.name)) == vocabulary::CudaSyncRecord::None)
                continue;
            const SyncRecord r = syncRecordOf(t, k);
            if (r.waitOnStream >= 0 && r.recordCorrelation >= 0)
                recordedOn_.emplace(r.recordCorrelation,
                                    StreamKey{deviceOfSlice(t, track, s), r.waitOnStream});
            syncs_.push_back(r);
            if (const uint32_t call = calls.first(k); call != kNone) {
                byCall_.emplace_back(call, k);
                // (A stream's wait for an event holds back the GPU's work,
                // not the call's end.)
                if (r.kind != vocabulary::CudaSyncRecord::StreamWaitEvent)
                    workOfCall_[call] |= kCallWaits;
            }
        }
    }
    std::sort(byCall_.begin(), byCall_.end());
    std::sort(syncs_.begin(), syncs_.end(),
              [](const SyncRecord& a, const SyncRecord& b) { return a.slice < b.slice; });
    std::stable_sort(launches_.begin(), launches_.end(),
                     [](const QueuedLaunch& a, const QueuedLaunch& b) { return a.at < b.at; });
    launchOf_.assign(t.slices.size(), kNone);
    for (uint32_t l = 0; l < launches_.size(); ++l) {
        launchOf_[launches_[l].activity] = l;
        onStream_[launches_[l].stream].push_back(l);
        fromThread_[{launches_[l].thread, launches_[l].stream}].push_back(l);
    }
    // Per stream, the queue: +1 at each launch, -1 when its work starts (at
    // one time, launches first).
    std::vector<std::tuple<TimeNs, int, uint32_t>> v;
    for (const auto& [stream, mine] : onStream_) {
        v.clear();
        for (const uint32_t l : mine) {
            v.emplace_back(launches_[l].at, 0, l);
            v.emplace_back(t.slices[launches_[l].activity].start, 1, l);
        }
        std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
            return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b)
                                                    : std::get<1>(a) < std::get<1>(b);
        });
        int64_t queued = 0;
        for (const auto& [at, isStart, l] : v) {
            queued += isStart ? -1 : 1;
            (isStart ? launches_[l].queuedAtStart : launches_[l].queuedAtLaunch) = queued;
        }
    }
}

const SyncRecord* LaunchQueues::syncOf(uint32_t slice) const {
    const auto it = std::lower_bound(syncs_.begin(), syncs_.end(), slice,
                                     [](const SyncRecord& r, uint32_t s) { return r.slice < s; });
    return it != syncs_.end() && it->slice == slice ? &*it : nullptr;
}

uint32_t LaunchQueues::recordedActivity(int64_t recordCorrelation, const LaunchCalls& calls) const {
    const auto on = recordedOn_.find(recordCorrelation);
    const uint32_t record = calls.callWithCorrelation(recordCorrelation);
    if (on == recordedOn_.end() || record == kNone ||
        !vocabulary::recordsEvent(trace_.str(trace_.slices[record].name)))
        return kNone;
    const auto mine = onStream_.find(on->second);
    if (mine == onStream_.end()) return kNone;
    const TimeNs at = trace_.slices[record].start;
    const auto after = std::upper_bound(mine->second.begin(), mine->second.end(), at,
                                        [&](TimeNs v, uint32_t l) { return v < launches_[l].at; });
    return after == mine->second.begin() ? kNone : launches_[*(after - 1)].activity;
}

uint32_t LaunchQueues::nextLaunched(uint32_t waitCall, const StreamKey& stream) const {
    const auto mine = fromThread_.find({trace_.trackOfSlice(waitCall), stream});
    if (mine == fromThread_.end()) return kNone;
    const TimeNs at = trace_.slices[waitCall].start;
    const auto after = std::upper_bound(mine->second.begin(), mine->second.end(), at,
                                        [&](TimeNs v, uint32_t l) { return v < launches_[l].at; });
    return after == mine->second.end() ? kNone : launches_[*after].activity;
}

}  // namespace gapscope
