#pragma once
// The loaded trace: plain, compact, immutable once built (shared read-only
// across threads as std::shared_ptr<const Trace>). Built by TraceBuilder.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "format/import_report.h"
#include "format/input_format.h"
#include "index/interval_index.h"
#include "index/interval_set.h"
#include "index/min_max_index.h"
#include "index/run_break_index.h"
#include "io/byte_source.h"
#include "io/file_stamp.h"
#include "model/arg_ids.h"
#include "model/args_store.h"
#include "model/ids.h"
#include "model/string_table.h"
#include "util/huge_vector.h"

namespace gapscope {

enum SliceFlag : uint16_t {
    kSliceUnclosed = 1 << 0,          // a B (or async begin) without its end: closed at trace end
    kSliceGpuActivity = 1 << 1,       // kernel / memcpy / memset: counts towards GPU busy time
    kSliceFromBeginEnd = 1 << 2,      // built from a B/E pair
    kSliceOverlapLane = 1 << 3,       // overlapped a sibling without nesting: moved to lane > 0
    kSliceNegativeDuration = 1 << 4,  // the file said dur < 0: kept with duration 0
    // A range a person named around code (record_function, NVTX, an
    // nn.Module frame), not one a compiler or a per-op profiler added:
    // decided at import (vocabulary::namesScope).
    kSliceNamedScope = 1 << 5
    // bits 8-13: the slice's kind (model/slice_kind.h)
};

// 32 bytes. Slices of one track are stored contiguously, grouped by row and
// sorted by start within a row; rows never overlap internally.
struct Slice {
    TimeNs start = 0;
    TimeNs dur = 0;
    StringId name = 0;
    uint32_t args = kNone;  // index into Trace::args
    uint16_t category = 0;  // index into Trace::categories
    uint16_t depth = 0;     // nesting depth within its lane
    uint16_t row = 0;       // index into Track::rows
    uint16_t flags = 0;

