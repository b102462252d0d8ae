#include "analysis/efficiency.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <unordered_map>

#include "analysis/analysis_index.h"
#include "analysis/distribution.h"
#include "analysis/gpu_activity.h"
#include "analysis/launch_calls.h"
#include "analysis/tensor_cores.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {
namespace {

// One op instance that carries a cost.
struct Costed {
    uint32_t slice = kNone;
    uint32_t signature = 0;  // index into the signatures
    bool profiler = false;   // its count is the profiler's
    bool matrix = false;     // GEMM, convolution, attention
    bool covered = false;    // its cost is carried by an op around or inside it
    bool ownWork = false;    // a GPU activity whose own cost the trace records (an HLO op)
};

struct SignatureKey {
    StringId name, shapes;
    uint64_t flopsBits, bytesBits;
    bool ownWork;  // costed from its record (recordedCost), not by a formula
    bool operator==(const SignatureKey&) const = default;
};
struct SignatureKeyHash {
    size_t operator()(const SignatureKey& k) const noexcept {
        return std::hash<uint64_t>{}((uint64_t{k.name} << 32 | k.shapes) * 0x9e3779b97f4a7c15ull ^
                                     k.flopsBits ^ (k.bytesBits * 0xff51afd7ed558ccdull) ^
                                     uint64_t{k.ownWork});
    }
};

uint64_t bitsOf(double v) {
    uint64_t bits = 0;
    if (v >= 0) std::memcpy(&bits, &v, sizeof bits);
    return bits;
}

// Marks, per track, the costed ops whose cost another carries:
//  - any op inside one the profiler counted (its count stands for all);
//  - a matrix op (GEMM, convolution, attention) with a matrix op inside
//    (linear around addmm, the attention wrappers): the inner one carries;
//  - any other op with a costed op inside (layer_norm around
//    native_layer_norm), or inside a matrix op that carries its cost (a
//    convolution's bias add_, its backward's bias sum: part of its work).
void resolveNesting(const Trace& t, std::vector<Costed>& ops) {
    std::sort(ops.begin(), ops.end(), [&](const Costed& a, const Costed& b) {
        const Slice& x = t.slices[a.slice];
        const Slice& y = t.slices[b.slice];
        if (x.start != y.start) return x.start < y.start;
        if (x.end() != y.end()) return x.end() > y.end();
        return x.depth < y.depth;
    });
    std::vector<std::vector<size_t>> ancestors(ops.size());
    std::vector<bool> hasInner(ops.size(), false), hasMatrixInner(ops.size(), false);
    std::vector<size_t> open;  // the ops around the current one, outermost first
    for (size_t i = 0; i < ops.size(); ++i) {
        const Slice& s = t.slices[ops[i].slice];
        // Sorted by start, longest first: what is open and does not hold
        // this op ended before it.
        while (!open.empty() && t.slices[ops[open.back()].slice].end() < s.end())
            open.pop_back();
        ancestors[i] = open;
        for (const size_t o : open) {
            hasInner[o] = true;
            if (ops[i].matrix) hasMatrixInner[o] = true;
        }
        open.push_back(i);
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        bool covered = false;
        for (const size_t o : ancestors[i])
            covered |= ops[o].profiler;
        if (ops[i].matrix && !ops[i].profiler) covered |= hasMatrixInner[i];
        ops[i].covered = covered;
    }
    for (size_t i = 0; i < ops.size(); ++i) {
        if (ops[i].matrix || ops[i].covered) continue;
        // (A profiler's count inside a matrix op that carries its own is
        // part of that op's work too: a convolution's bias add.)
        bool covered = hasInner[i] && !ops[i].profiler;
        for (const size_t o : ancestors[i])
            covered |= ops[o].matrix && !ops[o].covered;
        ops[i].covered = covered;
    }
}

TimeNs unionLength(std::vector<Interval>& v) {
    std::sort(v.begin(), v.end(),
              [](const Interval& a, const Interval& b) { return a.start < b.start; });
    TimeNs total = 0, curStart = 0, curEnd = 0;
    bool any = false;
    for (const Interval& i : v) {
        if (!any || i.start > curEnd) {
            if (any) total += curEnd - curStart;
            curStart = i.start;
            curEnd = i.end;
            any = true;
        } else {
            curEnd = std::max(curEnd, i.end);
        }
    }
    if (any) total += curEnd - curStart;
    return total;
}

TimeNs overlap(const std::vector<Interval>& busy, Interval w) {
    TimeNs total = 0;
    for (const Interval& b : busy) {
        const TimeNs s = std::max(b.start, w.start), e = std::min(b.end, w.end);
        if (e > s) total += e - s;
    }
    return total;
}

// NCCL's tests' factor from the algorithm's to the bus bandwidth.
std::optional<double> busFactor(vocabulary::CollectiveKind kind, int64_t n) {
    using K = vocabulary::CollectiveKind;
    if (n < 1) return std::nullopt;
    const double r = static_cast<double>(n - 1) / static_cast<double>(n);
    switch (kind) {
        case K::AllReduce:
            return 2 * r;
        case K::AllGather:
        case K::ReduceScatter:
        case K::AllToAll:
            return r;
        case K::Broadcast:
        case K::Reduce:
        case K::SendRecv:
            return 1.0;
        case K::Other:
            break;
    }
    return std::nullopt;
}

// The operation's size as NCCL's tests count it: an all-gather's whole
// output, a reduce-scatter's whole input, else what each rank sends.
std::optional<int64_t> collectiveBytes(const vocabulary::CollectiveParams& p) {
    using K = vocabulary::CollectiveKind;
    if (p.elementBytes <= 0) return std::nullopt;
    int64_t elements = -1;
    switch (p.kind) {
        case K::AllGather:
            elements = p.outElements;
            break;
        case K::Broadcast:
        case K::SendRecv:
            elements = std::max(p.inElements, p.outElements);
            break;
        default:
            elements = p.inElements;
            break;
    }
    if (elements < 0 || elements > INT64_MAX / p.elementBytes) return std::nullopt;
    return elements * p.elementBytes;
}

// Each communication kernel's collective: its own record, else that of an
// op around its launch call (record_param_comms).
template <class Cancelled>
std::vector<CollectiveEfficiency> collectives(const Trace& t, Interval w, const LaunchCalls& calls,
                                              const EnclosingSlices& enclosing,
                                              const std::vector<DeviceRoofs>& devices,
                                              Cancelled&& cancelled) {
    std::map<std::tuple<int, std::string, int64_t, int64_t>, size_t> rowOf;
    std::vector<CollectiveEfficiency> rows;
    std::vector<std::vector<TimeNs>> times;
    auto paramsOf = [&](uint32_t slice) -> std::optional<vocabulary::CollectiveParams> {
        const CollectiveArgs* c = t.collectiveOf(t.slices[slice].args);
        if (!c) {
            const uint32_t call = calls.first(slice);
            if (call == kNone) return std::nullopt;
            enclosing.forEach(call, [&](uint32_t op) {
                if (!c) c = t.collectiveOf(t.slices[op].args);
            });
        }
        if (!c) return std::nullopt;
        return vocabulary::pytorchCollectiveParams(t.str(c->name), t.str(c->type), c->inElements,
                                                   c->outElements, c->groupSize);
    };
    for (const GpuDevice& d : t.gpuDevices) {
        if (cancelled()) return {};
        forEachActivity(t, d, w, [&](uint32_t k, const Track&, ActivityKind) {
            const Slice& s = t.slices[k];
            if (s.start < w.start || activityClass(s) != ActivityClass::Communication) return;
            const auto p = paramsOf(k);
            if (!p) return;
            const std::optional<int64_t> bytes = collectiveBytes(*p);
            const auto key = std::tuple{d.index, p->name, bytes.value_or(-1), p->groupSize};
            auto [it, added] = rowOf.try_emplace(key, rows.size());
            if (added) {
                CollectiveEfficiency c;
                c.device = d.index;
                c.name = p->name;
                c.kind = p->kind;
                c.groupSize = p->groupSize;
                c.bytes = bytes;
                c.firstSlice = k;
                rows.push_back(c);
                times.emplace_back();
            }
            CollectiveEfficiency& c = rows[it->second];
            ++c.count;
            c.total += s.dur;
            times[it->second].push_back(s.dur);
        });
    }
    for (size_t i = 0; i < rows.size(); ++i) {
        CollectiveEfficiency& c = rows[i];
        c.median = medianOf(times[i]);
        if (c.bytes && c.total > 0) {
            c.algBandwidth = static_cast<double>(*c.bytes) * static_cast<double>(c.count) /
                             (static_cast<double>(c.total) * 1e-9);
            if (const auto f = busFactor(c.kind, c.groupSize))
                c.busBandwidth = *c.algBandwidth * *f;
        }
        for (const DeviceRoofs& r : devices)
            if (r.device == c.device && r.peaks && r.peaks->linkBandwidth > 0 && c.busBandwidth)
                c.ofLink = *c.busBandwidth / r.peaks->linkBandwidth;
    }
    std::sort(rows.begin(), rows.end(),
              [](const CollectiveEfficiency& a, const CollectiveEfficiency& b) {
                  if (a.total != b.total) return a.total > b.total;
                  if (a.device != b.device) return a.device < b.device;
                  return std::tie(a.name, a.bytes) < std::tie(b.name, b.bytes);
              });
    return rows;
}

}  // namespace

