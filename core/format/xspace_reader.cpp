#include "format/xspace_reader.h"

#include <algorithm>
#include <charconv>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "format/json_text.h"
#include "format/proto_wire.h"
#include "format/xspace_stats.h"
#include "util/load_error.h"

namespace gapscope {

using wire::Field;
using wire::WireError;
using wire::WireType;
using xspace::StatValue;

namespace {

// Field numbers of xplane.proto (tsl/profiler/protobuf/xplane.proto).
namespace XSpaceField {
constexpr uint32_t kPlanes = 1, kErrors = 2, kWarnings = 3, kHostnames = 4;
}
namespace PlaneField {
constexpr uint32_t kId = 1, kName = 2, kLines = 3, kEventMetadata = 4, kStatMetadata = 5,
                   kStats = 6;
}
namespace LineField {
constexpr uint32_t kId = 1, kName = 2, kTimestampNs = 3, kEvents = 4, kDisplayId = 10,
                   kDisplayName = 11;
}
namespace EventField {
constexpr uint32_t kMetadataId = 1, kOffsetPs = 2, kDurationPs = 3, kStats = 4, kNumOccurrences = 5;
}
namespace StatField {
constexpr uint32_t kMetadataId = 1, kDouble = 2, kUint64 = 3, kInt64 = 4, kStr = 5, kBytes = 6,
                   kRef = 7;
}
namespace MetadataField {  // XEventMetadata and XStatMetadata
constexpr uint32_t kId = 1, kName = 2, kDisplayName = 4, kStats = 5;
}

constexpr size_t kStreamChunk = 1u << 20;
// A plane arrives in pieces of at most this: a length field asks, the
// bytes decide (a hostile length stops at the end of the input).
constexpr size_t kPlaneChunk = 16u << 20;

// One event's args at most: a metadata entry with a million stats would
// otherwise be written out again for every event that names it.
constexpr size_t kMaxArgsBytes = 64u << 10;

struct Span {
    std::string_view bytes;
    uint64_t offset = 0;
};

std::string_view bytesOf(const Field& f, const char* what) {
    if (f.type != WireType::Bytes)
        throw WireError(f.offset, std::string(what) + " is not length-delimited (wire type " +
                                      std::to_string(static_cast<int>(f.type)) + ")");
    return f.bytes;
}

uint64_t varintOf(const Field& f, const char* what) {
    if (f.type != WireType::Varint)
        throw WireError(f.offset, std::string(what) + " is not a varint (wire type " +
                                      std::to_string(static_cast<int>(f.type)) + ")");
    return f.value;
}

// ps -> ns, half away from zero; false when it does not fit.
bool psToNs(int64_t ps, int64_t& ns) {
    if (ps >= 0) {
        ns = ps / 1000 + (ps % 1000 >= 500 ? 1 : 0);
    } else {
        if (ps == INT64_MIN) return false;
        ns = -((-ps) / 1000 + ((-ps) % 1000 >= 500 ? 1 : 0));
    }
    return true;
}

// The XSpace message itself, read forward from the source: top-level tags
// and lengths, and each plane's bytes.
class TopLevel {
  public:
    // `knownSize`: how many bytes the input holds (an uncompressed file's
    // size), 0 when unknown (a decompressed stream).
    TopLevel(ByteSource& source, uint64_t knownSize)
        : source_(source), buf_(kStreamChunk), knownSize_(knownSize) {}