    TimeNs end() const { return start + dur; }
};
static_assert(sizeof(Slice) == 32);

struct Instant {
    TimeNs ts = 0;
    StringId name = 0;
    uint32_t args = kNone;
    uint32_t track = 0;
    uint16_t category = 0;
    char scope = 't';  // 't' thread, 'p' process, 'g' global
};

// One event of a memory allocator, as the profiler wrote it (Kineto's
// [memory] instants with profile_memory=True; TensorFlow's and JAX's
// MemoryAllocation / MemoryDeallocation in XSpace): a block allocated
// (bytes > 0) or freed (bytes < 0) at an address, and the allocator's
// totals just after it. analysis/memory_allocations pairs them into allocations.
struct MemoryEvent {
    TimeNs ts = 0;
    uint64_t address = 0;  // meaningful with kMemoryEventHasAddress
    int64_t bytes = 0;
    int64_t totalAllocated = -1;  // the allocator's totals after it; -1: not recorded
    int64_t totalReserved = -1;
    uint32_t track = 0;     // the thread it happened on
    int32_t deviceId = -1;  // the device's index (-1: the host)
    // c10::DeviceType as written: 0 the CPU, 1 CUDA (and ROCm), others
    // other accelerators.
    int16_t deviceType = 0;
    uint16_t flags = 0;
    StringId op = 0;  // the op that made it, where the producer says so (tf_op); 0: none
};
static_assert(sizeof(MemoryEvent) == 56);
inline constexpr uint16_t kMemoryEventHasAddress = 1;

// What a counter series measures, when it is one of the memory curves the
// builder makes from Kineto's [memory] events.
enum class MemoryCurve : uint8_t { None, Allocated, Reserved };

struct CounterSeries {
    uint32_t process = kNone;  // kNone: global
    StringId name = 0;         // "<event name>" or "<event name>.<key>" / with id
    HugeVector<TimeNs> ts;     // sorted
    HugeVector<double> values;
    MemoryCurve memory = MemoryCurve::None;
    int32_t memoryDevice = -1;  // GPU index; -1: host memory
    // Old Kineto (2021) [memory] events carry only the change ("Bytes"):
    // the values are their running sum from the trace start, in time order.
    bool relative = false;
    MinMaxIndex extremes;  // min/max of any run of values, for drawing (not cached: rebuilt)
};

enum class FlowKind : uint8_t;

struct Flow {
    uint32_t from = kNone;  // slice indices; kNone when the end did not bind
    uint32_t to = kNone;
    StringId name = 0;
    uint16_t category = 0;
    FlowKind kind{};  // model/slice_kind.h
    uint8_t reserved = 0;
};
static_assert(sizeof(Flow) == 16);

enum class TrackKind : uint8_t {
    CpuThread,
    GpuStream,      // kernels, memcpy, memset of one GPU stream
    GpuAnnotation,  // Kineto gpu_user_annotation ranges on a stream
    GpuOther,       // other tracks of a GPU process (TF derived lines: Steps, XLA Ops, ...)
    Async,          // nestable (b/n/e) and legacy (S/T/F) async slices of a process
    Instants        // process- or global-scoped instant events
};

const char* trackKindName(TrackKind k);

struct Row {
    uint32_t begin = 0;  // slice index range in Trace::slices
    uint32_t end = 0;
    uint16_t lane = 0;
    uint16_t depth = 0;
};

struct Track {
    TrackKind kind = TrackKind::CpuThread;
    uint32_t process = 0;
    IdKey tid;
    StringId threadName = 0;  // from thread_name metadata, or the async event name
    std::string displayName;  // e.g. "stream 7", "python3 (pt_main_thread) 1102"
    int64_t sortIndex = 0;
    bool hasSortIndex = false;
    int gpuDevice = -1;
    uint32_t sliceBegin = 0;  // [sliceBegin, sliceEnd) in Trace::slices
    uint32_t sliceEnd = 0;
    uint32_t instantBegin = 0;  // [instantBegin, instantEnd) in Trace::instants
    uint32_t instantEnd = 0;
    uint16_t laneCount = 0;
    std::vector<Row> rows;
    IntervalIndex index;  // stabbing / overlap queries across all rows
    // Parallel to rows: where runs of short, packed slices end (the
    // timeline folds them into blocks). Derived from the slices, not cached.
    std::vector<RunBreakIndex> rowBreaks;