std::shared_ptr<const EfficiencyResult> efficiencyOfWindow(
    const Trace& t, Interval window, const AnalysisIndex* index, const std::regex* regex,
    const CancelToken* cancel, const std::optional<DevicePeaks>& peaks) {
    auto compute = [&]() {
        EfficiencyOptions options;
        options.window = window;
        options.index = index;
        options.cancel = cancel;
        options.peaks = peaks;
        // The steps and their GPU windows: the index's for the default steps.
        StepList ownSteps;
        std::optional<StepWindows> ownWindows;
        if (index && !regex) {
            options.steps = &index->steps();
            options.windows = &index->stepWindows();
        } else {
            ownSteps = findSteps(t, regex);
            ownWindows = stepWindows(t, ownSteps, LaunchCalls(t));
            options.steps = &ownSteps;
            options.windows = &*ownWindows;
        }
        return efficiency(t, options);
    };
    if (index && !peaks && !regex)
        return index->rememberedOf<EfficiencyResult>(AnalysisIndex::kRememberedEfficiency, window,
                                                     cancel, compute);
    return std::make_shared<const EfficiencyResult>(compute());
}

std::optional<double> peakFor(const DevicePeaks& peaks, const OpCost& cost) {
    if (!cost.precision) return std::nullopt;
    std::optional<double> p = peaks.peak(*cost.precision);
    if (!p && *cost.precision == PeakType::Fp64Tensor) p = peaks.peak(PeakType::Fp64);
    if (!p && *cost.precision == PeakType::Tf32) p = peaks.peak(PeakType::Fp32);
    return p;
}