    uint64_t offset() const { return base_ + pos_; }
    bool atEnd() { return pos_ == end_ && !fill(); }
    // A varint; false when the input ends inside it (or before it).
    bool varint(uint64_t& v) {
        v = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            if (pos_ == end_ && !fill()) return false;
            const auto b = static_cast<unsigned char>(buf_[pos_++]);
            if (shift == 63 && b > 1)
                throw WireError(offset() - 1, "a number is longer than 64 bits");
            v |= static_cast<uint64_t>(b & 0x7F) << shift;
            if (!(b & 0x80)) return true;
        }
        throw WireError(offset(), "a number is longer than 10 bytes");
    }
    // Up to `n` bytes into `out` (replaced), growing as they arrive.
    uint64_t read(uint64_t n, std::string& out) {
        out.clear();
        // A length the file is known to hold is allocated at once: no copy
        // while growing, no doubled peak. Any other grows as bytes arrive.
        if (knownSize_ > 0 && n <= knownSize_ && offset() <= knownSize_ - n)
            out.reserve(static_cast<size_t>(n));
        while (out.size() < n) {
            if (pos_ == end_ && !fill()) break;
            const size_t take =
                static_cast<size_t>(std::min<uint64_t>(n - out.size(), end_ - pos_));
            // Doubling, capped at what the length says: a few copies for a
            // real plane, never more than the input actually holds.
            if (out.capacity() < out.size() + take)
                out.reserve(std::max(out.size() + take,
                                     std::min<size_t>(static_cast<size_t>(n),
                                                      std::max(kPlaneChunk, 2 * out.capacity()))));
            out.append(buf_.data() + pos_, take);
            pos_ += take;
        }
        return out.size();
    }
    // Skips `n` bytes; how many there were.
    uint64_t skip(uint64_t n) {
        uint64_t done = 0;
        while (done < n) {
            if (pos_ == end_ && !fill()) break;
            const uint64_t take = std::min<uint64_t>(n - done, end_ - pos_);
            pos_ += static_cast<size_t>(take);
            done += take;
        }
        return done;
    }
    uint64_t filePosition() const { return source_.filePosition(); }

  private:
    bool fill() {
        if (eof_) return false;
        base_ += end_;
        pos_ = end_ = 0;
        end_ = source_.read(buf_.data(), buf_.size());
        if (end_ == 0) eof_ = true;
        return end_ > 0;
    }

    ByteSource& source_;
    std::vector<char> buf_;
    size_t pos_ = 0, end_ = 0;
    uint64_t base_ = 0;
    uint64_t knownSize_ = 0;
    bool eof_ = false;
};

}  // namespace

struct XSpaceReader::Impl {
    ByteSource& source;
    EventSink& sink;
    ImportReport& report;
    ReaderOptions options;

    RawEvent event;
    std::string args;        // the event's args, composed
    std::string planeBytes;  // the plane being decoded
    uint64_t planeIndex = 0;
    uint64_t eventsSeen = 0;

    // Per plane.
    struct EventMeta {
        std::string_view name, displayName;
        std::vector<Span> stats;
        // Its stats as args, composed the first time an event names it.
        bool composed = false;
        std::string args;  // "{...", without the closing brace; "" when none
        ExtractedArgs known;
        bool hasKnown = false;
    };
    std::unordered_map<int64_t, EventMeta> eventMeta;
    std::unordered_map<int64_t, std::string_view> statNames;
    // kernel_details parsed, by the text's address in the plane (and size).
    std::unordered_map<const char*, std::pair<size_t, ExtractedArgs>> kernelDetails;
    std::vector<Span> lines, events, stats;
    std::vector<Span> planeStats;
    uint64_t missingEventMeta = 0, missingStatMeta = 0, aggregated = 0, cutArgs = 0;
    std::unordered_set<int64_t> namedRows;  // tids whose thread name is out
    // An allocator's state after a MemoryAllocation / MemoryDeallocation.
    struct Memory {
        std::string_view allocator;
        int64_t inUse = -1;
    } memory;
    std::string counterName;

    XSpaceHost host;

    Impl(ByteSource& s, EventSink& k, ImportReport& r, ReaderOptions o, XSpaceHost h)
        : source(s), sink(k), report(r), options(std::move(o)), host(std::move(h)) {}

    // "/device:GPU:0", or "HOST /device:GPU:0" for one host of several.
    std::string hosted(std::string_view what) const {
        std::string out = host.name;
        if (!out.empty()) out += ' ';
        out.append(what);
        return out;
    }

    void checkCancel() const {
        if (options.cancel && options.cancel->isCancelled()) throw LoadCancelled();
    }

