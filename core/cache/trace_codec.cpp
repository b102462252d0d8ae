#include "cache/trace_codec.h"

#include <algorithm>
#include <set>
#include <type_traits>

#include "format/args_decoder.h"
#include "model/earliest_slices.h"
#include "model/trace_schema.h"

namespace gapscope {
namespace {

bool asBool(uint8_t v) {
    if (v > 1) throw CacheCorrupt("a flag is out of range");
    return v != 0;
}

template <class E>
E asEnum(uint8_t v, E last) {
    if (v > static_cast<uint8_t>(last)) throw CacheCorrupt("an enum is out of range");
    return static_cast<E>(v);
}

template <class T>
struct IsVector : std::false_type {};
template <class T, class A>
struct IsVector<std::vector<T, A>> : std::true_type {};

// Each field as it is in memory: scalars and enums as their bytes, bools
// as one byte, strings and vectors with their length.
struct FieldWriter {
    CacheWriter& out;
    template <class F>
    void operator()(const char*, const F& field, schema::Ref) const {
        if constexpr (std::is_same_v<F, std::string>) {
            out.string(field);
        } else if constexpr (IsVector<F>::value) {
            out.podVector(field);
        } else if constexpr (std::is_same_v<F, IdKey>) {
            out.pod(field.number);
            out.pod(field.text);
            out.pod<uint8_t>(field.isText);
        } else if constexpr (std::is_same_v<F, bool>) {
            out.pod<uint8_t>(field);
        } else if constexpr (std::is_enum_v<F>) {
            out.pod<uint8_t>(static_cast<uint8_t>(field));
        } else {
            out.pod(field);
        }
    }
};

// The same back, every bool and enum checked.
struct FieldReader {
    CacheReader& in;
    template <class F>
    void operator()(const char*, F& field, schema::Ref) const {
        if constexpr (std::is_same_v<F, std::string>) {
            field = in.string();
        } else if constexpr (IsVector<F>::value) {
            in.podVector(field);
        } else if constexpr (std::is_same_v<F, IdKey>) {
            field.number = in.pod<int64_t>();
            field.text = in.pod<StringId>();
            field.isText = asBool(in.pod<uint8_t>());
        } else if constexpr (std::is_same_v<F, bool>) {
            field = asBool(in.pod<uint8_t>());
        } else if constexpr (std::is_enum_v<F>) {
            field = asEnum(in.pod<uint8_t>(), schema::lastOf<F>());
        } else {
            field = in.pod<F>();
        }
    }
};

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
    schema::fields(r, FieldWriter{out});
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
    out.podVector(r.orphanFlowSlices);
}

void readReport(CacheReader& in, ImportReport& r) {
    schema::fields(r, FieldReader{in});
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
    // (Slice ids: Trace Health uses only those inside the trace; a crafted
    // file's longer list is cut to what the import keeps.)
    in.podVector(r.orphanFlowSlices);
    if (r.orphanFlowSlices.size() > kExampleSlices) r.orphanFlowSlices.resize(kExampleSlices);
}

void writeProcesses(const Trace& t, CacheWriter& out) {
    out.pod<uint64_t>(t.processes.size());
    for (const Process& p : t.processes)
        schema::fields(p, FieldWriter{out});
}

void readProcesses(CacheReader& in, Trace& t) {
    t.processes.resize(static_cast<size_t>(in.count(32)));
    for (Process& p : t.processes)
        schema::fields(p, FieldReader{in});
}

// A track's fields, then its rows and its interval index's arrays.
void writeTracks(const Trace& t, CacheWriter& out) {
    out.pod<uint64_t>(t.tracks.size());
    for (const Track& k : t.tracks) {
        schema::fields(k, FieldWriter{out});
        out.podVector(k.rows);
        out.pod(k.index.base());
        out.pod<int32_t>(k.index.shift());
        out.podVector(k.index.order());
        out.podVector(k.index.maxEnds());
    }
}

void readTracks(CacheReader& in, Trace& t) {
    t.tracks.resize(static_cast<size_t>(in.count(64)));
    HugeVector<uint32_t> order, maxEnds;
    for (Track& k : t.tracks) {
        schema::fields(k, FieldReader{in});
        in.podVector(k.rows);
        const auto base = in.pod<int64_t>();
        const auto shift = in.pod<int32_t>();
        in.podVector(order);
        in.podVector(maxEnds);
        if (order.size() != maxEnds.size() || shift < 0 || shift > 63)
            throw CacheCorrupt("an interval index is inconsistent");
        k.index.restore(std::move(order), std::move(maxEnds), base, shift);
        order = {};
        maxEnds = {};
    }
}

// A store's own blocks, and whether it reads args from its file.
void writeArgsBlocks(const ArgsStore& store, bool fileBacked, CacheWriter& out) {
    // A file-backed store may hold owned blocks too (args a reader composed).
    out.pod<uint8_t>(fileBacked ? 1 : 0);
    out.pod<uint64_t>(store.frames().size());
    for (const auto& f : store.frames())
        out.podVector(f);
    out.podVector(store.blockStarts());
    out.pod(store.rawBytes());
}

void readArgsBlocks(CacheReader& in, ArgsStore& store, bool& fileBacked) {
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

// Whether a store of args from a file of this format and compression reads
// them from the file, as the load decides (Decoded formats: either).
void checkArgsPlace(bool fileBacked, InputFormat format, Compression compression) {
    const ArgsInFile inFile = argsInFile(format);
    if (inFile != ArgsInFile::Decoded &&
        fileBacked != (compression == Compression::None && inFile == ArgsInFile::AsText))
        throw CacheCorrupt("args storage does not match the compression and format");
    if (fileBacked && (compression != Compression::None || inFile == ArgsInFile::No))
        throw CacheCorrupt("args storage does not match the compression and format");
}

// The ranks merged into one trace, each with its part of the args store.
void writeRanks(const Trace& t, CacheWriter& out) {
    out.pod<uint64_t>(t.ranks.size());
    for (const TraceRank& r : t.ranks)
        schema::fields(r, FieldWriter{out});
    out.pod<uint8_t>(t.alignedOnStep ? 1 : 0);
    out.pod<int64_t>(t.alignedOnStep.value_or(0));
    out.pod<uint64_t>(t.argsStore.partCount());
    for (size_t i = 0; i < t.argsStore.partCount(); ++i) {
        const ArgsStore& part = t.argsStore.part(i);
        writeArgsBlocks(part, part.fileBacked(), out);
        // The file as its offsets knew it: a reopen must find it so.
        out.pod<uint64_t>(part.fileSize());
        out.pod<int64_t>(part.fileMtimeNs());
    }
}

void readRanks(CacheReader& in, Trace& t, std::vector<StoredExtras::PartFile>& partsInFile) {
    const uint64_t ranks = in.count(64);
    if (ranks > ArgsStore::kMaxParts) throw CacheCorrupt("too many ranks");
    t.ranks.resize(static_cast<size_t>(ranks));
    for (TraceRank& r : t.ranks)
        schema::fields(r, FieldReader{in});
    const bool aligned = asBool(in.pod<uint8_t>());
    const auto step = in.pod<int64_t>();
    if (aligned) t.alignedOnStep = step;
    const uint64_t parts = in.count(41);
    // Each rank's args are its part (model/merge_traces.h).
    if (parts != t.ranks.size() || parts > ArgsStore::kMaxParts)
        throw CacheCorrupt("the args store's parts are not the ranks");
    for (uint32_t i = 0; i < parts; ++i) {
        ArgsStore part;
        bool fileBacked = false;
        readArgsBlocks(in, part, fileBacked);
        checkArgsPlace(fileBacked, t.ranks[i].inputFormat, t.ranks[i].compression);
        const auto size = in.pod<uint64_t>();
        const auto mtimeNs = in.pod<int64_t>();
        if (fileBacked) partsInFile.push_back({i, size, mtimeNs});
        t.argsStore.adoptPart(std::move(part));
    }
}

}  // namespace

void writeTraceBody(const Trace& t, CacheWriter& out, std::string_view attachment) {
    schema::fields(t, FieldWriter{out});
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
        schema::fields(c, FieldWriter{out});
        out.podVector(c.ts);
        out.podVector(c.values);
    }
    out.podVector(t.flows);
    out.podVector(t.args);
    out.podVector(t.ids);
    out.podVector(t.launches);
    out.podVector(t.opShapes);
    out.podVector(t.collectives);
    out.podVector(t.memoryEvents);
    // A merged trace's store has only parts (written with the ranks below).
    writeArgsBlocks(t.argsStore, t.argsStore.fileBacked() && t.ranks.empty(), out);
    out.pod<uint64_t>(t.gpuDevices.size());
    for (const GpuDevice& d : t.gpuDevices) {
        schema::fields(d, FieldWriter{out});
        out.podVector(d.busy);
        out.podVector(d.instants);
    }
    writeReport(t.report, out);
    writeRanks(t, out);
    out.string(attachment);
}

