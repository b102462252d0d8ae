#include "analysis/critical_path_graph.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

const char* pathEdgeKindName(PathEdgeKind kind) {
    switch (kind) {
        case PathEdgeKind::Operator:
            return "critical_path_operator";
        case PathEdgeKind::Dependency:
            return "critical_path_dependency";
        case PathEdgeKind::KernelLaunch:
            return "critical_path_kernel_launch_delay";
        case PathEdgeKind::KernelKernel:
            return "critical_path_kernel_kernel_delay";
        case PathEdgeKind::Sync:
            return "critical_path_sync_dependency";
    }
    return "?";
}

namespace {

// A GPU stream: its device and its number.
using StreamKey = std::pair<int, int64_t>;

// A launch that queued work on a stream, in the whole trace.
struct Launch {
    TimeNs at = 0;
    uint32_t call = kNone, activity = kNone;
    uint32_t thread = kNone;  // the call's track
    StreamKey stream;
};

// What a cuda_sync record says, from its args.
struct SyncRecord {
    vocabulary::CudaSyncRecord kind = vocabulary::CudaSyncRecord::None;
    int64_t waitOnStream = -1;
    int64_t recordCorrelation = -1;
};

class Builder {
  public:
    Builder(const Trace& t, const LaunchCalls& calls, const PathGraphOptions& o)
        : t_(t), calls_(calls), o_(o) {
        g_.window = o.window;
        g_.startOf.assign(t.slices.size(), kNone);
    }

    PathGraph run() {
        threads();
        if (cancelled()) return std::move(g_);
        gpu();
        return std::move(g_);
    }

  private:
    bool cancelled() {
        if (o_.cancel && o_.cancel->isCancelled()) g_.cancelled = true;
        return g_.cancelled;
    }

    const Slice& slice(uint32_t i) const { return t_.slices[i]; }
    std::string_view name(uint32_t i) const { return t_.str(t_.slices[i].name); }

    uint32_t addNodes(uint32_t s) {
        const auto index = static_cast<uint32_t>(g_.nodes.size());
        g_.nodes.push_back({s, false, slice(s).start});
        g_.nodes.push_back({s, true, slice(s).end()});
        g_.startOf[s] = index;
        return index;
    }

    void addEdge(uint32_t from, uint32_t to, PathEdgeKind kind, bool zeroWeight = false,
                 uint32_t attributed = kNone) {
        const bool free =
            zeroWeight || kind == PathEdgeKind::Dependency || kind == PathEdgeKind::Sync;
        // (A child that ends after its parent, a kernel before its launch's
        // end: an order, never negative time.)
        const TimeNs w = free ? 0 : std::max<TimeNs>(0, g_.nodes[to].at - g_.nodes[from].at);
        g_.edges.push_back({from, to, w, kind, attributed});
    }

    // CPU ops and runtime calls that start in the window and last: the
    // annotations and Python frames around them carry no nodes.
    bool hasCpuNodes(const Slice& s) const {
        const SliceKind k = sliceKind(s);
        return (k == SliceKind::CpuOp || isRuntimeKind(k)) && s.dur > 0 &&
               s.start >= o_.window.start && s.start <= o_.window.end;
    }