    // One XStat: its name (from the plane's stat metadata) and value.
    std::string_view decodeStat(const Span& span, StatValue& value) {
        wire::Reader r(span.bytes, span.offset);
        Field f;
        int64_t id = 0;
        bool missingRef = false;
        value = StatValue{};
        while (r.next(f)) {
            switch (f.number) {
                case StatField::kMetadataId:
                    id = static_cast<int64_t>(varintOf(f, "a stat's metadata_id"));
                    break;
                case StatField::kDouble:
                    if (f.type != WireType::Fixed64)
                        throw WireError(f.offset, "a stat's double_value is not 64-bit");
                    value.kind = StatValue::Kind::Double;
                    value.d = f.asDouble();
                    break;
                case StatField::kUint64:
                    value.kind = StatValue::Kind::Uint64;
                    value.u = varintOf(f, "a stat's uint64_value");
                    break;
                case StatField::kInt64:
                    value.kind = StatValue::Kind::Int64;
                    value.i = static_cast<int64_t>(varintOf(f, "a stat's int64_value"));
                    break;
                case StatField::kStr:
                    value.kind = StatValue::Kind::Text;
                    value.text = bytesOf(f, "a stat's str_value");
                    missingRef = false;  // the last value given is the value
                    break;
                case StatField::kBytes:
                    value.kind = StatValue::Kind::Bytes;
                    value.text = bytesOf(f, "a stat's bytes_value");
                    break;
                case StatField::kRef: {
                    const auto ref = static_cast<int64_t>(varintOf(f, "a stat's ref_value"));
                    value.kind = StatValue::Kind::Text;
                    const auto it = statNames.find(ref);
                    value.text = it == statNames.end() ? std::string_view() : it->second;
                    missingRef = it == statNames.end();
                    break;
                }
                default:
                    break;  // a newer field: skipped
            }
        }
        // A stat is counted once, whether its name or its value is missing.
        const auto it = statNames.find(id);
        if (it == statNames.end() || missingRef) ++missingStatMeta;
        return it != statNames.end() ? it->second : std::string_view();
    }

    // The stats of `spans` into args (and the known ones into the event).
    // Into `args`, at most kMaxArgsBytes: false when some were left out.
    bool addStats(const std::vector<Span>& spans, bool& first, std::string_view* stepName) {
        StatValue v;
        std::string unnamed;
        for (const Span& s : spans) {
            if (args.size() > kMaxArgsBytes) {
                StatValue note;
                note.kind = StatValue::Kind::Text;
                note.text = "(more stats left out: over 64 KiB of args)";
                xspace::appendStat(args, first, "…", note);
                return false;
            }
            std::string_view name = decodeStat(s, v);
            if (name.empty()) {
                // Piece by piece: GCC 12 at -O3 warns (-Wrestrict, a known
                // false positive) on "literal" + std::to_string(...).
                unnamed.assign("stat@").append(std::to_string(s.offset));
                name = unnamed;
            }
            if (first) args.assign(1, '{');
            xspace::appendStat(args, first, name, v);
            first = false;
            if (name == "kernel_details" && v.kind == StatValue::Kind::Text) {
                // Usually a ref_value: the same text for every launch of a
                // kernel, parsed once.
                auto [it, added] = kernelDetails.try_emplace(v.text.data());
                if (added || it->second.first != v.text.size()) {
                    ExtractedArgs parsed;
                    xspace::extractKnownStat(name, v, parsed);
                    it->second = {v.text.size(), parsed};
                }
                const ExtractedArgs& k = it->second.second;
                event.known.registersPerThread = k.registersPerThread;
                event.known.sharedMemory = k.sharedMemory;
                std::copy(std::begin(k.grid), std::end(k.grid), event.known.grid);
                std::copy(std::begin(k.block), std::end(k.block), event.known.block);
                event.known.occupancyPercent = k.occupancyPercent;
                event.hasKnown = true;
            } else if (xspace::extractKnownStat(name, v, event.known)) {
                event.hasKnown = true;
            }
            if (stepName && name == "step_name" && v.kind == StatValue::Kind::Text)
                *stepName = v.text;
            if (name == "allocator_name" && v.kind == StatValue::Kind::Text)
                memory.allocator = v.text;
            int64_t n = 0;
            if (name == "bytes_allocated" && v.integral(n) && n >= 0) memory.inUse = n;
        }
        return true;
    }

