#include "format/nsight/nsight_reader.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "format/json_text.h"
#include "format/nsight/nsight_rows.h"
#include "util/load_error.h"

namespace gapscope {

namespace {

using sqlite::Database;
using sqlite::Rows;
using namespace nsight;  // the rows' columns and what they say

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": the export names API
// calls with the version of their entry point; the calls are what people know.
std::string_view withoutVersion(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v == std::string_view::npos || v == 0 || v + 2 == name.size()) return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, v);
}

// CUPTI's CUpti_ActivityMemcpyKind and CUpti_ActivityMemoryKind: a stable
// ABI, so the reader does not need the ENUM_ tables (older exports lack them).
const char* copyKindName(int64_t k) {
    static const char* names[] = {"unknown", "HtoD", "DtoH", "HtoA", "AtoH", "AtoA", "AtoD",
                                  "DtoA",    "DtoD", "HtoH", "PtoP", "HtoD", "DtoH", "DtoD"};
    return k >= 0 && k < 14 ? names[k] : "unknown";
}
const char* memoryKindName(int64_t k) {
    static const char* names[] = {"Pageable", "Pinned",        "Device",         "Array",
                                  "Managed",  "Device Static", "Managed Static", "Unknown"};
    return k >= 0 && k < 8 ? names[k] : "Unknown";
}
// NVTX rows (ENUM_NSYS_EVENT_TYPE): the same numbers in every release.
constexpr int64_t kNvtxMark = 34;
constexpr int64_t kNvtxPushPopRange = 59;
constexpr int64_t kNvtxStartEndRange = 60;
constexpr int64_t kNvtxDomainCreate = 75;

// GPU work kept for the launch flows and the NVTX projection.
struct GpuOp {
    uint64_t key = 0;  // (pid << 32) | correlation id
    int64_t start = 0, end = 0;
    int32_t device = 0;
    int64_t stream = 0;  // its stream's tid in the GPU process
    bool operator<(const GpuOp& o) const { return key < o.key; }
};

// A CUDA API call that started GPU work.
struct Launch {
    int64_t pid = 0, tid = 0, start = 0;
    uint64_t key = 0;
    bool operator<(const Launch& o) const {
        return std::tie(pid, tid, start) < std::tie(o.pid, o.tid, o.start);
    }
};

struct NvtxRange {
    int64_t pid = 0, tid = 0, start = 0, end = 0;
    std::string_view name;  // kept by the reader (one copy per distinct name)
    bool pushPop = true;    // else a start/end range, which need not nest
};

class Reader {
  public:
    Reader(const Database& db, EventSink& sink, ImportReport& report, const ReaderOptions& o)
        : db_(db), sink_(sink), report_(report), options_(o) {
        lookups_.string = [this](int64_t id, std::string_view& text) {
            bool missing = false;
            text = string(id, missing);
            return !missing;
        };
        lookups_.syncType = [this](int64_t pid, int64_t corr) -> std::optional<int64_t> {
            const auto sync = syncTypes_.find(correlationKey(pid, corr));
            if (sync == syncTypes_.end()) return std::nullopt;
            return sync->second;
        };
    }

    NsightResult run() {
        readExportInfo();
        const bool gpu = db_.hasTable(kKernelTable) || db_.hasTable(kMemcpyTable) ||
                         db_.hasTable(kMemsetTable) || db_.hasTable(kGraphTable);
        const bool host =
            db_.hasTable(kRuntimeTable) || db_.hasTable(kNvtxTable) || db_.hasTable(kOsrtTable);
        if (!gpu && !host) {
            if (!db_.hasTable("StringIds"))
                throw LoadError("the schema",
                                "a SQLite database, but not an Nsight Systems export (it has "
                                "no StringIds table and no CUPTI_ACTIVITY_KIND_ tables)");
            throw LoadError("the schema",
                            "an Nsight Systems export without CUDA, NVTX or OS runtime rows "
                            "(record with nsys profile --trace=cuda,nvtx,osrt)");
        }
        countRows();
        readStrings();
        readSynchronization();
        readKernels();
        readMemcpy();
        readMemset();
        readGraphs();
        std::sort(ops_.begin(), ops_.end());
        readRuntime();
        readNvtx();
        projectNvtx();
        readOsRuntime();
        nameProcesses();
        nameThreads();
        describeDevices();
        readDiagnostics();
        result_.rows = rowsRead_;
        return std::move(result_);
    }

  private:
    static constexpr const char* kKernelTable = tableName(RowTable::Kernel);
    static constexpr const char* kMemcpyTable = tableName(RowTable::Memcpy);
    static constexpr const char* kMemsetTable = tableName(RowTable::Memset);
    static constexpr const char* kRuntimeTable = tableName(RowTable::Runtime);
    static constexpr const char* kSyncTable = "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION";
    static constexpr const char* kGraphTable = tableName(RowTable::Graph);
    static constexpr const char* kNvtxTable = "NVTX_EVENTS";
    static constexpr const char* kOsrtTable = tableName(RowTable::OsRuntime);

