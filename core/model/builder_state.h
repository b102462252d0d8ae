#pragma once
// Internal to TraceBuilder: what is collected during ingest, before finish().

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include "model/slice_kind.h"
#include "model/trace.h"
#include "model/trace_builder.h"
#include "util/saturating.h"

namespace gapscope {

enum class SubTrack : uint8_t { Thread, GpuAnnotation, Async, Instants };

struct TrackKey {
    uint32_t process = 0;
    IdKey tid;
    SubTrack sub = SubTrack::Thread;
    StringId asyncName = 0;
    bool operator==(const TrackKey&) const = default;
};

struct TrackKeyHash {
    size_t operator()(const TrackKey& k) const noexcept {
        return IdKeyHash{}(k.tid) ^ (static_cast<size_t>(k.process) * 0x9e3779b97f4a7c15ull) ^
               (static_cast<size_t>(k.sub) << 56) ^ (static_cast<size_t>(k.asyncName) << 20);
    }
};

// Flows and async events are matched by (category, id, scope).
struct MatchKey {
    uint16_t category = 0;
    IdKey id;
    uint32_t scope = kNone;  // process index for id2.local / process-scoped ids
    bool operator==(const MatchKey&) const = default;
};

struct MatchKeyHash {
    size_t operator()(const MatchKey& k) const noexcept {
        return IdKeyHash{}(k.id) ^ (static_cast<size_t>(k.category) << 40) ^
               (static_cast<size_t>(k.scope) * 0x9e3779b97f4a7c15ull);
    }
};

struct BeginEnd {
    TimeNs ts = 0;
    uint32_t seq = 0;
    StringId name = 0;
    uint32_t args = kNone;
    uint16_t category = 0;
    bool begin = false;
    uint64_t offset = 0;
};

struct PendingTrack {
    TrackKey key;
    StringId threadName = 0;
    bool hasThreadName = false;
    int64_t sortIndex = 0;
    bool hasSortIndex = false;
    HugeVector<Slice> slices;
    HugeVector<uint32_t> seq;     // file order of each slice, for equal-time ties
    std::vector<uint32_t> group;  // async tracks: each slice's id group (see layoutSlices)
    HugeVector<BeginEnd> beginEnds;
    HugeVector<Instant> instants;
    int deviceFromArgs = -1;
    // Where each pending slice went in Trace::slices, kept only for tracks
    // with direct flow ends (laid out by layoutTracks).
    bool wantsFinalIndex = false;
    HugeVector<uint32_t> finalIndex;
};

// One end of a flow a reader bound to a slice itself (RawEvent::flowOut /
// flowIn): the slice is the `index`th of its pending track.
struct DirectFlowEnd {
    uint64_t id = 0;
    uint32_t track = 0;  // pending track
    uint32_t index = 0;  // in that track's pending slices
    uint16_t category = 0;
    bool out = false;  // the flow starts here
};

struct FlowPoint {
    uint32_t track = 0;  // pending track index
    TimeNs ts = 0;
    uint32_t seq = 0;
    char phase = 's';
    bool bindEnclosing = false;
    uint16_t category = 0;
    StringId name = 0;
    MatchKey key;
};

struct AsyncPoint {
    uint32_t process = 0;
    TimeNs ts = 0;
    uint32_t seq = 0;
    char phase = 'b';
    StringId name = 0;
    uint16_t category = 0;
    uint32_t args = kNone;
    MatchKey key;
    uint64_t offset = 0;
};

struct TraceBuilder::State {
    explicit State(Trace& t);

    Trace& trace;
    std::unordered_map<IdKey, uint32_t, IdKeyHash> processByPid;
    std::vector<Process> processes;  // ingest order; reordered by finish()
    std::unordered_map<TrackKey, uint32_t, TrackKeyHash> trackByKey;
    std::vector<PendingTrack> tracks;
    std::unordered_map<StringId, uint16_t> categoryIndex;
    std::unordered_map<uint64_t, uint32_t> counterByKey;  // (process, name) -> series
    HugeVector<FlowPoint> flowPoints;
    HugeVector<DirectFlowEnd> directFlowEnds;
    HugeVector<AsyncPoint> asyncPoints;
    // In file order, each on its pending track (finish() sorts them by
    // time and names the final tracks).
    HugeVector<MemoryEvent> memoryEvents;
    uint64_t singleCharPhases[256] = {};
    std::unordered_map<std::string, uint64_t> otherPhases;
    TimeNs spanStart = INT64_MAX;
    TimeNs spanEnd = INT64_MIN;
    uint32_t seq = 0;
    bool categoryOverflowWarned = false;
    // Rough bytes held so far (checked against the limit every few thousand events).
    uint64_t approxBytes = 0;
    uint64_t memoryLimit = UINT64_MAX;
    void checkMemory(const RawEvent& ev);
    // The input's (decompressed) size as guessed before reading; 0: unknown.
    uint64_t expectedBytes = 0;