void readTraceBody(CacheReader& in, Trace& t, StoredExtras& extras) {
    schema::fields(t, FieldReader{in});
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
        schema::fields(c, FieldReader{in});
        in.podVector(c.ts);
        in.podVector(c.values);
        if (c.ts.size() != c.values.size()) throw CacheCorrupt("counter samples are inconsistent");
        c.extremes.build(c.values);
    }
    in.podVector(t.flows);
    in.podVector(t.args);
    in.podVector(t.ids);
    in.podVector(t.launches);
    in.podVector(t.opShapes);
    in.podVector(t.collectives);
    in.podVector(t.memoryEvents);
    bool fileBacked = false;
    readArgsBlocks(in, t.argsStore, fileBacked);
    t.gpuDevices.resize(static_cast<size_t>(in.count(32)));
    for (GpuDevice& d : t.gpuDevices) {
        schema::fields(d, FieldReader{in});
        in.podVector(d.busy);
        in.podVector(d.instants);
    }
    readReport(in, t.report);
    readRanks(in, t, extras.partsInFile);
    // Args decoded from the file stay there for one file, not for a run's
    // folder of them (composed then): either is sound, an offset says which.
    // A merged trace's own store holds nothing: its ranks' parts do.
    if (t.ranks.empty())
        checkArgsPlace(fileBacked, t.inputFormat, t.compression);
    else if (fileBacked || !t.argsStore.frames().empty())
        throw CacheCorrupt("a merged trace's args are its ranks'");
    extras.attachment = in.string();
}