    void readMetadataEntry(const Field& entry, bool ofEvents) {
        wire::Reader r = wire::Reader::of(entry);
        Field f;
        int64_t key = 0;
        Span value;
        bool hasValue = false;
        while (r.next(f)) {
            if (f.number == 1) key = static_cast<int64_t>(varintOf(f, "a metadata key"));
            if (f.number == 2) {
                value = {bytesOf(f, "a metadata value"), f.payloadOffset};
                hasValue = true;
            }
        }
        EventMeta meta;
        std::string_view statName;
        if (hasValue) {
            wire::Reader m(value.bytes, value.offset);
            while (m.next(f)) {
                switch (f.number) {
                    case MetadataField::kName:
                        (ofEvents ? meta.name : statName) = bytesOf(f, "a metadata name");
                        break;
                    case MetadataField::kDisplayName:
                        if (ofEvents) meta.displayName = bytesOf(f, "a display_name");
                        break;
                    case MetadataField::kStats:
                        if (ofEvents) meta.stats.push_back({bytesOf(f, "a stat"), f.payloadOffset});
                        break;
                    default:
                        break;  // id (the key says it), metadata, description, child_id
                }
            }
        }
        // A later entry with the same key replaces an earlier one, as in protobuf.
        if (ofEvents) {
            eventMeta[key] = std::move(meta);
        } else {
            statNames[key] = statName;
        }
    }

    void emitMetadata(const char* name, int64_t pid, const int64_t* tid, std::string_view text,
                      const int64_t* sortIndex) {
        event.reset();
        event.hasPh = true;
        event.ph = "M";
        event.name = name;
        event.pid = {RawId::Kind::Number, pid, {}};
        if (tid) event.tid = {RawId::Kind::Number, *tid, {}};
        if (sortIndex) {
            event.hasSortIndex = true;
            event.sortIndex = *sortIndex;
        } else {
            event.hasMetaName = true;
            event.metaName = text;
        }
        sink.onEvent(event);
    }

    void decodeLine(const Span& span, int64_t pid, int64_t order) {
        wire::Reader r(span.bytes, span.offset);
        Field f;
        int64_t id = 0, displayId = 0, timestampNs = 0;
        std::string_view name, displayName;
        events.clear();
        while (r.next(f)) {
            switch (f.number) {
                case LineField::kId:
                    id = static_cast<int64_t>(varintOf(f, "a line's id"));
                    break;
                case LineField::kName:
                    name = bytesOf(f, "a line's name");
                    break;
                case LineField::kTimestampNs:
                    timestampNs = static_cast<int64_t>(varintOf(f, "a line's timestamp_ns"));
                    break;
                case LineField::kEvents:
                    events.push_back({bytesOf(f, "an event"), f.payloadOffset});
                    break;
                case LineField::kDisplayId:
                    displayId = static_cast<int64_t>(varintOf(f, "a line's display_id"));
                    break;
                case LineField::kDisplayName:
                    displayName = bytesOf(f, "a line's display_name");
                    break;
                default:
                    break;  // duration_ps and newer fields
            }
        }
        const int64_t tid = displayId != 0 ? displayId : id;
        // Lines of one display_id share a row, named and placed by the first.
        if (namedRows.insert(tid).second) {
            emitMetadata("thread_name", pid, &tid, displayName.empty() ? name : displayName,
                         nullptr);
            emitMetadata("thread_sort_index", pid, &tid, {}, &order);
        }
        for (const Span& e : events)
            decodeEvent(e, pid, tid, timestampNs);
    }