    std::string optional(const char* table, const char* column) const {
        return optionalColumn(db_, table, column);
    }
    std::string oneOf(const char* table, std::initializer_list<const char*> columns) const {
        return nsight::oneOf(db_, table, columns);
    }

    // Always written, {} for an export without its table: the key is how
    // the model knows Nsight Systems wrote the trace (model/vocabulary).
    void readExportInfo() {
        if (db_.hasTable("META_DATA_EXPORT")) {
            Rows rows = db_.select("META_DATA_EXPORT", {"name", "value"});
            while (rows.next()) {
                if (rows.text(0) == "EXPORT_PRODUCT_VERSION") result_.release = rows.text(1);
                if (rows.text(0) == "EXPORT_SCHEMA_VERSION") result_.schema = rows.text(1);
            }
        }
        std::string info;
        JsonObjectWriter w(info);
        if (!result_.release.empty()) w.text("version", result_.release);
        if (!result_.schema.empty()) w.text("export_schema", result_.schema);
        w.close();
        sink_.onMetadata(kMetadataKey, info);
    }

    void countRows() {
        for (const char* table : {kKernelTable, kMemcpyTable, kMemsetTable, kGraphTable,
                                  kRuntimeTable, kNvtxTable, kOsrtTable}) {
            if (!db_.hasTable(table)) continue;
            totalRows_ += db_.rowCount(table);
        }
    }

    // A name is at most this long (a hostile export could name a million
    // rows with one huge string): longer ones are cut, and counted.
    static constexpr size_t kMostNameBytes = 64 << 10;
    std::string_view capped(std::string_view name) {
        if (name.size() <= kMostNameBytes) return name;
        ++cutNames_;
        return name.substr(0, kMostNameBytes);
    }
    // One copy of each distinct name the reader keeps past its row.
    std::string_view keep(std::string_view name) { return *keptNames_.emplace(name).first; }

    void readStrings() {
        if (!db_.hasTable("StringIds")) return;
        Rows rows = db_.select("StringIds", {"id", "value"});
        while (rows.next()) {
            tick();
            strings_[rows.integer(0)] = std::string(capped(rows.text(1)));
        }
    }
    // A row's name: StringIds' own text, else (counted) `placeholder` and
    // the id, kept in nameBuf_ until the next row.
    std::string_view nameOf(int64_t id, const char* placeholder) {
        const auto it = strings_.find(id);
        if (it != strings_.end()) return it->second;
        ++missingNames_;
        nameBuf_ = placeholder + std::to_string(id);
        return nameBuf_;
    }
    std::string_view string(int64_t id, bool& missing) const {
        const auto it = strings_.find(id);
        if (it != strings_.end()) return it->second;
        missing = true;
        return {};
    }

    void readSynchronization() {
        if (!db_.hasTable(kSyncTable)) return;
        Rows rows = db_.select(kSyncTable, {"correlationId", oneOf(kSyncTable, {"globalPid"}),
                                            optional(kSyncTable, "syncType")});
        while (rows.next()) {
            tick();
            if (rows.isNull(0) || rows.integer(0) == 0 || !mine(pidOf(rows.integer(1)))) continue;
            const int64_t type = rows.integer(2);  // NULL: 0, unknown
            syncTypes_[correlationKey(pidOf(rows.integer(1)), rows.integer(0))] =
                static_cast<uint8_t>(type >= 0 && type <= 4 ? type : 0);
        }
    }

    // A correlation id unique in the export: the process's own (32 bits,
    // numbered per process) with the process's ordinal above it, so that
    // it stays below 2^40 (where merged ranks put their own number).
    uint64_t correlationKey(int64_t pid, int64_t correlation) {
        // (Past 256 processes the keys pass 2^40: such an export merged with
        // other ranks could see its keys meet theirs.)
        const auto [it, fresh] = ordinals_.try_emplace(pid, ordinals_.size());
        return (it->second << 32) | (static_cast<uint64_t>(correlation) & 0xFFFFFFFFu);
    }

    // ---- GPU work ----

