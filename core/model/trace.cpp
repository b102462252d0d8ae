#include "model/trace.h"

#include <algorithm>

namespace gapscope {

const char* trackKindName(TrackKind k) {
    switch (k) {
        case TrackKind::CpuThread:
            return "thread";
        case TrackKind::GpuStream:
            return "gpu_stream";
        case TrackKind::GpuAnnotation:
            return "gpu_annotation";
        case TrackKind::GpuOther:
            return "gpu_other";
        case TrackKind::Async:
            return "async";
        case TrackKind::Instants:
            return "instants";
    }
    return "unknown";
}

uint32_t Trace::trackOfSlice(uint32_t slice) const {
    // Tracks own consecutive slice ranges in track order; empty ranges are
    // skipped by searching on sliceEnd.
    const auto it = std::upper_bound(tracks.begin(), tracks.end(), slice,
                                     [](uint32_t s, const Track& t) { return s < t.sliceEnd; });
    return it == tracks.end() ? kNone : static_cast<uint32_t>(it - tracks.begin());
}

std::pair<uint32_t, uint32_t> Trace::visibleInRow(const Row& row, TimeNs t0, TimeNs t1) const {
    // Within a row slices do not overlap, so both starts and ends ascend.
    const auto first = slices.begin() + row.begin;
    const auto last = slices.begin() + row.end;
    const auto lo =
        std::lower_bound(first, last, t0, [](const Slice& s, TimeNs t) { return s.end() < t; });
    const auto hi =
        std::upper_bound(lo, last, t1, [](TimeNs t, const Slice& s) { return t < s.start; });
    return {static_cast<uint32_t>(lo - slices.begin()), static_cast<uint32_t>(hi - slices.begin())};
}

ArgsText Trace::argsText(uint32_t argsIndex) const {
    if (argsIndex == kNone) return {};
    if (argsIndex >= args.size())
        return {{}, "args index " + std::to_string(argsIndex) + " is out of range"};
    return argsStore.fetch(args[argsIndex].offset, args[argsIndex].length);
}

std::optional<ExtractedArgs> Trace::extractedArgs(uint32_t argsIndex) const {
    if (argsIndex >= args.size() || args[argsIndex].extracted == kNone) return std::nullopt;
    const ArgIds& id = ids[args[argsIndex].extracted];
    ExtractedArgs x;
    x.correlation = id.correlation;
    x.externalId = id.externalId;
    x.device = id.device;
    x.stream = id.stream;
    x.stepNumber = id.stepNumber;
    if (id.launch != UINT32_MAX) mergeLaunchParams(launches[id.launch], x);
    return x;
}

void indexRowBreaks(Trace& trace) {
    for (Track& track : trace.tracks) {
        track.rowBreaks.assign(track.rows.size(), {});
        for (size_t r = 0; r < track.rows.size(); ++r)
            track.rowBreaks[r].build(trace.slices, track.rows[r].begin, track.rows[r].end);
    }
}

std::string Trace::gpuLabel(int device) const {
    const auto d = std::lower_bound(gpuDevices.begin(), gpuDevices.end(), device,
                                    [](const GpuDevice& g, int i) { return g.index < i; });
    if (d != gpuDevices.end() && d->index == device && d->group < ranks.size()) {
        const TraceRank& r = ranks[d->group];
        for (size_t i = 0; i < r.gpuDevices.size() && i < r.gpuLocalIndices.size(); ++i)
            if (r.gpuDevices[i] == device)
                return "rank " + std::to_string(r.rank) + " \u00b7 GPU " +
                       std::to_string(r.gpuLocalIndices[i]);
    }
    // A host's GPU in a profile run of several hosts reads as its host numbers it.
    for (const Process& p : processes)
        if (p.kind == ProcessKind::Gpu && p.gpuDevice == device &&
            p.displayName.find(" \u00b7 GPU ") != std::string::npos)
            return p.displayName;
    return "GPU " + std::to_string(device);
}

const OpShapes* Trace::opShapesOf(uint32_t argsIndex) const {
    if (argsIndex == kNone) return nullptr;
    const auto it = std::lower_bound(opShapes.begin(), opShapes.end(), argsIndex,
                                     [](const OpShapes& o, uint32_t a) { return o.args < a; });
    return it != opShapes.end() && it->args == argsIndex ? &*it : nullptr;
}

const CollectiveArgs* Trace::collectiveOf(uint32_t argsIndex) const {
    if (argsIndex == kNone) return nullptr;
    const auto it =
        std::lower_bound(collectives.begin(), collectives.end(), argsIndex,
                         [](const CollectiveArgs& c, uint32_t a) { return c.args < a; });
    return it != collectives.end() && it->args == argsIndex ? &*it : nullptr;
}

Trace::MemoryParts Trace::memoryParts() const {
    // Sizes, not capacities: the model's arrays grow by doubling or are
    // reserved ahead (a job's merge), and the untouched rest is address
    // space, not memory.
    MemoryParts m;
    m.slices = slices.size() * sizeof(Slice);
    for (const Track& t : tracks) {
        m.tracks += sizeof(Track) + t.rows.capacity() * sizeof(Row) + t.index.memoryBytes();
        for (const RunBreakIndex& b : t.rowBreaks)
            m.tracks += sizeof b + b.memoryBytes();
    }
    m.strings = strings.memoryBytes();
    m.args = args.size() * sizeof(ArgsRecord) + ids.size() * sizeof(ArgIds) +
             launches.size() * sizeof(LaunchParams) + opShapes.size() * sizeof(OpShapes) +
             collectives.size() * sizeof(CollectiveArgs) + argsStore.memoryBytes();
    m.instants = instants.size() * sizeof(Instant) + memoryEvents.size() * sizeof(MemoryEvent) +
                 flows.size() * sizeof(Flow);
    for (const CounterSeries& c : counters)
        m.counters += c.ts.capacity() * 8 + c.values.capacity() * 8 + c.extremes.memoryBytes();
    for (const GpuDevice& d : gpuDevices)
        m.devices += d.busy.capacity() * sizeof(Interval);
    return m;
}

size_t Trace::memoryBytes() const {
    return memoryParts().total();
}

const char* producerName(Producer producer) {
    switch (producer) {
        case Producer::Kineto:
            return "PyTorch profiler (Kineto)";
        case Producer::TensorFlow:
            return "TensorFlow / JAX profiler";
        case Producer::NsightSystems:
            return "Nsight Systems";
        case Producer::Unknown:
            break;
    }
    return "Chrome Trace Event Format";
}

const char* producerId(Producer producer) {
    switch (producer) {
        case Producer::Kineto:
            return "kineto";
        case Producer::TensorFlow:
            return "tensorflow";
        case Producer::NsightSystems:
            return "nsight-systems";
        case Producer::Unknown:
            break;
    }
    return "unknown";
}

}  // namespace gapscope