    void decodeEvent(const Span& span, int64_t pid, int64_t tid, int64_t lineNs) {
        if ((++eventsSeen & 0x3fff) == 0) {
            checkCancel();
            if (options.progress)
                options.progress(LoadPhase::Reading, source.filePosition(), options.fileSize);
        }
        wire::Reader r(span.bytes, span.offset);
        Field f;
        int64_t metadataId = 0, offsetPs = 0, durationPs = 0;
        bool isAggregate = false;
        stats.clear();
        while (r.next(f)) {
            switch (f.number) {
                case EventField::kMetadataId:
                    metadataId = static_cast<int64_t>(varintOf(f, "an event's metadata_id"));
                    break;
                case EventField::kOffsetPs:
                    offsetPs = static_cast<int64_t>(varintOf(f, "an event's offset_ps"));
                    isAggregate = false;
                    break;
                case EventField::kDurationPs:
                    durationPs = static_cast<int64_t>(varintOf(f, "an event's duration_ps"));
                    break;
                case EventField::kStats:
                    stats.push_back({bytesOf(f, "a stat"), f.payloadOffset});
                    break;
                case EventField::kNumOccurrences:
                    varintOf(f, "an event's num_occurrences");
                    isAggregate = true;
                    break;
                default:
                    break;
            }
        }
        ++report.events;
        if (isAggregate) {  // a count without a time: nothing to draw
            ++aggregated;
            return;
        }
        event.reset();
        event.hasPh = true;
        event.ph = "X";
        event.offset = span.offset;
        event.index = report.events - 1;
        event.pid = {RawId::Kind::Number, pid, {}};
        event.tid = {RawId::Kind::Number, tid, {}};
        int64_t endPs = 0, startNs = 0, endNs = 0;
        const bool fits = !__builtin_add_overflow(offsetPs, durationPs, &endPs) &&
                          psToNs(offsetPs, startNs) && psToNs(endPs, endNs) &&
                          !__builtin_add_overflow(startNs, lineNs, &startNs) &&
                          !__builtin_add_overflow(endNs, lineNs, &endNs);
        event.ts = {true, fits, fits ? startNs : 0};
        event.dur = {true, fits, fits ? endNs - startNs : 0};
        std::string_view stepName;
        memory = {};
        const auto meta = eventMeta.find(metadataId);
        std::string unnamed;
        bool first = true;
        args.clear();
        if (meta != eventMeta.end()) {
            EventMeta& m = meta->second;
            event.name = m.displayName.empty() ? m.name : m.displayName;
            if (!m.composed) {  // once per metadata entry, not per event
                m.composed = true;
                args.clear();
                bool none = true;
                if (!addStats(m.stats, none, nullptr)) ++cutArgs;
                m.args = none ? std::string() : args;
                m.known = event.known;
                m.hasKnown = event.hasKnown;
                memory = {};
            }
            args = m.args;
            first = m.args.empty();
            event.known = m.known;
            event.hasKnown = m.hasKnown;
        } else {
            ++missingEventMeta;
            unnamed.assign("event#").append(std::to_string(metadataId));
            event.name = unnamed;
        }
        if (!addStats(stats, first, &stepName)) ++cutArgs;
        if (meta != eventMeta.end() && !meta->second.displayName.empty()) {
            if (first) args.assign(1, '{');
            StatValue longName;
            longName.kind = StatValue::Kind::Text;
            longName.text = meta->second.name;
            xspace::appendStat(args, first, "long_name", longName);
            first = false;
        }
        if (!stepName.empty()) event.name = stepName;
        if (!first) args += '}';
        event.args = args;
        event.argsOffset = span.offset;
        const bool allocation = meta != eventMeta.end() &&
                                (meta->second.name == "MemoryAllocation" ||
                                 meta->second.name == "MemoryDeallocation") &&
                                memory.inUse >= 0;
        const int gpu = allocation ? gpuOfAllocator(memory.allocator) : -1;
        if (allocation && (gpu >= 0 || memory.allocator == "cpu")) {
            event.allocatorState = true;
            event.memDeviceType = gpu >= 0 ? 1 : 0;
            event.memDeviceId = gpu;
            event.memTotalAllocated = memory.inUse;
        }
        sink.onEvent(event);
        if (allocation && event.memDeviceType < 0 && fits) addAllocatorCounter(pid, event.ts.ns);
    }

    // "GPU_4_bfc" -> 4: TensorFlow's device allocators; else -1.
    static int gpuOfAllocator(std::string_view name) {
        if (name.substr(0, 4) != "GPU_") return -1;
        int n = -1;
        const auto r = std::from_chars(name.data() + 4, name.data() + name.size(), n);
        return r.ec == std::errc() && r.ptr < name.data() + name.size() && *r.ptr == '_' ? n : -1;
    }