    // The GPU process of a device and the thread of a stream in it. A
    // stream of the second process on one device gets a tid of its own.
    void placeOnGpu(int32_t device, int64_t pid, int64_t stream) {
        if (device == lastPlaced_.device && pid == lastPlaced_.pid && stream == lastPlaced_.stream)
            return;  // streamTid_ holds
        lastPlaced_ = {device, pid, stream};
        auto [dev, fresh] = devices_.try_emplace(device);
        if (fresh) {
            dev->second.label = "GPU " + std::to_string(device);
            dev->second.firstPid = pid;
            ev_.reset();
            emitMeta("process_name", gpuPid(device), nullptr, dev->second.label);
        }
        const int64_t tid = pid == dev->second.firstPid
                                ? stream
                                : (static_cast<int64_t>(pid) << 32) | (stream & 0xFFFFFFFF);
        if (dev->second.streams.insert(tid).second) {
            std::string name = "stream " + std::to_string(stream);
            if (pid != dev->second.firstPid) name += " (pid " + std::to_string(pid) + ")";
            emitMeta("thread_name", gpuPid(device), &tid, name);
        }
        streamTid_ = tid;
    }
    RawId gpuPid(int32_t device) const { return {RawId::Kind::Text, 0, devices_.at(device).label}; }

    // One row of GPU work, placed by placeOnGpu: the event's name,
    // category and args are set.
    void emitGpuWork(const Rows& rows, int64_t pid, int32_t device, int64_t stream,
                     int64_t correlation) {
        const int64_t start = rows.integer(0), end = rows.integer(1);
        ev_.pid = gpuPid(device);
        ev_.tid = {RawId::Kind::Number, streamTid_, {}};
        slice(start, end);
        ev_.known.device = device;
        ev_.known.stream = static_cast<int32_t>(stream);
        // Correlation ids are numbered per process: the model's are the
        // process's with its pid above them (the args keep the export's).
        const uint64_t key = correlation != 0 ? correlationKey(pid, correlation) : 0;
        if (key) {
            ev_.known.correlation = static_cast<int64_t>(key);
            // The launch flow's end: this work (its start is the call's).
            ev_.flowIn = key;
            ev_.flowCat = nsight::kLaunchFlow;
        }
        ev_.hasKnown = true;
        emit();
        if (!key) return;
        GpuOp op;
        op.key = key;
        op.start = start;
        op.end = std::max(start, end);
        op.device = device;
        op.stream = streamTid_;
        ops_.push_back(op);
    }

    // A row whose times or device are not integers (NULL, text) or whose
    // device is no GPU index: left out, and counted per table.
    bool validGpuRow(const Rows& rows, const char* table) {
        const bool ok = rows.isInteger(0) && rows.isInteger(1) && rows.isInteger(2) &&
                        rows.isInteger(3) && rows.integer(2) >= 0 && rows.integer(2) < kMostDevices;
        if (!ok) ++invalid_[table];
        return ok;
    }
    bool validHostRow(const Rows& rows, int tidColumn, const char* table,
                      bool endMayBeNull = false) {
        const bool ok = rows.isInteger(0) &&
                        (rows.isInteger(1) || (endMayBeNull && rows.isNull(1))) &&
                        rows.isInteger(tidColumn);
        if (!ok) ++invalid_[table];
        return ok;
    }
    static constexpr int64_t kMostDevices = 1 << 16;

    // What the reader selects from a table: the columns whose args it
    // composes (rowColumns), then the rowid when an event keeps its row
    // instead (an export on disk whose table has rowids).
    struct Selection {
        nsight::RowTable table;
        std::vector<std::string> columns;
        bool byRow = false;
        std::vector<std::string> select() const {
            std::vector<std::string> all = columns;
            if (byRow) all.push_back("rowid");
            return all;
        }
    };
    Selection selection(nsight::RowTable table) const {
        Selection s{table, nsight::rowColumns(db_, table)};
        s.byRow = options_.argsStayInFile && db_.hasRowids(tableName(table));
        return s;
    }

    // The event's args: its row (table and rowid), or text composed now.
    // Rowids past 2^47 leave no room for a merged rank's part number.
    void setArgs(const Selection& sel, const Rows& rows) {
        if (sel.byRow) {
            const int64_t rowid = rows.integer(static_cast<int>(sel.columns.size()));
            if (rowid >= 0 && rowid < (int64_t{1} << 47)) {
                if (!nsight::rowHasArgs(sel.table, rows)) return;
                ev_.argsReference = static_cast<uint32_t>(sel.table);
                ev_.argsOffset = static_cast<uint64_t>(rowid);
                return;
            }
        }
        if (nsight::composeRowArgs(sel.table, sel.columns, rows, lookups_, args_)) ev_.args = args_;
    }