    uint32_t sliceCount() const { return sliceEnd - sliceBegin; }
};

enum class ProcessKind : uint8_t { Cpu, Gpu };

struct Process {
    IdKey pid;
    StringId name = 0;    // process_name metadata
    StringId labels = 0;  // process_labels metadata
    int64_t sortIndex = 0;
    bool hasSortIndex = false;
    ProcessKind kind = ProcessKind::Cpu;
    int gpuDevice = -1;
    std::string displayName;       // e.g. "GPU 0", "python3 418"
    std::vector<uint32_t> tracks;  // in display order
    // The rank (index into Trace::ranks) when ranks of a job are merged
    // into one trace (model/merge_traces.h); 0 otherwise.
    uint32_t group = 0;
};

struct GpuDevice {
    int index = 0;
    std::string name;  // from deviceProperties when present
    std::vector<uint32_t> tracks;
    std::vector<Interval> busy;  // sorted, disjoint, merged (analysis/gpu_busy)
    // The starts of its zero-duration activity (a sub-microsecond kernel
    // written as dur 0) outside every busy interval, sorted and unique: it
    // ran, so it splits idle time, though it adds none to busy time.
    std::vector<TimeNs> instants;
    TimeNs busyNs = 0;
    uint32_t group = 0;  // as Process::group
};

// One rank of a job merged into one trace: its processes are those whose
// group is its index in Trace::ranks.
struct TraceRank {
    int64_t rank = 0;
    std::string host;
    std::string file;
    std::string part;  // the process of `file` it is, when the file holds several ranks
    // How its file is written: where its args are read back from (its
    // part of the args store reopens the file after an index cache hit).
    InputFormat inputFormat = InputFormat::ChromeJson;
    Compression compression = Compression::None;
    TimeNs offset = 0;  // added to its times (aligned on a step)
    uint32_t firstProcess = 0, processCount = 0;
    uint32_t firstTrack = 0, trackCount = 0;
    uint32_t firstSlice = 0, sliceCount = 0;
    std::vector<int> gpuDevices;       // its devices' indices in the merged trace
    std::vector<int> gpuLocalIndices;  // the same devices' indices in its own trace
};

struct ArgsRecord {
    uint64_t offset = 0;  // in ArgsStore
    uint32_t length = 0;
    uint32_t extracted = kNone;  // index into Trace::ids
};

// What an op's args say of its tensors and work, which the efficiency
// figures read: a PyTorch op's record_shapes and with_flops, or an HLO
// op's cost as XLA's cost analysis recorded it (flops, bytes_accessed,
// shape_with_layout). Sparse, in the order of the args they belong to (so
// found by binary search).
struct OpShapes {
    uint32_t args = kNone;  // the op's ArgsRecord
    // The op's signature, interned, one part per line: "Input Dims", "Input
    // type" and "Concrete Inputs" as the file wrote them; for an HLO op three
    // empty lines and its result's shape. 0: none recorded.
    StringId shapes = 0;
    double flops = -1;  // the profiler's own FLOP count; negative: none
    double bytes = -1;  // the bytes it recorded the op to move; negative: none
};
static_assert(sizeof(OpShapes) == 24);

// A collective as its args record it (PyTorch's distributed profiling, on
// the NCCL / RCCL kernel and on record_param_comms), for its bus
// bandwidth: sparse, in the order of the args they belong to.
struct CollectiveArgs {
    uint32_t args = kNone;  // the event's ArgsRecord
    StringId name = 0;      // "allreduce", "_allgather_base", …
    StringId type = 0;      // the elements' type: "Float", "BFloat16", …
    uint32_t reserved = 0;
    int64_t inElements = -1, outElements = -1, groupSize = -1;  // -1: not recorded
};
static_assert(sizeof(CollectiveArgs) == 40);

// Which profiler wrote a trace, decided at import from what the trace says
// of itself (model/vocabulary/): its vocabulary says what the trace's
// categories and names mean.
enum class Producer : uint8_t {
    Unknown,        // a Chrome trace from anything else: every vocabulary applies
    Kineto,         // the PyTorch profiler
    TensorFlow,     // the TensorFlow or JAX profiler (XSpace, or its trace viewer's JSON)
    NsightSystems,  // an Nsight Systems SQLite export
};
inline constexpr Producer kLastProducer = Producer::NsightSystems;
// "PyTorch profiler (Kineto)", "TensorFlow / JAX profiler", …
const char* producerName(Producer producer);
// "kineto", "tensorflow", "nsight-systems", "unknown": machine-readable.
const char* producerId(Producer producer);

class Trace {
  public:
    // Where it came from.
    std::string path;
    Compression compression = Compression::None;
    InputFormat inputFormat = InputFormat::ChromeJson;
    bool objectForm = false;  // {"traceEvents": [...]} rather than a bare array
    uint64_t fileSize = 0;
    uint64_t decompressedSize = 0;
    // The file version this model describes (index cache key); of a job's
    // ranks merged, their files' (set by loader/rank_view.h with a cache).
    FileStamp fileStamp;
    bool fromCache = false;  // restored from the index cache rather than parsed
    Producer producer = Producer::Unknown;
    std::string displayTimeUnit;                  // "ms" or "ns" when the file says so
    std::map<std::string, std::string> metadata;  // other top-level keys, raw JSON text