namespace {

void require(bool ok, const char* what) {
    if (!ok) throw CacheCorrupt(what);
}

bool inRange(uint32_t v, size_t n) {
    return v < n;
}

// Every reference a record's fields hold, in range (schema::Ref says of what).
class RefChecker {
  public:
    RefChecker(const Trace& t, const char* what) : t_(t), what_(what) {}
    template <class F>
    void operator()(const char*, const F& field, schema::Ref ref) const {
        if constexpr (std::is_same_v<F, IdKey>) {
            require(!field.isText || field.text < t_.strings.size(), what_);
        } else if constexpr (IsVector<F>::value) {
            for (const auto& x : field)
                check(x, ref);
        } else if constexpr (std::is_integral_v<F> && !std::is_same_v<F, bool>) {
            check(field, ref);
        }
    }

  private:
    template <class I>
    void check(I value, schema::Ref ref) const {
        using R = schema::Ref;
        const auto v = static_cast<uint64_t>(value);
        const bool none = v == kNone;
        bool ok = true;
        switch (ref) {
            case R::String:
                ok = v < t_.strings.size();
                break;
            case R::Category:
                ok = v < t_.categories.size();
                break;
            case R::Process:
                ok = v < t_.processes.size();
                break;
            case R::ProcessOrNone:
                ok = none || v < t_.processes.size();
                break;
            case R::Track:
                ok = v < t_.tracks.size();
                break;
            case R::SliceOrNone:
                ok = none || v < t_.slices.size();
                break;
            case R::ArgsOrNone:
                ok = none || v < t_.args.size();
                break;
            case R::IdsOrNone:
                ok = none || v < t_.ids.size();
                break;
            case R::LaunchOrNone:
                ok = none || v < t_.launches.size();
                break;
            default:
                break;  // a value, a time, a device, a bound (checked with its track)
        }
        require(ok, what_);
    }
    const Trace& t_;
    const char* what_;
};

template <class Records>
void checkRefs(const Trace& t, const Records& records, const char* what) {
    const RefChecker checker(t, what);
    for (const auto& r : records)
        schema::fields(r, checker);
}

// What the refs cannot say: each track's ranges, in order and in bounds,
// its rows inside them, its slices' rows and its index's entries.
void validateTracks(const Trace& t) {
    uint32_t lastSlice = 0, lastInstant = 0;
    for (const Track& k : t.tracks) {
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

// A merged trace's ranks: each one's processes, tracks and slices inside
// the trace, its devices the trace's.
void validateRanks(const Trace& t) {
    require(t.ranks.size() <= ArgsStore::kMaxParts, "ranks");
    std::set<int> devices;
    for (const GpuDevice& d : t.gpuDevices)
        devices.insert(d.index);
    auto within = [](uint32_t first, uint32_t count, size_t size) {
        return uint64_t{first} + count <= size;
    };
    for (const TraceRank& r : t.ranks) {
        require(within(r.firstProcess, r.processCount, t.processes.size()) &&
                    within(r.firstTrack, r.trackCount, t.tracks.size()) &&
                    within(r.firstSlice, r.sliceCount, t.slices.size()),
                "rank ranges");
        require(r.gpuDevices.size() == r.gpuLocalIndices.size(), "rank devices");
        for (int d : r.gpuDevices)
            require(devices.count(d) == 1, "rank devices");
    }
}

}  // namespace

void validateTrace(const Trace& t) {
    for (StringId c : t.categories)
        require(inRange(c, t.strings.size()), "category");
    checkRefs(t, t.processes, "process");
    checkRefs(t, t.tracks, "track");
    validateTracks(t);
    checkRefs(t, t.slices, "slice");
    // What a built model guarantees of times: every slice's end is a time
    // (start + dur fits, dur >= 0), each device's busy intervals are sorted
    // and disjoint, the span is in order.
    for (const Slice& s : t.slices) {
        TimeNs end = 0;
        require(s.dur >= 0 && !__builtin_add_overflow(s.start, s.dur, &end), "slice time");
    }
    for (const GpuDevice& d : t.gpuDevices)
        for (size_t i = 0; i < d.busy.size(); ++i)
            require(d.busy[i].start <= d.busy[i].end &&
                        (i == 0 || d.busy[i - 1].end <= d.busy[i].start),
                    "gpu busy intervals");
    require(!t.hasSpan || t.spanStart <= t.spanEnd, "span");
    checkRefs(t, t.instants, "instant");
    checkRefs(t, t.counters, "counter");
    for (const CounterSeries& c : t.counters)
        require(c.ts.size() == c.values.size(), "counter");
    checkRefs(t, t.flows, "flow");
    checkRefs(t, t.args, "args record");
    checkRefs(t, t.ids, "launch index");
    checkRefs(t, t.opShapes, "op shapes");
    // Looked up by binary search: strictly in the order of their args.
    for (size_t i = 1; i < t.opShapes.size(); ++i)
        require(t.opShapes[i - 1].args < t.opShapes[i].args, "op shapes out of order");
    checkRefs(t, t.collectives, "collective");
    for (size_t i = 1; i < t.collectives.size(); ++i)
        require(t.collectives[i - 1].args < t.collectives[i].args, "collectives out of order");
    checkRefs(t, t.memoryEvents, "memory event");
    for (size_t i = 1; i < t.memoryEvents.size(); ++i)
        require(t.memoryEvents[i - 1].ts <= t.memoryEvents[i].ts, "memory events out of order");
    checkRefs(t, t.gpuDevices, "gpu track");
    validateRanks(t);
    // A group is a rank of ranks merged into one trace: the analyses index
    // arrays by it.
    for (const Process& p : t.processes)
        require(p.group == 0 || p.group < t.ranks.size(), "process group");
    for (const GpuDevice& d : t.gpuDevices)
        require(d.group == 0 || d.group < t.ranks.size(), "gpu group");
}

}  // namespace gapscope