    // Every valid row of one GPU table, placed on its GPU and stream, with
    // its args; `fill` names it and sets what the analyses need.
    template <class Fill>
    void readGpuTable(nsight::RowTable table, std::string_view category, Fill fill) {
        const char* t = tableName(table);
        if (!db_.hasTable(t)) return;
        const Selection sel = selection(table);
        Rows rows = db_.select(t, sel.select());
        while (rows.next()) {
            tick();
            // Another rank's row is that rank's to count, valid or not.
            const int64_t pid = pidOf(rows.integer(col::kGlobalPid));
            if (!mine(pid)) continue;
            if (!validGpuRow(rows, t)) continue;
            const auto device = static_cast<int32_t>(rows.integer(col::kDevice));
            const int64_t stream = rows.integer(col::kStream);
            const int64_t corr = rows.integer(col::kCorrelation);
            placeOnGpu(device, pid, stream);
            ev_.reset();
            ev_.cat = category;
            fill(rows);
            setArgs(sel, rows);
            emitGpuWork(rows, pid, device, stream, corr);
        }
    }

    void readKernels() {
        readGpuTable(nsight::RowTable::Kernel, nsight::kKernel, [&](const Rows& rows) {
            ev_.name = nameOf(rows.integer(col::kKernelName), "kernel #");
            for (int i = 0; i < 3; ++i) {
                ev_.known.grid[i] = static_cast<int32_t>(rows.integer(col::kGrid + i));
                ev_.known.block[i] = static_cast<int32_t>(rows.integer(col::kBlock + i));
            }
            if (!rows.isNull(col::kRegisters))
                ev_.known.registersPerThread = static_cast<int32_t>(rows.integer(col::kRegisters));
            if (!rows.isNull(col::kStaticShared) || !rows.isNull(col::kDynamicShared))
                ev_.known.sharedMemory =
                    std::clamp<int64_t>(rows.integer(col::kStaticShared), 0, INT32_MAX) +
                    std::clamp<int64_t>(rows.integer(col::kDynamicShared), 0, INT32_MAX);
        });
    }

    void readMemcpy() {
        readGpuTable(nsight::RowTable::Memcpy, nsight::kMemcpy, [&](const Rows& rows) {
            // Named as CUPTI's other consumers (Kineto) name copies, so that
            // every producer's copies group alike: "Memcpy HtoD (Pageable -> Device)".
            const int64_t kind = rows.integer(col::kCopyKind);
            nameBuf_ = std::string("Memcpy ") + copyKindName(kind);
            if (kind >= 11 && kind <= 13) {
                nameBuf_ += " (Managed)";
            } else if (!rows.isNull(col::kCopySrcKind) && !rows.isNull(col::kCopyDstKind)) {
                nameBuf_ += std::string(" (") + memoryKindName(rows.integer(col::kCopySrcKind)) +
                            " -> " + memoryKindName(rows.integer(col::kCopyDstKind)) + ")";
            }
            ev_.name = nameBuf_;
            ev_.known.bytes = rows.integer(col::kCopyBytes);
        });
    }

    void readMemset() {
        readGpuTable(nsight::RowTable::Memset, nsight::kMemset, [&](const Rows& rows) {
            nameBuf_ = rows.isNull(col::kSetMemKind)
                           ? std::string("Memset")
                           : std::string("Memset (") +
                                 memoryKindName(rows.integer(col::kSetMemKind)) + ")";
            ev_.name = nameBuf_;
            ev_.known.bytes = rows.integer(col::kSetBytes);
        });
    }

    // Whole graph executions (nsys --cuda-graph-trace=graph, the default):
    // one row per launch of a graph rather than per kernel, so GPU work of
    // the kernel kind named after the graph.
    void readGraphs() {
        readGpuTable(nsight::RowTable::Graph, nsight::kKernel, [&](const Rows& rows) {
            nameBuf_ = rows.isNull(col::kGraphId)
                           ? std::string("CUDA graph")
                           : "CUDA graph " + std::to_string(rows.integer(col::kGraphId));
            ev_.name = nameBuf_;
        });
    }

    // ---- the host ----

    bool startsGpuWork(uint64_t key) const {
        GpuOp probe;
        probe.key = key;
        return std::binary_search(ops_.begin(), ops_.end(), probe);
    }

    void readRuntime() {
        const char* t = kRuntimeTable;
        if (!db_.hasTable(t)) return;
        const Selection sel = selection(nsight::RowTable::Runtime);
        Rows rows = db_.select(t, sel.select());
        const bool projecting = db_.hasTable(kNvtxTable);
        while (rows.next()) {
            tick();
            const int64_t g = rows.integer(col::kHostTid);
            if (!mine(pidOf(g)) || !validHostRow(rows, col::kHostTid, t)) continue;
            const int64_t pid = pidOf(g), tid = tidOf(g);
            const int64_t corr = rows.integer(col::kCallCorrelation);
            const std::string_view name =
                withoutVersion(nameOf(rows.integer(col::kCallName), "CUDA API #"));
            ev_.reset();
            ev_.name = name;
            ev_.cat = name.substr(0, 4) == "cuda" ? nsight::kRuntime : nsight::kDriver;
            onThread(pid, tid);
            slice(rows.integer(col::kStart), rows.integer(col::kEnd));
            const uint64_t key = correlationKey(pid, corr);
            if (corr != 0) ev_.known.correlation = static_cast<int64_t>(key);
            ev_.hasKnown = true;
            setArgs(sel, rows);
            // The launch flow's start: this call, when it started GPU work.
            const bool launched = corr != 0 && startsGpuWork(key);
            if (launched) {
                ev_.flowOut = key;
                ev_.flowCat = nsight::kLaunchFlow;
            }
            emit();
            if (launched && projecting)
                launches_.push_back({pid, tid, rows.integer(col::kStart), key});
        }
    }

