// Ingest, one handler per phase family (the way Perfetto's trace processor
// has a slice tracker, a flow tracker and so on). TraceBuilder::onEvent
// validates an event and dispatches here; each handler only appends.

#include <string>

#include "model/builder_state.h"

namespace gapscope {

namespace {
void addMemoryPoint(TraceBuilder::State& st, const RawEvent& ev, uint32_t proc, TimeNs ts);
void addMemoryEvent(TraceBuilder::State& st, const RawEvent& ev, uint32_t track, TimeNs ts);
}  // namespace

void ingestCompleteSlice(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq) {
    Trace& t = st.trace;
    const uint32_t proc = st.process(st.idKey(ev.pid));
    const uint16_t cat = st.category(ev.cat);
    const bool annotation = st.isGpuAnnotation(cat);
    const uint32_t tr =
        st.track({proc, st.tidKey(ev), annotation ? SubTrack::GpuAnnotation : SubTrack::Thread, 0});
    Slice s;
    s.start = ts;
    s.name = t.strings.intern(ev.name);
    s.category = cat;
    if (ev.dur.valid && ev.dur.ns >= 0) {
        s.dur = ev.dur.ns;
        if (saturatingAdd(ts, s.dur) == INT64_MAX) s.dur = INT64_MAX - ts;
    } else if (ev.dur.valid) {
        s.flags |= kSliceNegativeDuration;
        ++t.report.negativeDurations;
        t.report.warn(ev.offset, "event " + std::to_string(ev.index) +
                                     ": negative \"dur\"; kept with duration 0");
    }
    if (st.isActivity(cat)) {
        s.flags |= kSliceGpuActivity;
        if (ev.hasKnown && ev.known.device >= 0 && st.tracks[tr].deviceFromArgs < 0) {
            st.tracks[tr].deviceFromArgs = ev.known.device;
        }
    }
    s.args = st.storeArgs(ev);
    PendingTrack& track = st.tracks[tr];
    for (const auto& [id, out] : {std::pair{ev.flowOut, true}, std::pair{ev.flowIn, false}}) {
        if (id == 0) continue;
        DirectFlowEnd end;
        end.id = id;
        end.track = tr;
        end.index = static_cast<uint32_t>(track.slices.size());
        end.category = st.category(ev.flowCat);
        end.out = out;
        st.makeRoom(st.directFlowEnds, ev.offset);
        st.directFlowEnds.push_back(end);
        track.wantsFinalIndex = true;
    }
    st.makeRoom(track.slices, ev.offset);
    st.makeRoom(track.seq, ev.offset);
    track.slices.push_back(s);
    track.seq.push_back(seq);
    // An allocator's event that says how much is in use after it (XSpace's
    // MemoryAllocation / MemoryDeallocation): a point of that device's
    // curve, and the block it allocated or freed where it says which.
    if (ev.allocatorState) {
        if (ev.memTotalAllocated >= 0) addMemoryPoint(st, ev, proc, ts);
        addMemoryEvent(st, ev, tr, ts);
    }
}

void ingestBeginEnd(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq) {
    const uint32_t proc = st.process(st.idKey(ev.pid));
    const uint32_t tr = st.track({proc, st.tidKey(ev), SubTrack::Thread, 0});
    BeginEnd be;
    be.ts = ts;
    be.seq = seq;
    be.begin = ev.phase == Phase::Begin;
    be.offset = ev.offset;
    if (be.begin) {
        be.name = st.trace.strings.intern(ev.name);
        be.category = st.category(ev.cat);
        be.args = st.storeArgs(ev);
    }
    st.makeRoom(st.tracks[tr].beginEnds, ev.offset);
    st.tracks[tr].beginEnds.push_back(be);
}

namespace {

// Kineto's [memory] instants carry the allocator totals: a memory curve.
// Those of 2021 carry only the change ("Bytes"): a relative curve, summed
// up once the points are in time order (TraceBuilder::finish).
void addMemoryPoint(TraceBuilder::State& st, const RawEvent& ev, uint32_t proc, TimeNs ts) {
    // c10::DeviceType: 0 is the CPU; every other type is device memory
    // (CUDA writes 1, ROCm builds and other accelerators their own).
    if (ev.memDeviceType < 0) return;
    const bool gpu = ev.memDeviceType != 0;
    std::string device = gpu ? "GPU " : "CPU";
    if (gpu) device.append(std::to_string(ev.memDeviceId));
    auto addPoint = [&](const char* what, MemoryCurve curve, bool relative, double value) {
        std::string name = device;
        name.append(what);
        CounterSeries& cs = st.trace.counters[st.counter(proc, name)];
        cs.memory = curve;
        cs.memoryDevice = gpu ? ev.memDeviceId : -1;
        cs.relative = relative;
        st.makeRoom(cs.ts, ev.offset);
        st.makeRoom(cs.values, ev.offset);
        cs.ts.push_back(ts);
        cs.values.push_back(value);
    };
    if (ev.memTotalAllocated >= 0) {
        addPoint(" memory allocated", MemoryCurve::Allocated, false,
                 static_cast<double>(ev.memTotalAllocated));
        if (ev.memTotalReserved >= 0)
            addPoint(" memory reserved", MemoryCurve::Reserved, false,
                     static_cast<double>(ev.memTotalReserved));
    } else if (ev.memBytes != RawEvent::kNoBytes) {
        addPoint(" memory allocated (relative)", MemoryCurve::Allocated, true,
                 static_cast<double>(ev.memBytes));
    }
}

// Each [memory] event (and XSpace's allocator events) as a row of its own, for the pairing of
// allocations and frees (analysis/memory_allocations.h). One without a change in bytes or a device
// type says nothing of a block.
void addMemoryEvent(TraceBuilder::State& st, const RawEvent& ev, uint32_t track, TimeNs ts) {
    if (ev.memDeviceType < 0 || ev.memDeviceType > INT16_MAX || ev.memBytes == RawEvent::kNoBytes)
        return;
    MemoryEvent m;
    m.ts = ts;
    m.bytes = ev.memBytes;
    m.totalAllocated = ev.memTotalAllocated;
    m.totalReserved = ev.memTotalReserved;
    m.track = track;
    m.deviceType = static_cast<int16_t>(ev.memDeviceType);
    m.deviceId = ev.memDeviceType == 0 ? -1 : ev.memDeviceId;
    if (ev.hasMemAddress) {
        m.address = ev.memAddress;
        m.flags |= kMemoryEventHasAddress;
    }
    if (!ev.memOpName.empty()) m.op = st.trace.strings.intern(ev.memOpName);
    st.makeRoom(st.memoryEvents, ev.offset);
    st.memoryEvents.push_back(m);
}

}  // namespace

void ingestInstant(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts) {
    Trace& t = st.trace;
    const uint32_t proc = st.process(st.idKey(ev.pid));
    Instant in;
    in.ts = ts;
    in.name = t.strings.intern(ev.name);
    in.category = st.category(ev.cat);
    in.scope = ev.phase == Phase::ProcessInstant
                   ? 'p'
                   : (ev.scope == 'g' || ev.scope == 'p' ? ev.scope : 't');
    in.args = st.storeArgs(ev);
    TrackKey key{proc, st.tidKey(ev), SubTrack::Thread, 0};
    if (in.scope != 't') key = {proc, IdKey::fromNumber(0), SubTrack::Instants, 0};
    if (in.scope == 'g') {
        // Global instants live in a synthetic process listed last.
        key.process = st.process(IdKey::fromText(t.strings.intern("Global")));
        st.processes[key.process].sortIndex = INT64_MAX;
        st.processes[key.process].hasSortIndex = true;
    }
    const uint32_t tr = st.track(key);
    PendingTrack& track = st.tracks[tr];
    st.makeRoom(track.instants, ev.offset);
    track.instants.push_back(in);
    if (ev.name == "[memory]") {
        addMemoryPoint(st, ev, proc, ts);
        addMemoryEvent(st, ev, tr, ts);
    }
}

void ingestCounter(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts) {
    const uint32_t proc = st.process(st.idKey(ev.pid));
    // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict, a known false
    // positive) on `" " + std::to_string(...)` here.
    std::string base(ev.name);
    if (ev.id.kind == RawId::Kind::Number) base.append(" ").append(std::to_string(ev.id.number));
    if (ev.id.kind == RawId::Kind::Text) base.append(" ").append(ev.id.text);
    base.append(" ");
    const size_t prefix = base.size();
    for (const CounterValue& cv : ev.counterValues) {
        base.resize(prefix);
        base.append(cv.key);
        CounterSeries& cs = st.trace.counters[st.counter(proc, base)];
        st.makeRoom(cs.ts, ev.offset);
        st.makeRoom(cs.values, ev.offset);
        cs.ts.push_back(ts);
        cs.values.push_back(cv.value);
    }
}

void ingestMetadata(TraceBuilder::State& st, const RawEvent& ev) {
    Trace& t = st.trace;
    const uint32_t proc = st.process(st.idKey(ev.pid));
    Process& p = st.processes[proc];
    if (ev.name == "process_name" && ev.hasMetaName) {
        p.name = t.strings.intern(ev.metaName);
    } else if (ev.name == "process_labels" && ev.hasMetaLabels) {
        p.labels = t.strings.intern(ev.metaLabels);
    } else if (ev.name == "process_sort_index" && ev.hasSortIndex) {
        p.sortIndex = ev.sortIndex;
        p.hasSortIndex = true;
    } else if (ev.name == "thread_name" && ev.hasMetaName) {
        PendingTrack& tr = st.tracks[st.track({proc, st.tidKey(ev), SubTrack::Thread, 0})];
        tr.threadName = t.strings.intern(ev.metaName);
        tr.hasThreadName = true;
    } else if (ev.name == "thread_sort_index" && ev.hasSortIndex) {
        PendingTrack& tr = st.tracks[st.track({proc, st.tidKey(ev), SubTrack::Thread, 0})];
        tr.sortIndex = ev.sortIndex;
        tr.hasSortIndex = true;
    }
}

void ingestFlowPoint(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq) {
    const char ph = phaseLetter(ev.phase);
    const uint32_t proc = st.process(st.idKey(ev.pid));
    FlowPoint fp;
    fp.track = st.track({proc, st.tidKey(ev), SubTrack::Thread, 0});
    fp.ts = ts;
    fp.seq = seq;
    fp.phase = ph;
    fp.bindEnclosing = ev.bindEnclosing || ph != 'f';
    fp.category = st.category(ev.cat);
    fp.name = st.trace.strings.intern(ev.name);
    const RawId& id = ev.id2.kind != RawId::Kind::Absent ? ev.id2 : ev.id;
    fp.key = {fp.category, st.idKey(id),
              ev.id2.kind != RawId::Kind::Absent && ev.id2Local ? proc : kNone};
    st.flowPoints.push_back(fp);
}

void ingestAsyncPoint(TraceBuilder::State& st, const RawEvent& ev, TimeNs ts, uint32_t seq) {
    const char ph = phaseLetter(ev.phase);
    const uint32_t proc = st.process(st.idKey(ev.pid));
    AsyncPoint ap;
    ap.process = proc;
    ap.ts = ts;
    ap.seq = seq;
    ap.phase = ph;
    ap.name = st.trace.strings.intern(ev.name);
    ap.category = st.category(ev.cat);
    ap.offset = ev.offset;
    if (ph == 'b' || ph == 'S') ap.args = st.storeArgs(ev);
    const RawId& id = ev.id2.kind != RawId::Kind::Absent ? ev.id2 : ev.id;
    const bool local = ev.id2.kind != RawId::Kind::Absent ? ev.id2Local : true;
    ap.key = {ap.category, st.idKey(id), local ? proc : kNone};
    st.asyncPoints.push_back(ap);
}

}  // namespace gapscope