    // Another allocator (pinned host memory, ...): its bytes in use as a
    // counter of its own, "memory <allocator>".
    void addAllocatorCounter(int64_t pid, int64_t ts) {
        counterName = "memory ";
        counterName.append(memory.allocator.empty() ? std::string_view("(unnamed allocator)")
                                                    : memory.allocator);
        const double inUse = static_cast<double>(memory.inUse);
        event.reset();
        event.hasPh = true;
        event.ph = "C";
        event.name = counterName;
        event.pid = {RawId::Kind::Number, pid, {}};
        event.ts = {true, true, ts};
        event.counterValues.push_back({"bytes in use", inUse});
        sink.onEvent(event);
    }

    // Everything about one plane: names first (they come last in the file).
    void decodePlane(uint64_t offset) {
        eventMeta.clear();
        statNames.clear();
        kernelDetails.clear();
        lines.clear();
        planeStats.clear();
        missingEventMeta = missingStatMeta = aggregated = cutArgs = 0;
        namedRows.clear();
        wire::Reader r(planeBytes, offset);
        Field f;
        std::string_view name;
        while (r.next(f)) {
            switch (f.number) {
                case PlaneField::kId:
                    varintOf(f, "a plane's id");
                    break;
                case PlaneField::kName:
                    name = bytesOf(f, "a plane's name");
                    break;
                case PlaneField::kLines:
                    lines.push_back({bytesOf(f, "a line"), f.payloadOffset});
                    break;
                case PlaneField::kEventMetadata:
                    bytesOf(f, "event metadata");
                    readMetadataEntry(f, true);
                    break;
                case PlaneField::kStatMetadata:
                    bytesOf(f, "stat metadata");
                    readMetadataEntry(f, false);
                    break;
                case PlaneField::kStats:
                    planeStats.push_back({bytesOf(f, "a plane stat"), f.payloadOffset});
                    break;
                default:
                    break;
            }
        }
        const std::string planeName =
            hosted(name.empty() ? "plane " + std::to_string(planeIndex) : std::string(name));
        if (!planeStats.empty()) {
            bool first = true;
            event.reset();
            addStats(planeStats, first, nullptr);
            if (!first) args += '}';
            sink.onMetadata("xspace plane " + planeName, first ? std::string_view("{}") : args);
        }
        if (lines.empty()) return;
        // Devices first, as the trace viewer orders them; then the host.
        const auto pid = host.pidBase + static_cast<int64_t>(planeIndex + 1);
        const bool device = name.substr(0, 8) == "/device:";
        // Hosts in file order; in each, devices first, as the trace viewer has them.
        const int64_t sortIndex = pid + (device ? 0 : int64_t{1} << 31);
        emitMetadata("process_name", pid, nullptr, planeName, nullptr);
        emitMetadata("process_sort_index", pid, nullptr, {}, &sortIndex);
        int64_t order = 0;
        for (const Span& line : lines)
            decodeLine(line, pid, ++order);
        if (missingEventMeta)
            report.warn(offset, "plane \"" + planeName + "\": " + std::to_string(missingEventMeta) +
                                    " events name metadata the plane does not have; shown as "
                                    "event#ID");
        if (missingStatMeta)
            report.warn(offset, "plane \"" + planeName + "\": " + std::to_string(missingStatMeta) +
                                    " stats name metadata the plane does not have; shown as "
                                    "stat@OFFSET");
        if (cutArgs)
            report.warn(offset, "plane \"" + planeName + "\": the args of " +
                                    std::to_string(cutArgs) +
                                    " events or metadata entries were cut at 64 KiB");
        if (aggregated)
            report.warn(offset, "plane \"" + planeName + "\": " + std::to_string(aggregated) +
                                    " aggregated events (num_occurrences, no time) are counted "
                                    "but not drawn");
    }

    void stopEarly(uint64_t at, const std::string& why) {
        report.truncated = true;
        report.warn(at, why + "; kept the " + std::to_string(planeIndex) + " planes before it");
    }

    XSpaceResult run() {
        TopLevel in(source, options.decompressed ? 0 : options.fileSize);
        XSpaceResult result;
        std::string hostnames = "[";
        try {
            readFields(in, hostnames);
        } catch (const WireError& e) {  // at the top level, after good planes
            if (report.events == 0) throw;
            stopEarly(e.offset(), std::string("malformed XSpace: ") + e.what());
        }
        if (hostnames.size() > 1) sink.onMetadata(hosted("hostnames"), hostnames + "]");
        if (planeIndex == 0 && !report.truncated)
            throw WireError(0, "an XSpace without planes (an empty profile)");
        result.planes = planeIndex;
        result.bytesRead = in.offset();
        if (options.progress)
            options.progress(LoadPhase::Reading, source.filePosition(), options.fileSize);
        return result;
    }