    void readNvtx() {
        const char* t = kNvtxTable;
        if (!db_.hasTable(t)) return;
        const std::string text = optional(t, "text"), textId = optional(t, "textId");
        if (text.empty() && textId.empty()) oneOf(t, {"text", "textId"});
        Rows rows = db_.select(t, {oneOf(t, {"start"}), oneOf(t, {"end"}), oneOf(t, {"eventType"}),
                                   oneOf(t, {"globalTid"}), text, textId, optional(t, "domainId"),
                                   optional(t, "endGlobalTid")});
        std::map<int64_t, std::string> domains;
        int64_t asyncId = 0;
        while (rows.next()) {
            tick();
            const int64_t type = rows.integer(2);
            const bool range =
                type == kNvtxMark || type == kNvtxPushPopRange || type == kNvtxStartEndRange;
            const int64_t g = rows.isNull(3) ? 0 : rows.integer(3), pid = pidOf(g), tid = tidOf(g);
            if (!mine(pid)) continue;
            if (range && !validHostRow(rows, 3, t, true)) continue;
            bool missing = false;
            std::string_view name = capped(rows.text(4));
            if (rows.isNull(4) && !rows.isNull(5)) {
                name = string(rows.integer(5), missing);
                if (missing) ++missingNames_;
            }
            if (type == kNvtxDomainCreate) {
                domains[rows.integer(6)] = std::string(name);
                continue;
            }
            if (type != kNvtxMark && type != kNvtxPushPopRange && type != kNvtxStartEndRange) {
                ++report_.skipped["NVTX event type " + std::to_string(type)];
                continue;
            }
            nameBuf_ = name.empty() ? std::string("(unnamed NVTX range)") : std::string(name);
            const int64_t start = rows.integer(0);
            const bool open = rows.isNull(1);
            ev_.reset();
            ev_.name = nameBuf_;
            ev_.cat = nsight::kNvtx;
            onThread(pid, tid);
            if (!rows.isNull(6) && rows.integer(6) != 0) {
                JsonObjectWriter w(args_);
                const auto d = domains.find(rows.integer(6));
                if (d != domains.end())
                    w.text("domain", d->second);
                else
                    w.number("domain", rows.integer(6));
                w.close();
                ev_.args = args_;
            }
            if (type == kNvtxMark) {
                ev_.phase = Phase::Instant;
                ev_.scope = 't';
                ev_.ts = {true, true, start};
                emit();
            } else if (type == kNvtxPushPopRange) {
                if (open) {  // never popped: closed at the trace's end, and said so
                    ev_.phase = Phase::Begin;
                    ev_.ts = {true, true, start};
                    emit();
                } else {
                    slice(start, rows.integer(1));
                    emit();
                    ranges_.push_back({pid, tid, start, rows.integer(1), keep(nameBuf_), true});
                }
            } else {
                // A start/end range may end on another thread: an async slice of its process.
                ev_.phase = Phase::AsyncBegin;
                ev_.ts = {true, true, start};
                ev_.id = {RawId::Kind::Number, ++asyncId, {}};
                emit();
                if (!open) {
                    ev_.reset();
                    ev_.phase = Phase::AsyncEnd;
                    ev_.name = nameBuf_;
                    ev_.cat = nsight::kNvtx;
                    onThread(pid, tid);
                    ev_.ts = {true, true, rows.integer(1)};
                    ev_.id = {RawId::Kind::Number, asyncId, {}};
                    emit();
                    ranges_.push_back({pid, tid, start, rows.integer(1), keep(nameBuf_), false});
                }
            }
        }
    }

    // Each NVTX range onto the GPU work that the calls made inside it (on
    // its thread) launched: one range per stream that work ran on, from
    // its first start to its last end.
    using Spans = std::map<std::pair<int32_t, int64_t>, std::pair<int64_t, int64_t>>;