    // Each thread's top-level ops, each a chain through its descendants'
    // nodes in time order; threads in (pid, tid) order, as HTA walks them.
    void threads() {
        std::vector<uint32_t> order;
        for (uint32_t i = 0; i < t_.tracks.size(); ++i)
            if (t_.tracks[i].kind == TrackKind::CpuThread) order.push_back(i);
        auto key = [&](uint32_t i) {
            const Track& tr = t_.tracks[i];
            const IdKey& pid = t_.processes[tr.process].pid;
            return std::tuple(pid.isText, pid.number, pid.text, tr.tid.isText, tr.tid.number,
                              tr.tid.text);
        };
        std::sort(order.begin(), order.end(),
                  [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
        std::vector<uint32_t> mine, stack;
        for (const uint32_t tr : order) {
            if (cancelled()) return;
            const Track& track = t_.tracks[tr];
            mine.clear();
            for (uint32_t i = track.sliceBegin; i < track.sliceEnd; ++i)
                if (hasCpuNodes(slice(i))) mine.push_back(i);
            // By start; at one time the longer (the parent) first.
            std::sort(mine.begin(), mine.end(), [&](uint32_t a, uint32_t b) {
                const Slice& x = slice(a);
                const Slice& y = slice(b);
                if (x.start != y.start) return x.start < y.start;
                if (x.end() != y.end()) return x.end() > y.end();
                return x.depth < y.depth;
            });
            uint32_t previousTop = kNone, previous = kNone;
            stack.clear();
            auto leave = [&]() {
                const uint32_t s = stack.back();
                stack.pop_back();
                const uint32_t end = g_.startOf[s] + 1;
                // A call that blocks until the GPU is done adds nothing for
                // its tail: the GPU's chain into its end stands for it.
                addEdge(previous, end, PathEdgeKind::Operator,
                        vocabulary::blocksUntilGpuDone(name(s)), s);
                previous = end;
                if (stack.empty()) {
                    previousTop = end;
                    previous = kNone;
                }
            };
            for (const uint32_t s : mine) {
                while (!stack.empty() && slice(stack.back()).end() <= slice(s).start)
                    leave();
                const uint32_t start = addNodes(s);
                if (stack.empty()) {
                    if (previousTop != kNone) addEdge(previousTop, start, PathEdgeKind::Dependency);
                } else {
                    // From the previous node of the chain: its slice's time
                    // for a start, the enclosing op's between siblings.
                    const PathNode& p = g_.nodes[previous];
                    addEdge(previous, start, PathEdgeKind::Operator, false,
                            p.end ? stack.back() : p.slice);
                }
                previous = start;
                stack.push_back(s);
            }
            while (!stack.empty())
                leave();
        }
    }

    StreamKey streamOf(uint32_t s) const {
        const Slice& sl = slice(s);
        const Track& track = t_.tracks[t_.trackOfSlice(s)];
        int64_t stream = -1;
        if (sl.args < t_.args.size() && t_.args[sl.args].extracted != kNone)
            stream = t_.ids[t_.args[sl.args].extracted].stream;
        return {deviceOfSlice(t_, track, sl), stream >= 0 ? stream : track.tid.number};
    }

    SyncRecord syncRecordOf(uint32_t s) const {
        SyncRecord r;
        r.kind = vocabulary::kinetoCudaSync(name(s));
        if (r.kind != vocabulary::CudaSyncRecord::Event &&
            r.kind != vocabulary::CudaSyncRecord::StreamWaitEvent)
            return r;
        const ArgsText text = t_.argsText(slice(s).args);
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

    // Per stream, how much work was queued when each activity was launched
    // (its own launch counted) and when it started (it no longer counted),
    // over the whole trace: a launch onto an idle stream is what the stream
    // waited for. Launches are sorted by time; the results are by launch.
    void queueLengths(const std::vector<Launch>& launches) {
        queuedAtLaunch_.assign(launches.size(), 0);
        queuedAtStart_.assign(launches.size(), 0);
        for (const auto& [stream, mine] : launchesOn_) {
            // (time, 0 for a launch / 1 for its activity's start, launch)
            std::vector<std::tuple<TimeNs, int, uint32_t>> v;
            v.reserve(2 * mine.size());
            for (const uint32_t l : mine) {
                v.emplace_back(launches[l].at, 0, l);
                v.emplace_back(slice(launches[l].activity).start, 1, l);
            }
            std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) {
                return std::get<0>(a) != std::get<0>(b) ? std::get<0>(a) < std::get<0>(b)
                                                        : std::get<1>(a) < std::get<1>(b);
            });
            int64_t queued = 0;
            for (const auto& [at, isActivity, l] : v) {
                queued += isActivity ? -1 : 1;
                (isActivity ? queuedAtStart_ : queuedAtLaunch_)[l] = queued;
            }
        }
    }

    void gpu() {
        // Every launch of the trace, by time (its order is its launch id).
        std::vector<Launch> launches;
        std::vector<uint32_t> rows;  // the activities and sync records of the window
        std::vector<std::pair<uint32_t, SyncRecord>> syncs;
        std::map<int64_t, StreamKey> recordedOn;  // event record correlation -> stream
        // (A GPU's rows without activity, "Device 0" of Kineto's, hold its
        // sync records.)
        for (const Track& track : t_.tracks) {
            if (track.gpuDevice < 0) continue;
            for (uint32_t k = track.sliceBegin; k < track.sliceEnd; ++k) {
                const Slice& s = slice(k);
                if (s.flags & kSliceGpuActivity) {
                    const uint32_t call = calls_.first(k);
                    if (call == kNone) continue;
                    if (vocabulary::queuesGpuWork(name(call)))
                        launches.push_back(
                            {slice(call).start, call, k, t_.trackOfSlice(call), streamOf(k)});
                    if (g_.startNode(call) != kNone) rows.push_back(k);
                    continue;
                }
                const SyncRecord r = syncRecordOf(k);
                if (r.kind == vocabulary::CudaSyncRecord::None) continue;
                if (r.waitOnStream >= 0 && r.recordCorrelation >= 0)
                    recordedOn.emplace(r.recordCorrelation,
                                       StreamKey{deviceOfSlice(t_, track, s), r.waitOnStream});
                const uint32_t call = calls_.first(k);
                if (call == kNone) continue;
                // A stream's wait is kept wherever it lies (HTA keeps
                // them all); the others need their call's end.
                if (r.kind == vocabulary::CudaSyncRecord::StreamWaitEvent ||
                    g_.startNode(call) != kNone)
                    syncs.emplace_back(k, r);
            }
        }
        if (cancelled()) return;
        std::stable_sort(launches.begin(), launches.end(),
                         [](const Launch& a, const Launch& b) { return a.at < b.at; });
        launchOf_.assign(t_.slices.size(), kNone);
        for (uint32_t l = 0; l < launches.size(); ++l) {
            launchOf_[launches[l].activity] = l;
            launchesOn_[launches[l].stream].push_back(l);
            launchesFrom_[{launches[l].thread, launches[l].stream}].push_back(l);
        }
        queueLengths(launches);
        for (const auto& [k, r] : syncs) {
            rows.push_back(k);
            syncOf_.emplace(k, r);
        }
        for (const uint32_t k : rows)
            if (g_.startNode(k) == kNone && (slice(k).flags & kSliceGpuActivity)) addNodes(k);

        // The kernel an event waits on: the last launched onto its stream
        // (from any thread) before the event was recorded.
        auto recordedKernel = [&](int64_t recordCorrelation) -> uint32_t {
            const auto on = recordedOn.find(recordCorrelation);
            const uint32_t record = calls_.callWithCorrelation(recordCorrelation);
            if (on == recordedOn.end() || record == kNone ||
                !vocabulary::recordsEvent(name(record)))
                return kNone;
            const auto mine = launchesOn_.find(on->second);
            if (mine == launchesOn_.end()) return kNone;
            const TimeNs at = slice(record).start;
            const auto after =
                std::upper_bound(mine->second.begin(), mine->second.end(), at,
                                 [&](TimeNs v, uint32_t l) { return v < launches[l].at; });
            return after == mine->second.begin() ? kNone : launches[*(after - 1)].activity;
        };
        // The kernel a stream's wait holds back: the next launched onto
        // that stream from the thread that called the wait.
        auto nextLaunched = [&](uint32_t waitCall, const StreamKey& stream) -> uint32_t {
            const auto mine = launchesFrom_.find({t_.trackOfSlice(waitCall), stream});
            if (mine == launchesFrom_.end()) return kNone;
            const TimeNs at = slice(waitCall).start;
            const auto after =
                std::upper_bound(mine->second.begin(), mine->second.end(), at,
                                 [&](TimeNs v, uint32_t l) { return v < launches[l].at; });
            return after == mine->second.end() ? kNone : launches[*after].activity;
        };

        // Activities by start, a sync record by its end (a Stream Sync
        // spans the copy it waits for).
        auto sortKey = [&](uint32_t k) {
            return syncOf_.count(k) ? slice(k).end() : slice(k).start;
        };
        std::stable_sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) {
            const TimeNs x = sortKey(a), y = sortKey(b);
            return x != y ? x < y : a < b;
        });
        std::map<StreamKey, uint32_t> lastNode;       // the end node of a stream's last activity
        std::map<uint32_t, uint32_t> kernelWaitsFor;  // activity -> the kernel it waits on
        for (const uint32_t k : rows) {
            if (cancelled()) return;
            if (const auto sync = syncOf_.find(k); sync != syncOf_.end()) {
                const SyncRecord& r = sync->second;
                const uint32_t call = calls_.first(k);
                const uint32_t callStart = g_.startNode(call);
                using R = vocabulary::CudaSyncRecord;
                if (r.kind == R::Event || r.kind == R::StreamWaitEvent) {
                    const uint32_t source = recordedKernel(r.recordCorrelation);
                    if (source == kNone) continue;
                    if (r.kind == R::StreamWaitEvent) {
                        const uint32_t dest = nextLaunched(call, streamOf(k));
                        if (dest != kNone) kernelWaitsFor[dest] = source;
                    } else if (g_.startNode(source) != kNone && callStart != kNone) {
                        addEdge(g_.startNode(source) + 1, callStart + 1, PathEdgeKind::Sync);
                    }
                    continue;
                }
                if (callStart == kNone) continue;
                if (r.kind == R::Context) {
                    for (const auto& [stream, node] : lastNode)
                        addEdge(node, callStart + 1, PathEdgeKind::Sync);
                } else if (const auto it = lastNode.find(streamOf(k)); it != lastNode.end()) {
                    addEdge(it->second, callStart + 1, PathEdgeKind::Sync);
                }
                continue;
            }
            const uint32_t start = g_.startNode(k), end = start + 1;
            addEdge(start, end, PathEdgeKind::Operator, false, k);
            const StreamKey stream = streamOf(k);
            uint32_t waitEnd = kNone;
            if (const auto w = kernelWaitsFor.find(k); w != kernelWaitsFor.end()) {
                if (const uint32_t source = g_.startNode(w->second); source != kNone) {
                    waitEnd = source + 1;
                    addEdge(waitEnd, start, PathEdgeKind::Sync);
                }
                kernelWaitsFor.erase(w);
            }
            const uint32_t call = calls_.first(k);
            const uint32_t callStart = g_.startNode(call);
            const TimeNs launchedAt = slice(call).start;
            const auto last = lastNode.find(stream);
            const uint32_t launch = launchOf_[k];
            bool launchEdge = false;
            if (launch != kNone && queuedAtLaunch_[launch] == 1 && queuedAtStart_[launch] == 0 &&
                (last == lastNode.end() || g_.nodes[last->second].at < launchedAt) &&
                (waitEnd == kNone || g_.nodes[waitEnd].at < launchedAt)) {
                addEdge(callStart, start, PathEdgeKind::KernelLaunch);
                launchEdge = true;
            } else if (last != lastNode.end() &&
                       (waitEnd == kNone || g_.nodes[waitEnd].at < g_.nodes[last->second].at)) {
                addEdge(last->second, start, PathEdgeKind::KernelKernel, false,
                        g_.nodes[last->second].slice);
            }
            if (!launchEdge && o_.zeroWeightLaunchEdges)
                addEdge(callStart, start, PathEdgeKind::KernelLaunch, true);
            lastNode[stream] = end;
        }
    }

    const Trace& t_;
    const LaunchCalls& calls_;
    const PathGraphOptions& o_;
    PathGraph g_;
    // Launches (indices into the time-sorted list) by stream, and by the
    // thread that called them and stream; the queue lengths by launch; each
    // activity's launch.
    std::map<StreamKey, std::vector<uint32_t>> launchesOn_;
    std::map<std::pair<uint32_t, StreamKey>, std::vector<uint32_t>> launchesFrom_;
    std::vector<int64_t> queuedAtLaunch_, queuedAtStart_;
    std::vector<uint32_t> launchOf_;
    std::unordered_map<uint32_t, SyncRecord> syncOf_;
};

}  // namespace

PathGraph buildPathGraph(const Trace& trace, const LaunchCalls& calls,
                         const PathGraphOptions& options) {
    return Builder(trace, calls, options).run();
}

}  // namespace gapscope
