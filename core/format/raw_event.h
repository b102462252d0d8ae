#pragma once
// One event as the tokenizer saw it: views into the reader's buffer, valid
// only during EventSink::onEvent. Nothing here is interned or allocated.

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "format/extracted_args.h"

namespace gapscope {

struct RawId {
    enum class Kind : uint8_t { Absent, Number, Text, Invalid };
    Kind kind = Kind::Absent;
    int64_t number = 0;
    std::string_view text;
};

struct RawTime {
    bool present = false;
    bool valid = false;  // present and a number (or numeric string) in range
    int64_t ns = 0;
};

// What an event is. The Trace Event Format names it by its "ph" letter
// (only the first letter counts, as in Chrome and Perfetto): the JSON reader
// decodes the letter once (phaseOf); readers of other formats set it.
enum class Phase : uint8_t {
    Missing,         // no "ph", or an empty one
    Complete,        // X: a slice with its duration
    Begin,           // B: a slice's start on its thread
    End,             // E: ... and its end
    Instant,         // i, I: a point on a thread (or scoped)
    ProcessInstant,  // n: a point of the process
    Counter,         // C: numeric samples
    Metadata,        // M: a process's or thread's name, order
    FlowStart,       // s: an arrow from the enclosing slice ...
    FlowStep,        // t: ... through ...
    FlowEnd,         // f: ... to a slice
    AsyncBegin,      // b: a slice that may cross threads
    AsyncEnd,        // e
    AsyncStart,      // S: the same, as written before b/e
    AsyncStep,       // T
    AsyncFinish,     // F
    Unmodelled,      // the format's others: P, O, N, D, V, v, R, c, (, ), p
    Unknown,         // any other letter
};
Phase phaseOf(std::string_view ph);
// The letter of a phase ('?' for Missing and Unknown): the report counts
// phases by letter, as the format writes them.
char phaseLetter(Phase phase);

struct CounterValue {
    std::string_view key;
    double value = 0;
};

// The plain fields, reset by one assignment per event.
struct RawEventFields {
    uint64_t offset = 0;  // stream offset of the event's '{'
    uint64_t index = 0;   // position in traceEvents

    Phase phase = Phase::Missing;
    std::string_view phText;  // "ph" as the JSON wrote it (for the report); "" elsewhere
    std::string_view name, cat;
    RawTime ts, dur;
    RawId pid, tid, id;
    RawId id2;  // id2.local or id2.global
    bool id2Local = false;
    char scope = 0;              // "s": 'g', 'p', 't'
    bool bindEnclosing = false;  // "bp": "e"
    // A complete event that starts or ends a flow the reader already knows
    // the ends of (Nsight's launch → GPU work by correlation): bound to this
    // very slice, with no lookup by time. 0: none. Ids are the reader's,
    // unique per category.
    uint64_t flowOut = 0, flowIn = 0;
    std::string_view flowCat;
    std::string_view args;    // raw JSON of "args", empty when absent
    uint64_t argsOffset = 0;  // stream offset of the first byte of args
    // `args` is the input's own text at argsOffset (so a file-backed store
    // can read it back from the file); false for args a reader composed.
    bool argsInInput = false;
    // ... and not JSON text but the file's own record of the event, which
    // the store's ArgsDecoder turns into text: kept whatever its size (an
    // XSpace event of no bytes still has its metadata's stats).
    bool argsAreRecord = false;
    // ... or no bytes at all but a reference the decoder resolves in the
    // file (an Nsight export's row): argsOffset its rowid, this its table
    // (nonzero; nsight::RowTable). `args` is then empty.
    uint32_t argsReference = 0;
    const char* badField = nullptr;  // first field with a JSON type that makes no sense

    // Pulled from args by ArgsExtractor (meaning depends on ph).
    ExtractedArgs known;
    bool hasKnown = false;
    std::string_view metaName, metaLabels;  // M: args.name / args.labels
    bool hasMetaName = false, hasMetaLabels = false, hasSortIndex = false;
    int64_t sortIndex = 0;
    // [memory] instants; XSpace MemoryAllocation / MemoryDeallocation events
    // (allocatorState: a complete event whose memory fields are a point of
    // its device's curve; only the XSpace reader sets it).
    int64_t memTotalAllocated = -1, memTotalReserved = -1;
    bool allocatorState = false;
    int32_t memDeviceType = -1, memDeviceId = -1;
    static constexpr int64_t kNoBytes = INT64_MIN;
    int64_t memBytes = kNoBytes;  // [memory] "Bytes": the change (may be negative)
    uint64_t memAddress = 0;      // [memory] "Addr", with hasMemAddress
    bool hasMemAddress = false;
    std::string_view memOpName;  // the op that made it, where the producer says (tf_op)
    // A CPU op's tensors as the profiler recorded them (PyTorch's
    // record_shapes): the JSON arrays "Input Dims", "Input type" and
    // "Concrete Inputs" as written; and its own FLOP count (with_flops),
    // negative when absent. Views of the input, like the args.
    std::string_view inputDims, inputTypes, concreteInputs;
    double flops = -1;
    // An HLO op's cost as XLA's cost analysis recorded it (the TensorFlow /
    // JAX profiler's `flops` and `bytes_accessed` stats): the bytes it
    // reads and writes (negative when absent) and its result's shape
    // ("bf16[8,128]{1,0}", `shape_with_layout`), which says its type.
    double bytesAccessed = -1;
    std::string_view resultShape;
    // A collective as PyTorch records it (on its NCCL kernel and on
    // record_param_comms): its name, element type, the elements in and
    // out and the group's size; empty / -1 where absent.
    std::string_view collectiveName, collectiveType;
    int64_t collectiveIn = -1, collectiveOut = -1, collectiveGroup = -1;
};

struct RawEvent : RawEventFields {
    std::vector<CounterValue> counterValues;  // C: numeric args members
    // Owned copies for text that was unescaped (so not a view of the buffer).
    std::string metaNameStorage, metaLabelsStorage;
    std::deque<std::string> keyStorage;

    // Clears every field but keeps the containers' capacity (the owned
    // strings are only read when their has* flag is set).
    void reset() {
        static_cast<RawEventFields&>(*this) = RawEventFields{};
        counterValues.clear();
        keyStorage.clear();
    }
};

// Receives the stream of events and top-level metadata from a reader.
class EventSink {
  public:
    virtual ~EventSink() = default;
    virtual void onEvent(const RawEvent& event) = 0;
    // A top-level key other than traceEvents, with its raw JSON value.
    virtual void onMetadata(std::string_view key, std::string_view rawValue) = 0;
};

}  // namespace gapscope