    void widen(Spans& spans, int32_t device, int64_t stream, int64_t start, int64_t end) {
        auto [s, fresh] = spans.try_emplace({device, stream}, start, end);
        if (!fresh) {
            s->second.first = std::min(s->second.first, start);
            s->second.second = std::max(s->second.second, end);
        }
    }
    void addLaunch(Spans& spans, const Launch& l) {
        GpuOp probe;
        probe.key = l.key;
        const auto [first, last] = std::equal_range(ops_.begin(), ops_.end(), probe);
        for (auto op = first; op != last; ++op)
            widen(spans, op->device, op->stream, op->start, op->end);
    }
    void emitProjection(const NvtxRange& r, const Spans& spans) {
        for (const auto& [where, span] : spans) {
            ev_.reset();
            ev_.name = r.name;
            ev_.cat = nsight::kNvtxGpu;
            ev_.pid = gpuPid(where.first);
            ev_.tid = {RawId::Kind::Number, where.second, {}};
            slice(span.first, span.second);
            JsonObjectWriter w(args_);
            w.number("range start", r.start);
            w.number("range end", r.end);
            w.number("tid", r.tid);
            w.close();
            ev_.args = args_;
            emit();
        }
    }

    // Push/pop ranges nest on their thread, so one sweep over each
    // thread's ranges and launches gives every launch to its innermost open
    // range, and a range's spans to its parent when it closes: linear in
    // ranges and launches, however deep they nest. Start/end ranges may
    // overlap without nesting: each looks its launches up, with cancel polled.
    void projectNvtx() {
        if (ranges_.empty() || launches_.empty()) return;
        std::sort(launches_.begin(), launches_.end());
        std::sort(ranges_.begin(), ranges_.end(), [](const NvtxRange& a, const NvtxRange& b) {
            return std::tie(a.pid, a.tid, a.start, b.end) < std::tie(b.pid, b.tid, b.start, a.end);
        });
        struct Open {
            const NvtxRange* range;
            Spans spans;
        };
        std::vector<Open> stack;
        auto close = [&] {
            Open top = std::move(stack.back());
            stack.pop_back();
            emitProjection(*top.range, top.spans);
            if (!stack.empty())
                for (const auto& [where, span] : top.spans)
                    widen(stack.back().spans, where.first, where.second, span.first, span.second);
        };
        auto l = launches_.begin();
        for (size_t r = 0; r <= ranges_.size(); ++r) {
            const NvtxRange* next = r < ranges_.size() ? &ranges_[r] : nullptr;
            if (next && !next->pushPop) continue;
            // The launches before the next range opens, to the open ranges.
            for (; l != launches_.end(); ++l) {
                if (next && std::tie(l->pid, l->tid, l->start) >=
                                std::tie(next->pid, next->tid, next->start))
                    break;
                tick();
                while (!stack.empty() &&
                       (stack.back().range->pid != l->pid || stack.back().range->tid != l->tid ||
                        stack.back().range->end < l->start))
                    close();
                if (!stack.empty()) addLaunch(stack.back().spans, *l);
            }
            while (!stack.empty() &&
                   (!next || stack.back().range->pid != next->pid ||
                    stack.back().range->tid != next->tid || stack.back().range->end < next->start))
                close();
            if (next) stack.push_back({next, {}});
        }
        for (const NvtxRange& range : ranges_) {
            if (range.pushPop) continue;
            Spans spans;
            auto it = std::lower_bound(launches_.begin(), launches_.end(),
                                       Launch{range.pid, range.tid, range.start, 0});
            for (; it != launches_.end() && it->pid == range.pid && it->tid == range.tid &&
                   it->start <= range.end;
                 ++it) {
                tick();
                addLaunch(spans, *it);
            }
            emitProjection(range, spans);
        }
    }

    void readOsRuntime() {
        const char* t = kOsrtTable;
        if (!db_.hasTable(t)) return;
        const Selection sel = selection(nsight::RowTable::OsRuntime);
        Rows rows = db_.select(t, sel.select());
        while (rows.next()) {
            tick();
            const int64_t g = rows.integer(col::kHostTid);
            if (!mine(pidOf(g)) || !validHostRow(rows, col::kHostTid, t)) continue;
            ev_.reset();
            ev_.name = nameOf(rows.integer(col::kOsName), "OS call #");
            ev_.cat = nsight::kOsRuntime;
            onThread(pidOf(g), tidOf(g));
            slice(rows.integer(col::kStart), rows.integer(col::kEnd));
            setArgs(sel, rows);
            emit();
        }
    }

    // ---- names and devices ----

    void nameProcesses() {
        if (!db_.hasTable("PROCESSES")) return;
        Rows rows = db_.select("PROCESSES",
                               {oneOf("PROCESSES", {"globalPid"}), oneOf("PROCESSES", {"name"})});
        std::set<int64_t> named;
        while (rows.next()) {
            const int64_t pid = pidOf(rows.integer(0));
            if (!threads_.count(pid) || rows.isNull(1) || !named.insert(pid).second) continue;
            emitMeta("process_name", {RawId::Kind::Number, pid, {}}, nullptr, rows.text(1));
        }
    }

