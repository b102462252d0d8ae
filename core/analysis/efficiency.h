#pragma once
// How well the busy time is used: each op's FLOPs and bytes (op_cost.h)
// given to the GPU work it launched, against the device's roofs
// (device_peaks.h). Per op signature (name + recorded shapes, types and
// concrete inputs): achieved TFLOP/s and TB/s, arithmetic intensity, the
// roofline's bound at that intensity and the share of it reached; per step
// and GPU: MFU and the Tensor Core share of kernel time.
//
// Which op carries the cost where costed ops nest (aten::linear around
// aten::addmm): the innermost, unless an outer one was counted by the
// profiler itself (Kineto's flops on aten::conv2d), whose count then
// stands for all inside it. A GPU activity goes to the first op around its
// launch call that carries a cost; an op's GPU time is the union of its
// activities (as TraceLens times an op).

#include <memory>
#include <optional>
#include <regex>
#include <vector>

#include "analysis/device_peaks.h"
#include "analysis/op_cost.h"
#include "analysis/steps.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

class AnalysisIndex;

struct EfficiencyOptions {
    Interval window = kWholeTrace;  // ops that start in it
    const AnalysisIndex* index = nullptr;
    const CancelToken* cancel = nullptr;
    std::optional<DevicePeaks> peaks;  // a person's, for every GPU (over the table's)
    // For MFU per step: the steps and their GPU windows (none: no steps).
    const StepList* steps = nullptr;
    const StepWindows* windows = nullptr;
};

// A GPU's roofs and where they came from.
struct DeviceRoofs {
    int device = 0;
    std::string traceName;             // as the trace names it
    std::optional<DevicePeaks> peaks;  // none: unknown, and none given
    bool given = false;                // from --peak / Settings
};

struct SignatureEfficiency {
    StringId name = 0;
    StringId shapes = 0;  // Trace::opShapes' text; 0 where only the profiler's count is known
    OpCost cost;          // per instance
    uint64_t count = 0;   // instances that ran GPU work
    TimeNs busy = 0;      // their GPU time, summed
    TimeNs medianBusy = 0, minBusy = 0, maxBusy = 0;  // per instance
    // The roofline's time for all instances (max of FLOPs over the peak
    // and bytes over the bandwidth, each on its own GPU); none where a
    // roof is unknown.
    std::optional<double> boundNs;
    std::optional<bool> computeBound;  // at or right of the ridge
    int device = -1;                   // the first instance's GPU
    uint32_t firstSlice = kNone;
    StringId topKernel = 0;  // the kernel name with most of its GPU time
    uint32_t topKernelSlice = kNone;
};

struct StepEfficiency {
    int64_t number = 0;
    int device = 0;
    Interval window{};  // the step's GPU window on the device
    double flops = 0;   // of the ops whose first GPU work starts in its tile
    // The dominant type of its matrix FLOPs (the trace's, for a step without
    // matrix work), its peak on the GPU (FLOP/s), and flops / (window × peak).
    std::optional<PeakType> precision;
    std::optional<double> peak;
    std::optional<double> mfu;
    TimeNs kernelNs = 0, tensorCoreNs = 0;  // compute kernels, and those on Tensor Cores
};

// The collectives of one kind, size and group on one GPU, as NCCL's own
// tests measure them: the algorithm bandwidth (the operation's bytes over
// its time) and the bus bandwidth (that, times what each rank must move for
// the collective: 2(n−1)/n for an all-reduce, (n−1)/n for an all-gather,
// reduce-scatter or all-to-all, 1 for a broadcast, reduce or send/receive).
struct CollectiveEfficiency {
    int device = 0;
    std::string name;  // as recorded
    vocabulary::CollectiveKind kind = vocabulary::CollectiveKind::Other;
    int64_t groupSize = 0;
    std::optional<int64_t> bytes;  // the operation's size, as NCCL's tests count it
    uint64_t count = 0;
    TimeNs total = 0, median = 0;                      // kernel time
    std::optional<double> algBandwidth, busBandwidth;  // bytes per second
    std::optional<double> ofLink;  // the bus bandwidth's share of the GPU's link
    uint32_t firstSlice = kNone;
};

// The FLOPs and roofline time given to a name's work: a kernel name's share
// of the ops whose work it ran (each op's split over its activities by their
// durations), or an op name's own (the ops that carry a cost). `time` is
// the work's time those figures are over.
struct NameEfficiency {
    StringId name = 0;
    double flops = 0;
    TimeNs time = 0;
    // The roofline's time of the work that has one (a host copy has none),
    // and that work's time.
    double boundNs = 0;
    TimeNs boundTime = 0;
};

struct EfficiencyResult {
    std::vector<DeviceRoofs> devices;
    std::vector<SignatureEfficiency> signatures;       // by GPU time, then FLOPs, then name
    std::vector<StepEfficiency> steps;                 // by step, then device
    std::vector<CollectiveEfficiency> collectives;     // by kernel time
    std::vector<NameEfficiency> kernelNames, opNames;  // by name id
    double flops = 0;                                  // of every costed op in the window
    TimeNs costedBusy = 0;                             // their GPU time
    TimeNs gpuBusy = 0;                                // every GPU's busy time in the window
    uint64_t uncostedOps = 0;  // modelled ops whose shapes do not say (no formula applies)
};

EfficiencyResult efficiency(const Trace& trace, const EfficiencyOptions& options = {});

// The efficiency of a window with its steps (`regex`'s, else the default
// ones) against the table's roofs or `peaks`: what the Efficiency, Kernels,
// Ops and Advice views all read, computed once per window where there is an
// index and neither peaks nor a step pattern is given.
std::shared_ptr<const EfficiencyResult> efficiencyOfWindow(
    const Trace& trace, Interval window, const AnalysisIndex* index, const std::regex* regex,
    const CancelToken* cancel, const std::optional<DevicePeaks>& peaks = {});

// The roofline at an intensity (FLOPs per byte): min(peak, intensity × bandwidth).
std::optional<double> attainableFlops(const DevicePeaks& peaks, const OpCost& cost);
// The peak that bounds a cost on a device (matrix fp64 falls back to the
// vector fp64 where the device has no fp64 Tensor Cores, TF32 to fp32 where
// it has no TF32).
std::optional<double> peakFor(const DevicePeaks& peaks, const OpCost& cost);

}  // namespace gapscope