    // The XSpace's own fields, to the end of the input or the first problem.
    void readFields(TopLevel& in, std::string& hostnames) {
        while (!in.atEnd()) {
            checkCancel();
            const uint64_t tagAt = in.offset();
            uint64_t tag = 0;
            if (!in.varint(tag)) {
                stopEarly(tagAt, "the file ends inside a field's tag");
                break;
            }
            const uint64_t number = tag >> 3;
            const auto type = static_cast<unsigned>(tag & 7);
            if (number == 0 || type > 5 || type == 3 || type == 4) {
                const std::string what = "not an XSpace: field " + std::to_string(number) +
                                         " with wire type " + std::to_string(type) +
                                         " at the top level";
                if (planeIndex == 0) throw WireError(tagAt, what);
                stopEarly(tagAt, what);
                break;
            }
            if (type != 2) {  // a varint or fixed field XSpace does not have: skipped
                uint64_t ignored = 0;
                if (type == 0 ? !in.varint(ignored)
                              : in.skip(type == 1 ? 8 : 4) < (type == 1 ? 8u : 4u)) {
                    stopEarly(tagAt, "the file ends inside field " + std::to_string(number));
                    break;
                }
                continue;
            }
            uint64_t length = 0;
            if (!in.varint(length)) {
                stopEarly(tagAt,
                          "the file ends inside the length of field " + std::to_string(number));
                break;
            }
            const uint64_t payloadAt = in.offset();
            if (number != XSpaceField::kPlanes && number != XSpaceField::kErrors &&
                number != XSpaceField::kWarnings && number != XSpaceField::kHostnames) {
                if (in.skip(length) < length) {
                    stopEarly(tagAt, "the file ends inside field " + std::to_string(number));
                    break;
                }
                continue;
            }
            const uint64_t got = in.read(length, planeBytes);
            if (got < length) {
                std::string what = number == XSpaceField::kPlanes
                                       ? "the file ends inside plane " + std::to_string(planeIndex)
                                       : "the file ends inside field " + std::to_string(number);
                what += " (" + std::to_string(got) + " of its " + std::to_string(length) +
                        " bytes are there; that plane is left out)";
                if (planeIndex == 0 && number == XSpaceField::kPlanes)
                    throw WireError(tagAt, what + "; no complete plane");
                stopEarly(tagAt, what);
                break;
            }
            if (number == XSpaceField::kPlanes) {
                // A malformed plane after good ones: keep what came before it.
                const uint64_t before = report.events;
                try {
                    decodePlane(payloadAt);
                } catch (const WireError& e) {
                    if (report.events == 0) throw;
                    stopEarly(e.offset(), "plane " + std::to_string(planeIndex) +
                                              " is malformed: " + e.what() + " (" +
                                              std::to_string(report.events - before) +
                                              " of its events were read before it)");
                    break;
                }
                ++planeIndex;
            } else if (number == XSpaceField::kHostnames) {
                if (hostnames.size() > 1) hostnames += ',';
                appendJsonString(hostnames, planeBytes);
            } else {
                report.warn(tagAt,
                            std::string(number == XSpaceField::kErrors ? kProfilerErrorPrefix
                                                                       : kProfilerWarningPrefix) +
                                std::string(planeBytes.substr(0, 2000)));
            }
        }
    }
};

XSpaceReader::XSpaceReader(ByteSource& source, EventSink& sink, ImportReport& report,
                           ReaderOptions options, XSpaceHost host)
    : impl_(std::make_unique<Impl>(source, sink, report, std::move(options), std::move(host))) {}

XSpaceReader::~XSpaceReader() = default;

XSpaceResult XSpaceReader::run() {
    try {
        return impl_->run();
    } catch (const WireError& e) {
        throw LoadError(byteWhere(e.offset(), impl_->options.decompressed),
                        std::string("malformed XSpace: ") + e.what());
    }
}

}  // namespace gapscope