    void nameThreads() {
        if (!db_.hasTable("ThreadNames")) return;
        const char* t = "ThreadNames";
        Rows rows =
            db_.select(t, {oneOf(t, {"nameId"}), oneOf(t, {"globalTid"}), optional(t, "priority")});
        // The name of highest priority wins (written last).
        std::map<std::pair<int64_t, int64_t>, std::pair<int64_t, std::string>> names;
        while (rows.next()) {
            const int64_t pid = pidOf(rows.integer(1)), tid = tidOf(rows.integer(1));
            const auto used = threads_.find(pid);
            if (used == threads_.end() || !used->second.count(tid)) continue;
            bool missing = false;
            const std::string_view n = string(rows.integer(0), missing);
            if (missing) continue;
            auto [it, fresh] = names.try_emplace({pid, tid}, rows.integer(2), std::string(n));
            if (!fresh && rows.integer(2) > it->second.first)
                it->second = {rows.integer(2), std::string(n)};
        }
        for (const auto& [thread, name] : names)
            emitMeta("thread_name", {RawId::Kind::Number, thread.first, {}}, &thread.second,
                     name.second);
    }

    // Kineto's deviceProperties, from TARGET_INFO_GPU: names the GPUs.
    void describeDevices() {
        const char* t = "TARGET_INFO_GPU";
        if (!db_.hasTable(t) || devices_.empty()) return;
        const std::vector<std::pair<const char*, const char*>> fields = {
            {"totalMemory", "totalGlobalMem"},
            {"computeMajor", "computeMajor"},
            {"computeMinor", "computeMinor"},
            {"smCount", "numSms"},
            {"maxThreadsPerBlock", "maxThreadsPerBlock"},
            {"maxRegistersPerBlock", "regsPerBlock"},
            {"maxRegistersPerSm", "regsPerMultiprocessor"},
            {"threadsPerWarp", "warpSize"},
            {"maxShmemPerBlock", "sharedMemPerBlock"},
            {"maxShmemPerSm", "sharedMemPerMultiprocessor"},
            {"maxShmemPerBlockOptin", "sharedMemPerBlockOptin"},
            {"memoryBandwidth", "memoryBandwidth"},
            {"clockRate", "clockRate"}};
        std::vector<std::string> cols = {oneOf(t, {"id"}), optional(t, "name")};
        for (const auto& f : fields)
            cols.push_back(optional(t, f.first));
        Rows rows = db_.select(t, cols);
        std::string json = "[";
        std::set<int64_t> seen;
        while (rows.next()) {
            const int64_t id = rows.integer(0);
            if (!devices_.count(static_cast<int32_t>(id)) || !seen.insert(id).second) continue;
            JsonObjectWriter w(args_);
            w.number("id", id);
            if (!rows.isNull(1)) w.text("name", rows.text(1));
            for (size_t i = 0; i < fields.size(); ++i)
                if (!rows.isNull(static_cast<int>(i) + 2))
                    w.number(fields[i].second, rows.integer(static_cast<int>(i) + 2));
            w.close();
            json += (json.size() > 1 ? ", " : "") + args_;
        }
        json += ']';
        sink_.onMetadata("deviceProperties", json);
    }

    // Nsight's own warnings and errors about the recording (a driver it
    // does not support, events it could not collect), as the report's.
    void readDiagnostics() {
        const char* t = "DIAGNOSTIC_EVENT";
        if (!db_.hasTable(t)) return;
        // They are the report's, not a process's: the first rank's part
        // (the one that also keeps processes of no rank) says them once.
        if (!options_.processes.whole() && !options_.processes.allBut) return;
        Rows rows = db_.select(t, {oneOf(t, {"severity"}), oneOf(t, {"text"})});
        constexpr int64_t kWarning = 2, kError = 3;  // ENUM_DIAGNOSTIC_SEVERITY_LEVEL
        constexpr size_t kMostText = 2000;
        while (rows.next()) {
            const int64_t severity = rows.integer(0);
            if (severity != kWarning && severity != kError) continue;
            std::string message(severity == kError ? kProfilerErrorPrefix : kProfilerWarningPrefix);
            // One line: the messages wrap their advice over several.
            for (const char c : rows.text(1).substr(0, kMostText)) {
                const bool space = c == '\n' || c == '\r' || c == '\t' || c == ' ';
                if (!space)
                    message += c;
                else if (message.back() != ' ')
                    message += ' ';
            }
            while (message.back() == ' ')
                message.pop_back();
            report_.warn(0, std::move(message));
        }
    }

    // ---- events ----

