#include "cache/trace_codec.h"

#include <algorithm>

namespace gapscope {
namespace {

// Fixed-layout records for the per-object scalars (one hash call each).
struct ProcessRecord {
    int64_t pidNumber;
    int64_t sortIndex;
    uint32_t pidText;
    uint32_t name;
    uint32_t labels;
    int32_t gpuDevice;
    uint8_t pidIsText;
    uint8_t hasSortIndex;
    uint8_t kind;
    uint8_t pad = 0;
};

struct TrackRecord {
    int64_t tidNumber;
    int64_t sortIndex;
    int64_t indexBase;
    uint32_t tidText;
    uint32_t process;
    uint32_t threadName;
    int32_t gpuDevice;
    uint32_t sliceBegin, sliceEnd, instantBegin, instantEnd;
    int32_t indexShift;
    uint16_t laneCount;
    uint8_t tidIsText;
    uint8_t hasSortIndex;
    uint8_t kind;
    uint8_t pad[7] = {};
};

bool asBool(uint8_t v) {
    if (v > 1) throw CacheCorrupt("a flag is out of range");
    return v != 0;
}

template <class E>
E asEnum(uint8_t v, E last) {
    if (v > static_cast<uint8_t>(last)) throw CacheCorrupt("an enum is out of range");
    return static_cast<E>(v);
}

void writeStrings(const StringTable& strings, CacheWriter& out) {
    std::vector<uint32_t> lengths(strings.size());
    std::string blob;
    for (size_t i = 0; i < strings.size(); ++i) {
        const std::string_view s = strings.view(static_cast<StringId>(i));
        lengths[i] = static_cast<uint32_t>(s.size());
        blob.append(s);
    }
    out.podVector(lengths);
    out.string(blob);
}

void readStrings(CacheReader& in, StringTable& strings) {
    std::vector<uint32_t> lengths;
    in.podVector(lengths);
    const std::string blob = in.string();
    size_t at = 0;
    if (lengths.empty() || lengths[0] != 0) throw CacheCorrupt("string 0 must be empty");
    for (size_t i = 1; i < lengths.size(); ++i) {
        if (lengths[i] > blob.size() - at) throw CacheCorrupt("strings overrun");
        const StringId id = strings.intern(std::string_view(blob).substr(at, lengths[i]));
        if (id != i) throw CacheCorrupt("duplicate string");
        at += lengths[i];
    }
    if (at != blob.size()) throw CacheCorrupt("strings underrun");
}

void writeReport(const ImportReport& r, CacheWriter& out) {
    const uint64_t counts[] = {
        r.events,           r.withoutPhase,         r.invalidEvents,      r.unmatchedEnds,
        r.unclosedBegins,   r.overlapsMovedToLanes, r.negativeDurations,  r.unresolvedFlows,
        r.orphanFlowEvents, r.suppressedWarnings,   r.truncated ? 1u : 0u};
    out.bytes(counts, sizeof counts);
    for (const auto* m : {&r.phases, &r.skipped, &r.unknown}) {
        out.pod<uint64_t>(m->size());
        for (const auto& [k, v] : *m) {
            out.string(k);
            out.pod(v);
        }
    }
    out.pod<uint64_t>(r.warnings.size());
    for (const ImportWarning& w : r.warnings) {
        out.pod(w.offset);
        out.string(w.message);
    }
}

void readReport(CacheReader& in, ImportReport& r) {
    uint64_t counts[11];
    in.bytes(counts, sizeof counts);
    r.events = counts[0];
    r.withoutPhase = counts[1];
    r.invalidEvents = counts[2];
    r.unmatchedEnds = counts[3];
    r.unclosedBegins = counts[4];
    r.overlapsMovedToLanes = counts[5];
    r.negativeDurations = counts[6];
    r.unresolvedFlows = counts[7];
    r.orphanFlowEvents = counts[8];
    r.suppressedWarnings = counts[9];
    r.truncated = asBool(static_cast<uint8_t>(counts[10] & 0xff));
    for (auto* m : {&r.phases, &r.skipped, &r.unknown}) {
        const uint64_t n = in.count(16);
        for (uint64_t i = 0; i < n; ++i) {
            std::string k = in.string();
            (*m)[std::move(k)] = in.pod<uint64_t>();
        }
    }
    const uint64_t n = in.count(16);
    for (uint64_t i = 0; i < n; ++i) {
        ImportWarning w;
        w.offset = in.pod<uint64_t>();
        w.message = in.string();
        r.warnings.push_back(std::move(w));
    }
}

void writeProcesses(const Trace& t, CacheWriter& out) {
    out.pod<uint64_t>(t.processes.size());
    for (const Process& p : t.processes) {
        ProcessRecord rec{};
        rec.pidNumber = p.pid.number;
        rec.pidText = p.pid.text;
        rec.pidIsText = p.pid.isText;
        rec.name = p.name;
        rec.labels = p.labels;
        rec.sortIndex = p.sortIndex;
        rec.hasSortIndex = p.hasSortIndex;
        rec.kind = static_cast<uint8_t>(p.kind);
        rec.gpuDevice = p.gpuDevice;
        out.pod(rec);
        out.string(p.displayName);
        out.podVector(p.tracks);
    }
}

void readProcesses(CacheReader& in, Trace& t) {
    const uint64_t n = in.count(sizeof(ProcessRecord));
    t.processes.resize(static_cast<size_t>(n));
    for (Process& p : t.processes) {
        const auto rec = in.pod<ProcessRecord>();
        p.pid = IdKey{rec.pidNumber, rec.pidText, asBool(rec.pidIsText)};
        p.name = rec.name;
        p.labels = rec.labels;
        p.sortIndex = rec.sortIndex;
        p.hasSortIndex = asBool(rec.hasSortIndex);
        p.kind = asEnum(rec.kind, ProcessKind::Gpu);
        p.gpuDevice = rec.gpuDevice;
        p.displayName = in.string();
        in.podVector(p.tracks);
    }
}

void writeTracks(const Trace& t, CacheWriter& out) {
    out.pod<uint64_t>(t.tracks.size());
    for (const Track& k : t.tracks) {
        TrackRecord rec{};
        rec.kind = static_cast<uint8_t>(k.kind);
        rec.process = k.process;
        rec.tidNumber = k.tid.number;
        rec.tidText = k.tid.text;
        rec.tidIsText = k.tid.isText;
        rec.threadName = k.threadName;
        rec.sortIndex = k.sortIndex;
        rec.hasSortIndex = k.hasSortIndex;
        rec.gpuDevice = k.gpuDevice;
        rec.sliceBegin = k.sliceBegin;
        rec.sliceEnd = k.sliceEnd;
        rec.instantBegin = k.instantBegin;
        rec.instantEnd = k.instantEnd;
        rec.laneCount = k.laneCount;
        rec.indexBase = k.index.base();
        rec.indexShift = k.index.shift();
        out.pod(rec);
        out.string(k.displayName);
        out.podVector(k.rows);
        out.podVector(k.index.order());
        out.podVector(k.index.maxEnds());
    }
}

void readTracks(CacheReader& in, Trace& t) {
    const uint64_t n = in.count(sizeof(TrackRecord));
    t.tracks.resize(static_cast<size_t>(n));
    HugeVector<uint32_t> order, maxEnds;
    for (Track& k : t.tracks) {
        const auto rec = in.pod<TrackRecord>();
        k.kind = asEnum(rec.kind, TrackKind::Instants);
        k.process = rec.process;
        k.tid = IdKey{rec.tidNumber, rec.tidText, asBool(rec.tidIsText)};
        k.threadName = rec.threadName;
        k.sortIndex = rec.sortIndex;
        k.hasSortIndex = asBool(rec.hasSortIndex);
        k.gpuDevice = rec.gpuDevice;
        k.sliceBegin = rec.sliceBegin;
        k.sliceEnd = rec.sliceEnd;
        k.instantBegin = rec.instantBegin;
        k.instantEnd = rec.instantEnd;
        k.laneCount = rec.laneCount;
        k.displayName = in.string();
        in.podVector(k.rows);
        in.podVector(order);
        in.podVector(maxEnds);
        if (order.size() != maxEnds.size() || rec.indexShift < 0 || rec.indexShift > 63)
            throw CacheCorrupt("an interval index is inconsistent");
        k.index.restore(std::move(order), std::move(maxEnds), rec.indexBase, rec.indexShift);
        order = {};
        maxEnds = {};
    }
}

void writeArgsStore(const ArgsStore& store, CacheWriter& out) {
    // A file-backed store may hold owned blocks too (args a reader composed).
    out.pod<uint8_t>(store.fileBacked() ? 1 : 0);
    out.pod<uint64_t>(store.frames().size());
    for (const auto& f : store.frames())
        out.podVector(f);
    out.podVector(store.blockStarts());
    out.pod(store.rawBytes());
}

void readArgsStore(CacheReader& in, ArgsStore& store, bool& fileBacked) {
    fileBacked = asBool(in.pod<uint8_t>());
    ArgsStore::Blocks b;
    b.frames.resize(static_cast<size_t>(in.count(8)));
    for (auto& f : b.frames)
        in.podVector(f);
    in.podVector(b.starts);
    b.rawBytes = in.pod<uint64_t>();
    if (b.starts.size() != b.frames.size()) throw CacheCorrupt("args blocks are inconsistent");
    for (size_t i = 0; i < b.starts.size(); ++i) {
        const uint64_t end = i + 1 < b.starts.size() ? b.starts[i + 1] : b.rawBytes;
        // A block holds whole args texts, each at most the event size limit.
        if ((i == 0 && b.starts[0] != 0) || end < b.starts[i] || end - b.starts[i] > (1u << 30))
            throw CacheCorrupt("args blocks are inconsistent");
    }
    store.restore(std::move(b));
}

}  // namespace

void writeTraceBody(const Trace& t, CacheWriter& out) {
    out.pod<uint8_t>(static_cast<uint8_t>(t.compression));
    out.pod<uint8_t>(t.objectForm);
    out.pod<uint8_t>(static_cast<uint8_t>(t.inputFormat));
    out.pod<uint8_t>(t.hasSpan);
    out.pod(t.fileSize);
    out.pod(t.decompressedSize);
    out.pod(t.spanStart);
    out.pod(t.spanEnd);
    out.string(t.displayTimeUnit);
    out.pod<uint64_t>(t.metadata.size());
    for (const auto& [k, v] : t.metadata) {
        out.string(k);
        out.string(v);
    }
    writeStrings(t.strings, out);
    out.podVector(t.categories);
    writeProcesses(t, out);
    writeTracks(t, out);
    out.podVector(t.slices);
    out.podVector(t.instants);
    out.pod<uint64_t>(t.counters.size());
    for (const CounterSeries& c : t.counters) {
        out.pod(c.process);
        out.pod(c.name);
        out.pod(static_cast<uint8_t>(c.memory));
        out.pod(c.memoryDevice);
        out.pod(static_cast<uint8_t>(c.relative));
        out.podVector(c.ts);
        out.podVector(c.values);
    }
    out.podVector(t.flows);
    out.podVector(t.args);
    out.podVector(t.ids);
    out.podVector(t.launches);
    writeArgsStore(t.argsStore, out);
    out.pod<uint64_t>(t.gpuDevices.size());
    for (const GpuDevice& d : t.gpuDevices) {
        out.pod<int64_t>(d.index);
        out.pod(d.busyNs);
        out.string(d.name);
        out.podVector(d.tracks);
        out.podVector(d.busy);
        out.podVector(d.instants);
    }
    writeReport(t.report, out);
}

void readTraceBody(CacheReader& in, Trace& t) {
    t.compression = asEnum(in.pod<uint8_t>(), Compression::Zstd);
    t.objectForm = asBool(in.pod<uint8_t>());
    t.inputFormat = asEnum(in.pod<uint8_t>(), InputFormat::NsightSqlite);
    t.hasSpan = asBool(in.pod<uint8_t>());
    t.fileSize = in.pod<uint64_t>();
    t.decompressedSize = in.pod<uint64_t>();
    t.spanStart = in.pod<TimeNs>();
    t.spanEnd = in.pod<TimeNs>();
    t.displayTimeUnit = in.string();
    const uint64_t metadata = in.count(16);
    for (uint64_t i = 0; i < metadata; ++i) {
        std::string k = in.string();
        t.metadata[std::move(k)] = in.string();
    }
    readStrings(in, t.strings);
    in.podVector(t.categories);
    readProcesses(in, t);
    readTracks(in, t);
    in.podVector(t.slices);
    in.podVector(t.instants);
    t.counters.resize(static_cast<size_t>(in.count(24)));
    for (CounterSeries& c : t.counters) {
        c.process = in.pod<uint32_t>();
        c.name = in.pod<StringId>();
        c.memory = asEnum(in.pod<uint8_t>(), MemoryCurve::Reserved);
        c.memoryDevice = in.pod<int32_t>();
        c.relative = asBool(in.pod<uint8_t>());
        in.podVector(c.ts);
        in.podVector(c.values);
        if (c.ts.size() != c.values.size()) throw CacheCorrupt("counter samples are inconsistent");
        c.extremes.build(c.values);
    }
    in.podVector(t.flows);
    in.podVector(t.args);
    in.podVector(t.ids);
    in.podVector(t.launches);
    bool fileBacked = false;
    readArgsStore(in, t.argsStore, fileBacked);
    if (fileBacked != (t.compression == Compression::None && argsAreInputText(t.inputFormat)))
        throw CacheCorrupt("args storage does not match the compression and format");
    t.gpuDevices.resize(static_cast<size_t>(in.count(32)));
    for (GpuDevice& d : t.gpuDevices) {
        d.index = static_cast<int>(in.pod<int64_t>());
        d.busyNs = in.pod<TimeNs>();
        d.name = in.string();
        in.podVector(d.tracks);
        in.podVector(d.busy);
        in.podVector(d.instants);
    }
    readReport(in, t.report);
}

namespace {

void require(bool ok, const char* what) {
    if (!ok) throw CacheCorrupt(what);
}

bool inRange(uint32_t v, size_t n) {
    return v < n;
}
bool noneOrIn(uint32_t v, size_t n) {
    return v == kNone || v < n;
}

void validateTracks(const Trace& t) {
    const size_t strings = t.strings.size();
    uint32_t lastSlice = 0, lastInstant = 0;
    for (const Track& k : t.tracks) {
        require(inRange(k.process, t.processes.size()), "track process");
        require(inRange(k.threadName, strings), "track name");
        require(!k.tid.isText || inRange(k.tid.text, strings), "track tid");
        require(k.sliceBegin >= lastSlice && k.sliceBegin <= k.sliceEnd &&
                    k.sliceEnd <= t.slices.size(),
                "track slice range");
        require(k.instantBegin >= lastInstant && k.instantBegin <= k.instantEnd &&
                    k.instantEnd <= t.instants.size(),
                "track instant range");
        lastSlice = k.sliceEnd;
        lastInstant = k.instantEnd;
        for (const Row& r : k.rows)
            require(r.begin >= k.sliceBegin && r.begin <= r.end && r.end <= k.sliceEnd,
                    "row range");
        for (uint32_t s = k.sliceBegin; s < k.sliceEnd; ++s)
            require(t.slices[s].row < k.rows.size(), "slice row");
        for (uint32_t id : k.index.order())
            require(id >= k.sliceBegin && id < k.sliceEnd, "index entry");
    }
}

}  // namespace

void validateTrace(const Trace& t) {
    const size_t strings = t.strings.size();
    for (StringId c : t.categories)
        require(inRange(c, strings), "category");
    for (const Process& p : t.processes) {
        require(inRange(p.name, strings) && inRange(p.labels, strings), "process name");
        require(!p.pid.isText || inRange(p.pid.text, strings), "process pid");
        for (uint32_t k : p.tracks)
            require(inRange(k, t.tracks.size()), "process track");
    }
    validateTracks(t);
    for (const Slice& s : t.slices) {
        require(inRange(s.name, strings), "slice name");
        require(noneOrIn(s.args, t.args.size()), "slice args");
        require(s.category < t.categories.size(), "slice category");
    }
    for (const Instant& i : t.instants) {
        require(inRange(i.name, strings) && noneOrIn(i.args, t.args.size()) &&
                    inRange(i.track, t.tracks.size()) && i.category < t.categories.size(),
                "instant");
    }
    for (const CounterSeries& c : t.counters) {
        require(noneOrIn(c.process, t.processes.size()) && inRange(c.name, strings) &&
                    c.ts.size() == c.values.size(),
                "counter");
    }
    for (const Flow& f : t.flows) {
        require(noneOrIn(f.from, t.slices.size()) && noneOrIn(f.to, t.slices.size()) &&
                    inRange(f.name, strings) && f.category < t.categories.size(),
                "flow");
    }
    for (const ArgsRecord& a : t.args)
        require(noneOrIn(a.extracted, t.ids.size()), "args record");
    for (const ArgIds& x : t.ids)
        require(noneOrIn(x.launch, t.launches.size()), "launch index");
    for (const GpuDevice& d : t.gpuDevices)
        for (uint32_t k : d.tracks)
            require(inRange(k, t.tracks.size()), "gpu track");
}

}  // namespace gapscope