    // Room for one more element at the end of one of the arrays that grow
    // with the input (per track, per counter). Small ones grow by
    // doubling; past kDirectGrowth elements an array is reserved straight
    // to what the rest of the input will likely need, judged by how far
    // into it `offset` is. That is address space only (pages are touched
    // as they fill), and a big array is then copied once instead of at
    // every doubling: each copy touches fresh pages, and on the virtual
    // machines measured a first touch costs more than the data it holds.
    static constexpr size_t kDirectGrowth = size_t{1} << 16;
    template <class T>
    void makeRoom(HugeVector<T>& v, uint64_t offset) const {
        if (v.size() < v.capacity() || v.size() < kDirectGrowth) return;
        if (offset == 0 || offset >= expectedBytes) return;  // no guess: doubling
        const double share = static_cast<double>(offset) / static_cast<double>(expectedBytes);
        // A quarter more than the rate so far predicts; never beyond one
        // element per 16 bytes of input (no event is that small).
        const double wanted = static_cast<double>(v.size()) / share * 1.25;
        const double most = static_cast<double>(expectedBytes / 16);
        const auto target = static_cast<size_t>(std::min(wanted, most));
        if (target <= 2 * v.size()) return;
        try {
            v.reserve(target);
        } catch (const std::bad_alloc&) {  // address space is limited (ulimit -v): doubling
        }
    }

    // What each category is (model/vocabulary): GPU work that counts
    // towards busy time, ranges projected onto a GPU stream.
    std::vector<SliceKind> categoryKinds{SliceKind::Other};  // category 0: ""

    uint32_t process(const IdKey& pid);
    uint32_t track(const TrackKey& key);
    uint16_t category(std::string_view name);
    IdKey idKey(const RawId& id);
    IdKey tidKey(const RawEvent& ev);
    uint32_t storeArgs(const RawEvent& ev);
    std::string shapesText;  // storeArgs's scratch for an op's signature
    uint32_t counter(uint32_t process, std::string_view name);
    bool isActivity(uint16_t category) const;
    bool isGpuAnnotation(uint16_t category) const;
};

inline std::string_view trimSpaces(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// Ingest handlers per phase family (build_events.cpp); the event is valid
// and has a timestamp where its phase needs one.
void ingestCompleteSlice(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq);
void ingestBeginEnd(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq);
void ingestInstant(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts);
void ingestCounter(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts);
void ingestMetadata(TraceBuilder::State& st, const RawEvent& ev);
void ingestFlowPoint(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq);
void ingestAsyncPoint(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq);

// finish() stages, each in its own file.
void buildBeginEndSlices(TraceBuilder::State& st);
void buildAsyncSlices(TraceBuilder::State& st);
std::vector<bool> classifyProcesses(TraceBuilder::State& st);  // true: "/device:GPU:N"
std::vector<TrackKind> classifyTracks(TraceBuilder::State& st, const std::vector<bool>& tfStyle);
void classifyAndOrder(TraceBuilder::State& st, std::vector<uint32_t>& trackOrder);
void layoutTracks(TraceBuilder::State& st, const std::vector<uint32_t>& trackOrder,
                  std::vector<uint32_t>& finalTrackOfPending);
// The flow points grouped by key: key order, then time, file order for
// ties. Reads only the points, so it runs beside layoutTracks.
std::vector<uint32_t> groupFlowPoints(const HugeVector<FlowPoint>& points);
// Binds the flow points to the laid-out slices, then makes the arrows.
// Binding is one index query per point, taken in blocks by whichever
// threads call bindSome() (the finish thread joins in when its own work is
// done); it reads only the tracks and slices. link() then runs once, after
// every bindSome() has returned, and writes only the flows, the flow
// counts of the report and the points.
// The flows readers bound themselves: each id's start to each of its ends
// (after layoutTracks, which kept the tracks' final indices).
void linkDirectFlows(TraceBuilder::State& st);

class FlowBinding {
  public:
    FlowBinding(const TraceBuilder::State& st, const std::vector<uint32_t>& finalTrackOfPending);
    void bindSome();
    // `order`: the points grouped by groupFlowPoints.
    void link(TraceBuilder::State& st, const std::vector<uint32_t>& order);

  private:
    static constexpr size_t kBlock = 8192;
    const Trace& trace_;
    const HugeVector<FlowPoint>& points_;
    const std::vector<uint32_t>& finalTrackOfPending_;
    HugeVector<uint32_t> bound_;  // per point: its slice, or kNone
    std::atomic<size_t> nextBlock_{0};
};

}  // namespace gapscope