    // Whether a row of process `pid` is read (ReaderOptions::processes).
    bool mine(int64_t pid) const { return options_.processes.keeps(pid); }

    void onThread(int64_t pid, int64_t tid) {
        ev_.pid = {RawId::Kind::Number, pid, {}};
        ev_.tid = {RawId::Kind::Number, tid, {}};
        if (pid == lastPid_ && tid == lastTid_) return;  // rows come in runs of one thread
        if (seenThreads_.insert((static_cast<uint64_t>(pid) << 32) | static_cast<uint32_t>(tid))
                .second)
            threads_[pid].insert(tid);
        lastPid_ = pid;
        lastTid_ = tid;
    }

    void slice(int64_t start, int64_t end) {
        ev_.phase = Phase::Complete;
        ev_.ts = {true, true, start};
        int64_t dur = 0;
        const bool fits = !__builtin_sub_overflow(end, start, &dur);
        ev_.dur = {true, fits, dur};  // end < start: the builder keeps it with duration 0
    }

    void emitMeta(const char* what, RawId pid, const int64_t* tid, std::string_view text) {
        ev_.reset();
        ev_.phase = Phase::Metadata;
        ev_.name = what;
        ev_.pid = pid;
        if (tid) ev_.tid = {RawId::Kind::Number, *tid, {}};
        ev_.hasMetaName = true;
        ev_.metaName = text;
        emit();
    }

    void emit() {
        ev_.index = report_.events++;
        // How far into the export the rows are, in bytes of the file: the
        // builder sizes its arrays from it once instead of doubling them
        // (each doubling touches fresh pages).
        if (totalRows_ > 0)
            ev_.offset = options_.fileSize * std::min(rowsRead_, totalRows_) / totalRows_;
        sink_.onEvent(ev_);
    }

    void tick() {
        ++rowsRead_;
        if ((rowsRead_ & 0x3fff) != 0) return;
        if (options_.cancel && options_.cancel->isCancelled()) throw LoadCancelled();
        if (options_.progress && totalRows_ > 0)
            options_.progress(LoadPhase::Reading,
                              options_.fileSize * std::min(rowsRead_, totalRows_) / totalRows_,
                              options_.fileSize);
    }

  public:
    uint64_t missingNames() const { return missingNames_; }
    const std::map<std::string, uint64_t>& invalidRows() const { return invalid_; }
    uint64_t cutNames() const { return cutNames_; }

  private:
    struct Device {
        std::string label;  // "GPU N": its process's pid and name
        int64_t firstPid = 0;
        std::set<int64_t> streams;
    };

    const Database& db_;
    EventSink& sink_;
    ImportReport& report_;
    const ReaderOptions& options_;
    NsightResult result_;
    RawEvent ev_;
    std::string args_, nameBuf_;
    RowLookups lookups_;  // what composing a row's args looks up
    std::unordered_map<int64_t, std::string> strings_;
    std::unordered_map<uint64_t, uint8_t> syncTypes_;
    std::unordered_map<int64_t, uint64_t> ordinals_;  // pid -> order of first sight
    std::map<int32_t, Device> devices_;
    std::map<int64_t, std::set<int64_t>> threads_;  // the host threads used, by pid
    int64_t streamTid_ = 0;
    int64_t lastPid_ = -1, lastTid_ = -1;
    std::unordered_set<uint64_t> seenThreads_;  // (pid, tid): threads_ without its tree walk
    struct Placed {
        int32_t device = -1;
        int64_t pid = -1, stream = -1;
    } lastPlaced_;
    std::vector<GpuOp> ops_;
    std::vector<Launch> launches_;
    std::vector<NvtxRange> ranges_;
    std::map<std::string, uint64_t> invalid_;  // rows left out, by table
    std::unordered_set<std::string> keptNames_;
    uint64_t cutNames_ = 0;
    uint64_t rowsRead_ = 0, totalRows_ = 0, missingNames_ = 0;
};

}  // namespace

NsightResult readNsightExport(const sqlite::Database& db, EventSink& sink, ImportReport& report,
                              const ReaderOptions& options) {
    Reader reader(db, sink, report, options);
    NsightResult r = reader.run();
    for (const auto& [table, n] : reader.invalidRows()) {
        report.invalidEvents += n;
        report.warn(0, table + ": " + std::to_string(n) +
                           " rows whose start, end, device or thread is not an integer (or whose "
                           "device is out of range) were left out");
    }
    if (reader.cutNames())
        report.warn(0, std::to_string(reader.cutNames()) +
                           " names longer than 64 KiB were cut to their first 64 KiB");
    if (reader.missingNames())
        report.warn(0, std::to_string(reader.missingNames()) +
                           " rows name a string that StringIds does not hold; they are named by "
                           "the missing id");
    return r;
}

}  // namespace gapscope
