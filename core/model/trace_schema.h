#pragma once
// The trace's schema, written once: each record's fields, in order, with
// what each refers to. The index cache's codec (write, read, validate), the
// canonical dump and the merge of ranks visit these lists rather than
// naming fields themselves, so a field added to a record is one line here
// and every one of them handles it (tst_trace_schema fails to compile until
// the list has it, and checks that a trace whose every field holds a value
// other than its default survives the cache and the dump).
//
// A visitor is called as v(name, field, ref) for each field, where `field`
// is a scalar, an enum, an IdKey, a std::string or a std::vector of
// scalars; what a record holds beyond its fields (a track's rows and
// interval index, a device's busy intervals, a series' samples) each user
// handles itself, as the comments below say.

#include <type_traits>

#include "model/trace.h"

namespace gapscope::schema {

// What a field's value is, for those that check it (validate: is it in
// range?) and those that move it (merge: the merged trace's index for it).
enum class Ref : uint8_t {
    None,      // a plain value
    Time,      // a point in time (ns): moves with a rank's alignment
    Key,       // an IdKey (a pid or tid): its text is a string
    String,    // a StringId
    Category,  // an index into Trace::categories
    Process,   // an index into Trace::processes
    ProcessOrNone,
    Track,  // an index into Trace::tracks
    SliceOrNone,
    SliceBound,    // one end of a track's [begin, end) of slices
    InstantBound,  // one end of a track's [begin, end) of instants
    ArgsOrNone,
    IdsOrNone,
    LaunchOrNone,
    Device,       // a GPU index (-1: none)
    Correlation,  // an id shared by a launch and its work (-1: none)
};

template <class T, class Record>
concept Is = std::is_same_v<std::remove_const_t<T>, Record>;

// The last value of each enum a field holds (readers check stored values
// against it; a new enum in a field does not compile until it has one).
template <class E>
E lastOf() = delete;
template <>
constexpr ProcessKind lastOf<ProcessKind>() {
    return ProcessKind::Gpu;
}
template <>
constexpr TrackKind lastOf<TrackKind>() {
    return TrackKind::Instants;
}
template <>
constexpr MemoryCurve lastOf<MemoryCurve>() {
    return MemoryCurve::Reserved;
}
template <>
constexpr Compression lastOf<Compression>() {
    return Compression::Zstd;
}
template <>
constexpr InputFormat lastOf<InputFormat>() {
    return kLastInputFormat;
}
template <>
constexpr Producer lastOf<Producer>() {
    return kLastProducer;
}

template <class P, class V>
requires Is<P, Process>
void fields(P& p, V&& v) {
    v("pid", p.pid, Ref::Key);
    v("name", p.name, Ref::String);
    v("labels", p.labels, Ref::String);
    v("sortIndex", p.sortIndex, Ref::None);
    v("hasSortIndex", p.hasSortIndex, Ref::None);
    v("kind", p.kind, Ref::None);
    v("gpuDevice", p.gpuDevice, Ref::Device);
    v("displayName", p.displayName, Ref::None);
    v("group", p.group, Ref::None);
    v("tracks", p.tracks, Ref::Track);
}

// Not here: rows (each user's own), index (rebuilt or stored as its arrays),
// rowBreaks (derived).
template <class T, class V>
requires Is<T, Track>
void fields(T& t, V&& v) {
    v("kind", t.kind, Ref::None);
    v("process", t.process, Ref::Process);
    v("tid", t.tid, Ref::Key);
    v("threadName", t.threadName, Ref::String);
    v("displayName", t.displayName, Ref::None);
    v("sortIndex", t.sortIndex, Ref::None);
    v("hasSortIndex", t.hasSortIndex, Ref::None);
    v("gpuDevice", t.gpuDevice, Ref::Device);
    v("sliceBegin", t.sliceBegin, Ref::SliceBound);
    v("sliceEnd", t.sliceEnd, Ref::SliceBound);
    v("instantBegin", t.instantBegin, Ref::InstantBound);
    v("instantEnd", t.instantEnd, Ref::InstantBound);
    v("laneCount", t.laneCount, Ref::None);
}

template <class S, class V>
requires Is<S, Slice>
void fields(S& s, V&& v) {
    v("start", s.start, Ref::Time);
    v("dur", s.dur, Ref::None);
    v("name", s.name, Ref::String);
    v("args", s.args, Ref::ArgsOrNone);
    v("category", s.category, Ref::Category);
    v("depth", s.depth, Ref::None);
    v("row", s.row, Ref::None);
    v("flags", s.flags, Ref::None);
}

template <class I, class V>
requires Is<I, Instant>
void fields(I& i, V&& v) {
    v("ts", i.ts, Ref::Time);
    v("name", i.name, Ref::String);
    v("args", i.args, Ref::ArgsOrNone);
    v("track", i.track, Ref::Track);
    v("category", i.category, Ref::Category);
    v("scope", i.scope, Ref::None);
}

// Not here: the samples (ts, values) and extremes (rebuilt from them).
template <class C, class V>
requires Is<C, CounterSeries>
void fields(C& c, V&& v) {
    v("process", c.process, Ref::ProcessOrNone);
    v("name", c.name, Ref::String);
    v("memory", c.memory, Ref::None);
    v("memoryDevice", c.memoryDevice, Ref::Device);
    v("relative", c.relative, Ref::None);
}

template <class F, class V>
requires Is<F, Flow>
void fields(F& f, V&& v) {
    v("from", f.from, Ref::SliceOrNone);
    v("to", f.to, Ref::SliceOrNone);
    v("name", f.name, Ref::String);
    v("category", f.category, Ref::Category);
    v("kind", f.kind, Ref::None);
    v("reserved", f.reserved, Ref::None);
}

template <class A, class V>
requires Is<A, ArgsRecord>
void fields(A& a, V&& v) {
    v("offset", a.offset, Ref::None);
    v("length", a.length, Ref::None);
    v("extracted", a.extracted, Ref::IdsOrNone);
}

template <class X, class V>
requires Is<X, ArgIds>
void fields(X& x, V&& v) {
    v("correlation", x.correlation, Ref::Correlation);
    v("externalId", x.externalId, Ref::Correlation);
    v("device", x.device, Ref::Device);
    v("stream", x.stream, Ref::None);
    v("launch", x.launch, Ref::LaunchOrNone);
    v("stepNumber", x.stepNumber, Ref::None);
}

template <class L, class V>
requires Is<L, LaunchParams>
void fields(L& l, V&& v) {
    for (int i = 0; i < 3; ++i)
        v("grid", l.grid[i], Ref::None);
    for (int i = 0; i < 3; ++i)
        v("block", l.block[i], Ref::None);
    v("registersPerThread", l.registersPerThread, Ref::None);
    v("occupancyPercent", l.occupancyPercent, Ref::None);
    v("sharedMemory", l.sharedMemory, Ref::None);
    v("bytes", l.bytes, Ref::None);
}

template <class O, class V>
requires Is<O, OpShapes>
void fields(O& o, V&& v) {
    v("args", o.args, Ref::ArgsOrNone);
    v("shapes", o.shapes, Ref::String);
    v("flops", o.flops, Ref::None);
    v("bytes", o.bytes, Ref::None);
}

template <class C, class V>
requires Is<C, CollectiveArgs>
void fields(C& c, V&& v) {
    v("args", c.args, Ref::ArgsOrNone);
    v("name", c.name, Ref::String);
    v("type", c.type, Ref::String);
    v("reserved", c.reserved, Ref::None);
    v("inElements", c.inElements, Ref::None);
    v("outElements", c.outElements, Ref::None);
    v("groupSize", c.groupSize, Ref::None);
}

template <class M, class V>
requires Is<M, MemoryEvent>
void fields(M& m, V&& v) {
    v("ts", m.ts, Ref::Time);
    v("address", m.address, Ref::None);
    v("bytes", m.bytes, Ref::None);
    v("totalAllocated", m.totalAllocated, Ref::None);
    v("totalReserved", m.totalReserved, Ref::None);
    v("track", m.track, Ref::Track);
    v("deviceId", m.deviceId, Ref::Device);
    v("deviceType", m.deviceType, Ref::None);
    v("flags", m.flags, Ref::None);
    v("op", m.op, Ref::String);
}

// Not here: busy and instants (each user's own: times to move, intervals).
template <class D, class V>
requires Is<D, GpuDevice>
void fields(D& d, V&& v) {
    v("index", d.index, Ref::Device);
    v("name", d.name, Ref::None);
    v("busyNs", d.busyNs, Ref::None);
    v("group", d.group, Ref::None);
    v("tracks", d.tracks, Ref::Track);
}

template <class R, class V>
requires Is<R, TraceRank>
void fields(R& r, V&& v) {
    v("rank", r.rank, Ref::None);
    v("host", r.host, Ref::None);
    v("file", r.file, Ref::None);
    v("part", r.part, Ref::None);
    v("inputFormat", r.inputFormat, Ref::None);
    v("compression", r.compression, Ref::None);
    v("offset", r.offset, Ref::None);
    v("firstProcess", r.firstProcess, Ref::None);
    v("processCount", r.processCount, Ref::None);
    v("firstTrack", r.firstTrack, Ref::None);
    v("trackCount", r.trackCount, Ref::None);
    v("firstSlice", r.firstSlice, Ref::None);
    v("sliceCount", r.sliceCount, Ref::None);
    v("gpuDevices", r.gpuDevices, Ref::None);
    v("gpuLocalIndices", r.gpuLocalIndices, Ref::None);
}

// The report's counts (its maps and warnings are each user's own; not
// eventsParsedAhead: how the load ran, neither cached nor dumped).
template <class R, class V>
requires Is<R, ImportReport>
void fields(R& r, V&& v) {
    v("events", r.events, Ref::None);
    v("withoutPhase", r.withoutPhase, Ref::None);
    v("invalidEvents", r.invalidEvents, Ref::None);
    v("unmatchedEnds", r.unmatchedEnds, Ref::None);
    v("unclosedBegins", r.unclosedBegins, Ref::None);
    v("overlapsMovedToLanes", r.overlapsMovedToLanes, Ref::None);
    v("negativeDurations", r.negativeDurations, Ref::None);
    v("unresolvedFlows", r.unresolvedFlows, Ref::None);
    v("orphanFlowEvents", r.orphanFlowEvents, Ref::None);
    v("truncated", r.truncated, Ref::None);
    v("rankClockDisagreements", r.rankClockDisagreements, Ref::None);
    v("suppressedWarnings", r.suppressedWarnings, Ref::None);
}

// The trace's own scalars (where it came from and its span).
template <class T, class V>
requires Is<T, Trace>
void fields(T& t, V&& v) {
    v("compression", t.compression, Ref::None);
    v("objectForm", t.objectForm, Ref::None);
    v("inputFormat", t.inputFormat, Ref::None);
    v("producer", t.producer, Ref::None);
    v("fileSize", t.fileSize, Ref::None);
    v("decompressedSize", t.decompressedSize, Ref::None);
    v("displayTimeUnit", t.displayTimeUnit, Ref::None);
    v("spanStart", t.spanStart, Ref::None);
    v("spanEnd", t.spanEnd, Ref::None);
    v("hasSpan", t.hasSpan, Ref::None);
}

// How many fields fields() visits for a record (the schema test holds it
// against the record's member count).
template <class R>
size_t fieldCount() {
    R r{};
    size_t n = 0;
    fields(r, [&n](const char*, auto&, Ref) { ++n; });
    return n;
}

}  // namespace gapscope::schema