std::optional<double> attainableFlops(const DevicePeaks& peaks, const OpCost& cost) {
    const auto peak = peakFor(peaks, cost);
    if (!peak || !cost.bytes || *cost.bytes <= 0 || peaks.memoryBandwidth <= 0) return peak;
    return std::min(*peak, cost.flops / *cost.bytes * peaks.memoryBandwidth);
}

EfficiencyResult efficiency(const Trace& t, const EfficiencyOptions& options) {
    EfficiencyResult out;
    const Interval w = options.window;
    auto cancelled = [&] { return options.cancel && options.cancel->isCancelled(); };

    for (const GpuDevice& d : t.gpuDevices) {
        DeviceRoofs roofs;
        roofs.device = d.index;
        roofs.traceName = d.name;
        if (options.peaks) {
            roofs.peaks = options.peaks;
            roofs.given = true;
        } else {
            roofs.peaks = matchDevicePeaks(deviceIdentity(t, d));
        }
        out.gpuBusy += overlap(d.busy, w);
        out.devices.push_back(std::move(roofs));
    }
    auto roofsOf = [&](int device) -> const DevicePeaks* {
        for (const DeviceRoofs& r : out.devices)
            if (r.device == device) return r.peaks ? &*r.peaks : nullptr;
        return nullptr;
    };

    // The costed ops, per track, and each signature's cost computed once:
    // by the formulas for an op that launches its work, from the record for
    // a GPU activity whose trace records its own (an HLO op's, by XLA).
    std::unordered_map<SignatureKey, uint32_t, SignatureKeyHash> signatureOf;
    std::vector<Costed> costed;
    auto signatureIndex = [&](const Slice& s, const OpShapes& shapes, bool ownWork) {
        const SignatureKey key{s.name, shapes.shapes, bitsOf(shapes.flops), bitsOf(shapes.bytes),
                               ownWork};
        auto it = signatureOf.find(key);
        if (it == signatureOf.end()) {
            const auto cost =
                ownWork ? recordedCost(t.str(s.name), signaturePart(t.str(shapes.shapes), 3),
                                       shapes.flops, shapes.bytes)
                        : opCost(t.str(s.name), t.str(shapes.shapes), shapes.flops);
            uint32_t index = kNone;
            if (cost) {
                index = static_cast<uint32_t>(out.signatures.size());
                SignatureEfficiency e;
                e.name = s.name;
                e.shapes = shapes.shapes;
                e.cost = *cost;
                out.signatures.push_back(e);
            }
            it = signatureOf.emplace(key, index).first;
        }
        return it->second;
    };
    for (const Track& track : t.tracks) {
        if (cancelled()) return {};
        if (track.kind != TrackKind::CpuThread) continue;
        std::vector<Costed> mine;
        for (const Row& row : track.rows) {
            const auto [lo, hi] = t.visibleInRow(row, w.start, w.end);
            for (uint32_t i = lo; i < hi; ++i) {
                const Slice& s = t.slices[i];
                if (s.start < w.start || s.start >= w.end || !isCpuOp(s)) continue;
                const OpShapes* shapes = t.opShapesOf(s.args);
                if (!shapes) continue;
                const uint32_t signature = signatureIndex(s, *shapes, false);
                if (signature == kNone) {
                    if (vocabulary::pytorchOpArguments(t.str(s.name)).family !=
                        vocabulary::OpFamily::None)
                        ++out.uncostedOps;
                    continue;
                }
                mine.push_back({i, signature, shapes->flops >= 0,
                                out.signatures[signature].cost.matrix, false, false});
            }
        }
        resolveNesting(t, mine);
        costed.insert(costed.end(), mine.begin(), mine.end());
    }
    // GPU work that carries its own cost: its own, whatever launched it
    // (inside the window or not: never the launching op's).
    auto carriesOwnCost = [&](uint32_t activity) {
        if (t.opShapes.empty()) return false;
        const OpShapes* shapes = t.opShapesOf(t.slices[activity].args);
        return shapes && shapes->flops >= 0;
    };
    if (!t.opShapes.empty()) {
        for (const GpuDevice& d : t.gpuDevices) {
            if (cancelled()) return {};
            forEachActivity(t, d, w, [&](uint32_t k, const Track&, ActivityKind) {
                const Slice& s = t.slices[k];
                if (s.start < w.start || !carriesOwnCost(k)) return;
                const uint32_t signature = signatureIndex(s, *t.opShapesOf(s.args), true);
                if (signature != kNone)
                    costed.push_back(
                        {k, signature, true, out.signatures[signature].cost.matrix, false, true});
            });
        }
    }
    // Without the index: slice -> index in costed, for the walk up from a launch.
    std::unordered_map<uint32_t, uint32_t> costedAt;
    if (!options.index) {
        costedAt.reserve(costed.size());
        for (uint32_t i = 0; i < costed.size(); ++i)
            if (!costed[i].ownWork) costedAt.emplace(costed[i].slice, i);
    }

    // Each GPU activity to the first op around its launch call that carries a cost.
    std::vector<std::pair<uint32_t, uint32_t>> work;  // (costed op, activity)
    for (uint32_t c = 0; c < costed.size(); ++c)
        if (costed[c].ownWork) work.emplace_back(c, costed[c].slice);
    auto credit = [&](const EnclosingSlices& enclosing, uint32_t call, uint32_t activity) {
        enclosing.forEachUntil(call, [&](uint32_t op) {
            const auto it = costedAt.find(op);
            if (it == costedAt.end() || costed[it->second].covered) return false;
            work.emplace_back(it->second, activity);
            return true;
        });
    };
    std::optional<LaunchCalls> ownCalls;
    std::optional<EnclosingSlices> ownEnclosing;
    if (!options.index) {
        ownCalls.emplace(t);
        ownEnclosing.emplace(t);
    }
    const LaunchCalls& calls = options.index ? options.index->launches() : *ownCalls;
    const EnclosingSlices& enclosing = options.index ? options.index->enclosing() : *ownEnclosing;
    if (!costed.empty() && options.index) {
        // Costed ops that carry their cost never nest, so what is launched
        // inside one (in a deeper row of its track, within its span) is its
        // work: a pass over their insides, not over every CPU slice.
        const AnalysisIndex& index = *options.index;
        for (uint32_t c = 0; c < costed.size(); ++c) {
            if (costed[c].covered || costed[c].ownWork) continue;
            if ((c & 0xFFF) == 0 && cancelled()) return {};
            const Slice& op = t.slices[costed[c].slice];
            const Track& track = t.tracks[t.trackOfSlice(costed[c].slice)];
            for (const Row& row : track.rows) {
                if (row.depth <= op.depth) continue;
                const auto [lo, hi] = t.visibleInRow(row, op.start, op.end());
                for (uint32_t i = lo; i < hi; ++i) {
                    const Slice& inner = t.slices[i];
                    if (inner.start < op.start || inner.end() > op.end()) continue;
                    index.forEachLaunched(i, [&](uint32_t k) {
                        if (!carriesOwnCost(k)) work.emplace_back(c, k);
                    });
                }
            }
        }
    } else if (!costed.empty()) {
        for (const GpuDevice& device : t.gpuDevices) {
            if (cancelled()) return {};
            forEachActivity(t, device, kWholeTrace, [&](uint32_t k, const Track&, ActivityKind) {
                const uint32_t call = calls.first(k);
                if (call != kNone && !carriesOwnCost(k)) credit(enclosing, call, k);
            });
        }
    }
    std::sort(work.begin(), work.end());

    // Per op: its GPU time, device and first start; per signature, summed.
    struct Instance {
        uint32_t signature;
        TimeNs busy, firstStart;
        int device;
    };
    std::vector<Instance> instances;
    std::vector<std::vector<TimeNs>> busyOf(out.signatures.size());
    // Per signature: its kernels' time by name, and each name's first kernel.
    std::vector<std::map<StringId, std::pair<TimeNs, uint32_t>>> kernelsOf(out.signatures.size());
    std::vector<Interval> spans;
    std::unordered_map<StringId, NameEfficiency> byKernel, byOp;
    auto addTo = [](NameEfficiency& n, StringId name, double flops, std::optional<double> bound,
                    TimeNs time) {
        n.name = name;
        n.flops += flops;
        n.time += time;
        if (bound) {  // the roofline over the work that has one
            n.boundNs += *bound;
            n.boundTime += time;
        }
    };
    // Whether a kernel name shows Tensor Cores, decided once per name.
    std::unordered_map<StringId, bool> onTensorCores;
    auto tensorCores = [&](StringId name) {
        const auto [it, added] = onTensorCores.try_emplace(name, false);
        if (added) it->second = tensorCoreUse(t.str(name)) == TensorCoreUse::Yes;
        return it->second;
    };
    for (size_t i = 0; i < work.size();) {
        const uint32_t op = work[i].first;
        spans.clear();
        TimeNs first = INT64_MAX;
        int device = -1;
        bool hostCopy = false, onTensorCoreKernels = false;
        for (; i < work.size() && work[i].first == op; ++i) {
            const uint32_t k = work[i].second;
            const Slice& s = t.slices[k];
            spans.push_back({s.start, s.end()});
            if (activityKind(s) == ActivityKind::Kernel && tensorCores(s.name))
                onTensorCoreKernels = true;
            if (activityKind(s) == ActivityKind::Memcpy) {
                const CopyDirection d = copyDirection(t, t.tracks[t.trackOfSlice(k)], s);
                hostCopy |= d == CopyDirection::HtoD || d == CopyDirection::DtoH;
            }
            if (s.start < first) {
                first = s.start;
                device = deviceOfSlice(t, t.tracks[t.trackOfSlice(k)], s);
            }
        }
        const size_t last = i;
        const Instance inst{costed[op].signature, unionLength(spans), first, device};
        instances.push_back(inst);
        SignatureEfficiency& e = out.signatures[inst.signature];
        if (e.count == 0) {
            e.device = device;
            e.firstSlice = costed[op].slice;
            // fp32 matrix work on Tensor Cores is TF32 (PyTorch allowed it):
            // its kernels say so, its first instance's for the signature.
            if (e.cost.matrix && e.cost.precision == PeakType::Fp32 && onTensorCoreKernels)
                e.cost.precision = PeakType::Tf32;
        }
        ++e.count;
        e.busy += inst.busy;
        busyOf[inst.signature].push_back(inst.busy);
        const DevicePeaks* roofs = roofsOf(device);
        const auto peak = roofs ? peakFor(*roofs, e.cost) : std::nullopt;
        // A copy between host and device is bound by the host's link, which
        // the table does not hold: no roofline for it.
        std::optional<double> bound;
        if (peak && e.cost.bytes && roofs->memoryBandwidth > 0 && !hostCopy) {
            const double compute = e.cost.flops / *peak;
            const double memory = *e.cost.bytes / roofs->memoryBandwidth;
            bound = std::max(compute, memory) * 1e9;
            if (e.count == 1 || e.boundNs) {
                e.boundNs = e.boundNs.value_or(0) + *bound;
                e.computeBound = compute >= memory;
            }
        } else {
            e.boundNs.reset();
            e.computeBound.reset();
        }
        out.flops += e.cost.flops;
        out.costedBusy += inst.busy;
        addTo(byOp[e.name], e.name, e.cost.flops, bound, inst.busy);
        // Each kernel's share of the op: its part of the op's kernel time
        // (copies and memsets do no arithmetic: none of it goes to them).
        double total = 0;
        auto isKernel = [&](size_t j) {
            return activityKind(t.slices[work[j].second]) == ActivityKind::Kernel;
        };
        size_t kernels = 0;
        for (size_t j = last - spans.size(); j < last; ++j)
            if (isKernel(j)) {
                total += static_cast<double>(t.slices[work[j].second].dur);
                ++kernels;
            }
        for (size_t j = last - spans.size(); j < last; ++j) {
            if (!isKernel(j)) continue;
            const Slice& k = t.slices[work[j].second];
            const double share =
                total > 0 ? static_cast<double>(k.dur) / total : 1.0 / static_cast<double>(kernels);
            addTo(byKernel[k.name], k.name, e.cost.flops * share,
                  bound ? std::optional<double>(*bound * share) : std::nullopt, k.dur);
            auto [it, added] =
                kernelsOf[inst.signature].try_emplace(k.name, TimeNs{0}, work[j].second);
            it->second.first += k.dur;
        }
    }
    auto sortedByName = [](std::unordered_map<StringId, NameEfficiency>& m) {
        std::vector<NameEfficiency> v;
        v.reserve(m.size());
        for (auto& [name, n] : m)
            v.push_back(n);
        std::sort(v.begin(), v.end(),
                  [](const NameEfficiency& a, const NameEfficiency& b) { return a.name < b.name; });
        return v;
    };
    out.kernelNames = sortedByName(byKernel);
    out.opNames = sortedByName(byOp);
    for (size_t s = 0; s < out.signatures.size(); ++s) {
        SignatureEfficiency& e = out.signatures[s];
        if (busyOf[s].empty()) continue;
        const Distribution d = distributionOf(busyOf[s]);
        TimeNs most = -1;
        for (const auto& [name, timeAndSlice] : kernelsOf[s])
            if (timeAndSlice.first > most) {
                most = timeAndSlice.first;
                e.topKernel = name;
                e.topKernelSlice = timeAndSlice.second;
            }
        e.medianBusy = d.median;
        e.minBusy = d.min;
        e.maxBusy = d.max;
    }
    // Per step and GPU: the FLOPs of the ops whose first GPU work starts in
    // its tile, against its GPU window at the peak of the type that did
    // most of its matrix FLOPs; and the share of its compute kernels' time
    // on Tensor Cores (by their names).
    if (options.steps && options.windows) {
        std::sort(instances.begin(), instances.end(),
                  [](const Instance& a, const Instance& b) { return a.firstStart < b.firstStart; });
        std::map<PeakType, double> stepMatrixFlops;
        for (size_t i = 0; i < options.steps->steps.size() && i < options.windows->perStep.size();
             ++i) {
            if (cancelled()) return {};
            const Step& step = options.steps->steps[i];
            for (const auto& [device, gw] : options.windows->perStep[i]) {
                const Interval tile = gw.tile();
                if (tile.end <= w.start || tile.start >= w.end) continue;
                StepEfficiency se;
                se.number = step.number;
                se.device = device;
                se.window = gw.window;
                std::map<PeakType, double> matrixFlops;
                auto it =
                    std::lower_bound(instances.begin(), instances.end(), tile.start,
                                     [](const Instance& a, TimeNs v) { return a.firstStart < v; });
                for (; it != instances.end() && it->firstStart < tile.end; ++it) {
                    if (it->device != device) continue;
                    const OpCost& c = out.signatures[it->signature].cost;
                    se.flops += c.flops;
                    if (c.matrix && c.precision) {
                        matrixFlops[*c.precision] += c.flops;
                        stepMatrixFlops[*c.precision] += c.flops;
                    }
                }
                const auto dominant = std::max_element(
                    matrixFlops.begin(), matrixFlops.end(),
                    [](const auto& a, const auto& b) { return a.second < b.second; });
                if (dominant != matrixFlops.end()) se.precision = dominant->first;
                for (const GpuDevice& d : t.gpuDevices) {
                    if (d.index != device) continue;
                    forEachActivity(t, d, tile, [&](uint32_t k, const Track&, ActivityKind kind) {
                        const Slice& s = t.slices[k];
                        if (kind != ActivityKind::Kernel || s.start < tile.start ||
                            activityClass(s) != ActivityClass::Compute)
                            return;
                        se.kernelNs += s.dur;
                        if (tensorCores(s.name)) se.tensorCoreNs += s.dur;
                    });
                }
                out.steps.push_back(se);
            }
        }
        // A step without matrix work is held against the type that did most
        // of the trace's: every step has the same peak to be measured by.
        const auto dominant =
            std::max_element(stepMatrixFlops.begin(), stepMatrixFlops.end(),
                             [](const auto& a, const auto& b) { return a.second < b.second; });
        for (StepEfficiency& se : out.steps) {
            if (!se.precision && dominant != stepMatrixFlops.end()) se.precision = dominant->first;
            const DevicePeaks* roofs = roofsOf(se.device);
            if (!roofs || !se.precision || se.window.length() <= 0) continue;
            OpCost at;
            at.precision = se.precision;
            if (const auto peak = peakFor(*roofs, at)) {
                se.peak = *peak;
                se.mfu = se.flops / (*peak * static_cast<double>(se.window.length()) * 1e-9);
            }
        }
    }
    out.collectives = collectives(t, w, calls, enclosing, out.devices, cancelled);
    if (cancelled()) return {};

    // Signatures whose ops launched nothing on a GPU have no figures.
    std::erase_if(out.signatures, [](const SignatureEfficiency& e) { return e.count == 0; });
    std::sort(out.signatures.begin(), out.signatures.end(),
              [&](const SignatureEfficiency& a, const SignatureEfficiency& b) {
                  if (a.busy != b.busy) return a.busy > b.busy;
                  if (a.cost.flops != b.cost.flops) return a.cost.flops > b.cost.flops;
                  if (a.name != b.name) return t.str(a.name) < t.str(b.name);
                  return t.str(a.shapes) < t.str(b.shapes);
              });

    return out;
}

}  // namespace gapscope
