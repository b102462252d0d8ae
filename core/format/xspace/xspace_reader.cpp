#include "format/xspace/xspace_reader.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "format/json_text.h"
#include "format/proto_wire.h"
#include "format/xspace/file_fields.h"
#include "format/xspace/plane_in_file.h"
#include "format/xspace/xspace_plane.h"
#include "format/xspace/xspace_stats.h"
#include "util/load_error.h"

namespace gapscope {

using wire::Field;
using wire::WireError;
using wire::WireType;
using namespace xspace;

namespace {

constexpr size_t kStreamChunk = 1u << 20;
// A plane arrives in pieces of at most this: a length field asks, the
// bytes decide (a hostile length stops at the end of the input).
constexpr size_t kPlaneChunk = 16u << 20;

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
    // Skips `n` bytes; how many there were. Bytes the file is known to hold
    // are passed over by the source (a plain file seeks); others are read
    // and dropped, so a length past the end is found out.
    uint64_t skip(uint64_t n) {
        const uint64_t buffered = std::min<uint64_t>(n, end_ - pos_);
        pos_ += static_cast<size_t>(buffered);
        uint64_t done = buffered;
        const uint64_t sourceAt = base_ + end_;  // the buffer is used up when done < n
        if (done < n && sourceAt <= knownSize_ && n - done <= knownSize_ - sourceAt) {
            base_ += end_;
            pos_ = end_ = 0;
            const uint64_t passed = source_.skip(n - done);
            base_ += passed;
            done += passed;
        }
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
    std::string planeBytes;  // a plane held whole (the input is a stream), or a field's bytes
    std::string planeStore;  // a plane read where it lies: its names and stats
    std::string lineBytes;   // ... and the line being decoded
    FileBytesReader readFile;
    uint64_t planeIndex = 0;
    uint64_t eventsSeen = 0;
    uint64_t filePlace = 0;  // read where it lies: the offset reached, for progress

    // Per plane.
    PlaneParts plane;
    // A metadata entry's stats as args (and their known values), composed
    // the first time an event names it, not once per event.
    struct MetaArgs {
        std::string open;  // "{...", without the closing brace; "" when none
        ExtractedArgs known;
        bool hasKnown = false;
        bool cut = false;
        // XLA's cost analysis, where the entry records it (TPU ops' metadata).
        double flops = -1, bytesAccessed = -1;
        std::string_view resultShape;  // into the plane's names
    };
    std::unordered_map<int64_t, MetaArgs> metaArgs;
    // kernel_details parsed, by the text's address (and size): in the plane,
    // or in the line being decoded (so forgotten after each line).
    std::unordered_map<const char*, std::pair<size_t, ExtractedArgs>> kernelDetails;
    EventFields fields;
    ArgsJson args;
    std::string argsText;
    uint64_t missingEventMeta = 0, missingStatMeta = 0, aggregated = 0, cutArgs = 0;
    std::unordered_set<int64_t> namedRows;  // tids whose thread name is out
    // An allocator's state after a MemoryAllocation / MemoryDeallocation.
    struct Memory {
        std::string_view allocator;
        int64_t inUse = -1;
        // The block's, where TensorFlow's memory profiler writes them.
        // (Not bytes_reserved: what the allocator set aside apart from its
        // pool, not what it holds from the device as PyTorch's reserved.)
        int64_t address = -1, bytes = -1;
        std::string op;  // tf_op
    } memory;
    std::string counterName;

    XSpaceHost host;

    Impl(ByteSource& s, EventSink& k, ImportReport& r, ReaderOptions o, XSpaceHost h)
        : source(s), sink(k), report(r), options(std::move(o)), host(std::move(h)) {
        if (options.fileFd >= 0 && !options.decompressed) {
            const int fd = options.fileFd;
            readFile = [fd](uint64_t at, uint64_t n, std::string& out, std::string& error) {
                out.resize(static_cast<size_t>(n));
                size_t got = 0;
                while (got < out.size()) {
                    const ssize_t count = ::pread(fd, out.data() + got, out.size() - got,
                                                  static_cast<off_t>(at + got));
                    if (count < 0 && errno == EINTR) continue;
                    if (count < 0) {
                        error = "reading the file at byte " + std::to_string(at + got) +
                                " failed: " + std::strerror(errno);
                        return false;
                    }
                    if (count == 0) break;  // the end of the file
                    got += static_cast<size_t>(count);
                }
                out.resize(got);
                return true;
            };
        } else {
            options.argsStayInFile = false;  // only a file read where it lies can keep them
        }
    }

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

    // The stats of `spans`: their known values into the event, each into
    // `json` when it is given. `estimate` (when given) grows by a bound on
    // the text they would make.
    void takeStats(const std::vector<Span>& spans, ArgsJson* json, std::string_view* stepName,
                   size_t* estimate) {
        StatValue v;
        bool missing = false;
        for (const Span& s : spans) {
            const std::string_view name = decodeStat(s, plane.names, v, missing);
            if (missing) ++missingStatMeta;
            if (json) {
                if (name.empty()) {
                    json->add(unnamedStat(s.offset), v);
                } else {
                    json->add(name, v);
                }
            }
            // A text's escapes take at most 6 bytes a byte; a number, 24.
            if (estimate) *estimate += name.size() + 6 * v.text.size() + 32;
            if (name == "kernel_details" && v.kind == StatValue::Kind::Text) {
                // Usually a ref_value: the same text for every launch of a
                // kernel, parsed once.
                auto [it, added] = kernelDetails.try_emplace(v.text.data());
                if (added || it->second.first != v.text.size()) {
                    ExtractedArgs parsed;
                    extractKnownStat(name, v, parsed);
                    it->second = {v.text.size(), parsed};
                }
                const ExtractedArgs& k = it->second.second;
                event.known.registersPerThread = k.registersPerThread;
                event.known.sharedMemory = k.sharedMemory;
                std::copy(std::begin(k.grid), std::end(k.grid), event.known.grid);
                std::copy(std::begin(k.block), std::end(k.block), event.known.block);
                event.known.occupancyPercent = k.occupancyPercent;
                event.hasKnown = true;
            } else if (extractKnownStat(name, v, event.known)) {
                event.hasKnown = true;
            }
            if (stepName && name == "step_name" && v.kind == StatValue::Kind::Text)
                *stepName = v.text;
            if (name == "allocator_name" && v.kind == StatValue::Kind::Text)
                memory.allocator = v.text;
            int64_t n = 0;
            if (name == "bytes_allocated" && v.integral(n) && n >= 0) memory.inUse = n;
            if (name == "addr" && v.integral(n) && n >= 0) memory.address = n;
            if (name == "allocation_bytes" && v.integral(n) && n >= 0) memory.bytes = n;
            if (name == "tf_op" && v.kind == StatValue::Kind::Text) memory.op.assign(v.text);
            takeCostStat(name, v);
        }
    }

    // XLA's cost analysis of an HLO op (on its event or its metadata).
    void takeCostStat(std::string_view name, const StatValue& v) {
        if (name.size() < 5 || name.size() > 17) return;
        if (name == "flops" || name == "bytes_accessed") {
            double d = -1;
            int64_t n = 0;
            if (v.kind == StatValue::Kind::Double && std::isfinite(v.d)) {
                d = v.d;
            } else if (v.kind == StatValue::Kind::Uint64) {
                d = static_cast<double>(v.u);
            } else if (v.integral(n)) {
                d = static_cast<double>(n);
            }
            if (d < 0) return;
            (name == "flops" ? event.flops : event.bytesAccessed) = d;
        } else if (name == "shape_with_layout" && v.kind == StatValue::Kind::Text) {
            event.resultShape = v.text;
        }
    }

    // The entry's args, composed once per entry.
    const MetaArgs& metaArgsOf(int64_t id, const EventMeta& meta) {
        auto [it, added] = metaArgs.try_emplace(id);
        if (added) {
            event.known = ExtractedArgs{};
            event.hasKnown = false;
            ArgsJson json;
            takeStats(meta.stats, &json, nullptr, nullptr);
            MetaArgs& m = it->second;
            m.cut = json.cut();
            if (m.cut) ++cutArgs;
            m.open = json.open();
            m.known = event.known;
            m.hasKnown = event.hasKnown;
            m.flops = event.flops;
            m.bytesAccessed = event.bytesAccessed;
            m.resultShape = event.resultShape;
            memory = {};  // an allocator's state is the event's own
            event.flops = event.bytesAccessed = -1;
            event.resultShape = {};
        }
        return it->second;
    }

    void emitMetadata(const char* name, int64_t pid, const int64_t* tid, std::string_view text,
                      const int64_t* sortIndex) {
        event.reset();
        event.phase = Phase::Metadata;
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

    // A line's bytes: in the plane held in memory, or read from the file now.
    std::string_view bytesOfLine(const LineAt& line) {
        if (!line.bytes.empty() || line.length == 0) return line.bytes;
        std::string error;
        if (!readFile(line.offset, line.length, lineBytes, error)) throw FileReadError{error};
        if (lineBytes.size() < line.length)
            throw WireError(line.offset, "the file ends inside a line");
        // Texts of the last line lay where this one is now.
        kernelDetails.clear();
        filePlace = line.offset;
        return lineBytes;
    }

    void decodeLine(const LineAt& at, int64_t pid, int64_t order) {
        const std::string_view bytes = bytesOfLine(at);
        wire::Reader r(bytes, at.offset);
        Field f;
        int64_t id = 0, displayId = 0, timestampNs = 0;
        std::string_view name, displayName;
        std::vector<Span> events;
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
                options.progress(LoadPhase::Reading, readFile ? filePlace : source.filePosition(),
                                 options.fileSize);
        }
        decodeEventFields(span, fields);
        ++report.events;
        if (fields.aggregate) {  // a count without a time: nothing to draw
            ++aggregated;
            return;
        }
        event.reset();
        event.phase = Phase::Complete;
        event.offset = span.offset;
        event.index = report.events - 1;
        event.pid = {RawId::Kind::Number, pid, {}};
        event.tid = {RawId::Kind::Number, tid, {}};
        int64_t endPs = 0, startNs = 0, endNs = 0;
        const bool fits = !__builtin_add_overflow(fields.offsetPs, fields.durationPs, &endPs) &&
                          psToNs(fields.offsetPs, startNs) && psToNs(endPs, endNs) &&
                          !__builtin_add_overflow(startNs, lineNs, &startNs) &&
                          !__builtin_add_overflow(endNs, lineNs, &endNs);
        event.ts = {true, fits, fits ? startNs : 0};
        event.dur = {true, fits, fits ? endNs - startNs : 0};
        std::string_view stepName;
        memory = {};
        const EventMeta* meta = plane.names.event(fields.metadataId);
        const MetaArgs* entry = meta ? &metaArgsOf(fields.metadataId, *meta) : nullptr;
        std::string unnamed;
        if (meta) {
            event.name = meta->shownName();
            event.known = entry->known;
            event.hasKnown = entry->hasKnown;
            event.flops = entry->flops;
            event.bytesAccessed = entry->bytesAccessed;
            event.resultShape = entry->resultShape;
        } else {
            ++missingEventMeta;
            unnamed.assign("event#").append(std::to_string(fields.metadataId));
            event.name = unnamed;
        }
        const bool longName = meta && !meta->displayName.empty();
        if (options.argsStayInFile) {
            // The event's place is its args: decoded when a person looks
            // (xspace_args.h). Composed now only to learn whether they are
            // cut, which a bound on their size rarely leaves open.
            size_t estimate = entry ? entry->open.size() : 0;
            takeStats(fields.stats, nullptr, &stepName, &estimate);
            if (estimate > ArgsJson::kMaxBytes && !(entry && entry->cut) &&
                composeEventArgs(plane.names, span).cut)
                ++cutArgs;
            if (longName || !fields.stats.empty() || (entry && !entry->open.empty())) {
                event.args = span.bytes;
                event.argsOffset = span.offset;
                event.argsInInput = true;
                event.argsAreRecord = true;
            }
        } else {
            args.startFrom(entry ? std::string_view(entry->open) : std::string_view(),
                           entry && entry->cut);
            takeStats(fields.stats, &args, &stepName, nullptr);
            if (longName) args.add("long_name", StatValue::textOf(meta->name));
            if (args.cut() && !(entry && entry->cut)) ++cutArgs;
            argsText = std::move(args).close();
            event.args = argsText;
        }
        if (!stepName.empty()) event.name = stepName;
        const bool allocation =
            meta && (meta->name == "MemoryAllocation" || meta->name == "MemoryDeallocation") &&
            memory.inUse >= 0;
        const int gpu = allocation ? gpuOfAllocator(memory.allocator) : -1;
        if (allocation && (gpu >= 0 || memory.allocator == "cpu")) {
            event.allocatorState = true;
            event.memDeviceType = gpu >= 0 ? 1 : 0;
            event.memDeviceId = gpu;
            event.memTotalAllocated = memory.inUse;
            // The block itself: allocated, or freed.
            if (memory.bytes >= 0)
                event.memBytes = meta->name == "MemoryAllocation" ? memory.bytes : -memory.bytes;
            if (memory.address >= 0) {
                event.memAddress = static_cast<uint64_t>(memory.address);
                event.hasMemAddress = true;
            }
            event.memOpName = memory.op;
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
        event.phase = Phase::Counter;
        event.name = counterName;
        event.pid = {RawId::Kind::Number, pid, {}};
        event.ts = {true, true, ts};
        event.counterValues.push_back({"bytes in use", inUse});
        sink.onEvent(event);
    }

    // A plane held whole in planeBytes, from its fields.
    void decodePlane(uint64_t offset) {
        readPlane(planeBytes, offset, plane);
        mapPlane(offset);
    }

    // A plane read where it lies in the file: its lines one at a time.
    void decodePlaneInFile(uint64_t offset, uint64_t length) {
        readPlaneInFile(readFile, offset, offset + length, planeStore, plane);
        mapPlane(offset);
        lineBytes.clear();
        lineBytes.shrink_to_fit();
    }

    // The plane's events to the sink: names first (they come last in the file).
    void mapPlane(uint64_t offset) {
        metaArgs.clear();
        kernelDetails.clear();
        missingEventMeta = missingStatMeta = aggregated = cutArgs = 0;
        namedRows.clear();
        const std::string planeName = hosted(
            plane.name.empty() ? "plane " + std::to_string(planeIndex) : std::string(plane.name));
        if (!plane.stats.empty()) {
            event.reset();
            ArgsJson json;
            takeStats(plane.stats, &json, nullptr, nullptr);
            const std::string text = std::move(json).close();
            sink.onMetadata("xspace plane " + planeName,
                            text.empty() ? std::string_view("{}") : std::string_view(text));
        }
        if (plane.lines.empty()) return;
        const auto pid = host.pidBase + static_cast<int64_t>(planeIndex + 1);
        const bool device = plane.name.substr(0, 8) == "/device:";
        // Hosts in file order; in each, devices first, as the trace viewer has them.
        const int64_t sortIndex = pid + (device ? 0 : int64_t{1} << 31);
        emitMetadata("process_name", pid, nullptr, planeName, nullptr);
        emitMetadata("process_sort_index", pid, nullptr, {}, &sortIndex);
        int64_t order = 0;
        for (const LineAt& line : plane.lines)
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

    // A malformed plane after good ones: keep what came before it (false).
    bool decodeOnePlane(uint64_t offset, uint64_t length, bool inFile) {
        const uint64_t before = report.events;
        try {
            if (inFile) {
                decodePlaneInFile(offset, length);
            } else {
                decodePlane(offset);
            }
        } catch (const WireError& e) {
            if (report.events == 0) throw;
            stopEarly(e.offset(), "plane " + std::to_string(planeIndex) + " is malformed: " +
                                      e.what() + " (" + std::to_string(report.events - before) +
                                      " of its events were read before it)");
            return false;
        }
        ++planeIndex;
        return true;
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
            // A plane of a file read where it lies: passed over here, its
            // lines read one at a time (the whole plane is never held).
            if (number == XSpaceField::kPlanes && readFile && options.fileSize >= payloadAt &&
                length <= options.fileSize - payloadAt) {
                if (in.skip(length) < length) {
                    stopEarly(tagAt, "the file ends inside plane " + std::to_string(planeIndex));
                    break;
                }
                if (!decodeOnePlane(payloadAt, length, true)) break;
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
                if (!decodeOnePlane(payloadAt, length, false)) break;
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
    } catch (const FileReadError& e) {
        throw LoadError("file", e.what);
    }
}

}  // namespace gapscope