    StringTable strings;
    std::vector<StringId> categories;  // category index -> string
    std::vector<Process> processes;    // display order: GPUs first
    std::vector<Track> tracks;
    HugeVector<Slice> slices;
    HugeVector<Instant> instants;  // grouped by track, sorted by ts
    std::vector<CounterSeries> counters;
    std::vector<Flow> flows;
    HugeVector<ArgsRecord> args;
    HugeVector<ArgIds> ids;  // see ExtractedArgs
    HugeVector<LaunchParams> launches;
    HugeVector<OpShapes> opShapes;           // sorted by args
    HugeVector<CollectiveArgs> collectives;  // sorted by args
    HugeVector<MemoryEvent> memoryEvents;    // by time, then track, then file order
    ArgsStore argsStore;
    std::vector<GpuDevice> gpuDevices;     // sorted by index
    std::vector<TraceRank> ranks;          // empty unless merged from ranks
    std::optional<int64_t> alignedOnStep;  // the ranks' times shifted to start this step together
    ImportReport report;

    TimeNs spanStart = 0;  // first event start (absolute ns as in the file)
    TimeNs spanEnd = 0;    // last event end
    bool hasSpan = false;

    // spanEnd - spanStart, saturated: a hostile file can put its first and
    // last events more than 2^63 ns apart.
    TimeNs spanLength() const {
        TimeNs length = 0;
        return __builtin_sub_overflow(spanEnd, spanStart, &length) ? INT64_MAX : length;
    }

    std::string_view str(StringId id) const { return strings.view(id); }
    std::string_view categoryName(uint16_t c) const { return strings.view(categories[c]); }

    // The track that holds slice `s` (binary search over track ranges).
    uint32_t trackOfSlice(uint32_t slice) const;
    // The slices of one row that intersect [t0, t1] (closed), in start order.
    std::pair<uint32_t, uint32_t> visibleInRow(const Row& row, TimeNs t0, TimeNs t1) const;
    // Raw JSON text of an event's args ("" when it has none), or why it
    // could not be read (the file changed, a read failed). Thread-safe.
    ArgsText argsText(uint32_t argsIndex) const;
    // The args pulled out at load for one event, if it had any.
    std::optional<ExtractedArgs> extractedArgs(uint32_t argsIndex) const;
    // An op's recorded shapes and FLOPs (null when its args had none).
    const OpShapes* opShapesOf(uint32_t argsIndex) const;
    // A collective's record (null when its args had none).
    const CollectiveArgs* collectiveOf(uint32_t argsIndex) const;
    // Just args.device (-1 when absent): the hot path of the GPU busy union.
    int32_t deviceOf(uint32_t argsIndex) const {
        if (argsIndex >= args.size() || args[argsIndex].extracted == kNone) return -1;
        return ids[args[argsIndex].extracted].device;
    }

    // How people name a GPU: "GPU 3", or "rank 2 · GPU 1" (its own index) in
    // ranks merged into one trace, where the global index means nothing.
    std::string gpuLabel(int device) const;

    // Total memory held by the model, for benchmarks and the import report.
    size_t memoryBytes() const;
    // The same, by what holds it (gapscope-bench: where a job's memory goes).
    struct MemoryParts {
        size_t slices = 0;    // the slices themselves
        size_t tracks = 0;    // rows, interval indices, row breaks
        size_t strings = 0;   // the string table
        size_t args = 0;      // records, ids, launches, shapes, collectives, args store
        size_t instants = 0;  // instants, memory events, flows
        size_t counters = 0;  // samples and their min/max index
        size_t devices = 0;   // GPUs' busy intervals
        size_t total() const {
            return slices + tracks + strings + args + instants + counters + devices;
        }
    };
    MemoryParts memoryParts() const;
};

// Builds every track's rowBreaks from its rows (after a load or a cache read).
void indexRowBreaks(Trace& trace);

}  // namespace gapscope
