#include "analysis/advice.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

#include "analysis/analysis_index.h"
#include "util/ascii_text.h"
#include "util/readable_units.h"

namespace gapscope {

const char* severityName(Severity s) {
    switch (s) {
        case Severity::High:
            return "high";
        case Severity::Medium:
            return "medium";
        case Severity::Low:
            break;
    }
    return "low";
}

namespace {

std::string gpu(int device) {
    std::string s = "GPU ";
    s.append(std::to_string(device));
    return s;
}

double share(TimeNs part, TimeNs whole) {
    return whole > 0 ? static_cast<double>(part) / static_cast<double>(whole) : 0;
}

// A finding with the share of time it is about, for ordering.
struct Ranked {
    Finding finding;
    double impact = 0;
};

// Within a severity, causes before the symptom they explain (GPU idle).
int priority(const std::string& rule) {
    static constexpr const char* kOrder[] = {
        "truncated-trace",       "missing-gpu-work", "input-bound",    "blocking-sync",
        "exposed-communication", "memory-peak",      "gpu-idle",       "tiny-kernels",
        "pageable-copies",       "no-tensor-cores",  "below-roofline", "memory-growth"};
    for (size_t i = 0; i < std::size(kOrder); ++i)
        if (rule == kOrder[i]) return static_cast<int>(i);
    return static_cast<int>(std::size(kOrder));
}

// Per device, the time account's figures (over the steps, or without steps
// the device's active span): the same numbers the Overview shows.
struct DeviceTime {
    int device = 0;
    TimeNs time = 0, idle = 0, exposedComm = 0, syncIdle = 0;
    std::array<TimeNs, kGapCauseCount> idleByCause{};
    TimeNs idleShort = 0;
    const char* of = "";                      // the denominator's name
    const GpuTimeAccount* account = nullptr;  // its gaps
};

// The inputs' account, else one made from their steps, breakdowns and gaps.
const TimeAccount& accountOf(const AdviceInputs& in, std::optional<TimeAccount>& own) {
    if (in.account) return *in.account;
    static const StepsResult kNoSteps;
    static const std::vector<GpuTimeBreakdown> kNoBreakdowns;
    static const std::vector<DeviceGaps> kNoGaps;
    return own.emplace(timeAccount(in.steps ? *in.steps : kNoSteps,
                                   in.breakdowns ? *in.breakdowns : kNoBreakdowns,
                                   in.gaps ? *in.gaps : kNoGaps));
}

std::vector<DeviceTime> deviceTimes(const TimeAccount& account) {
    std::vector<DeviceTime> out;
    for (const GpuTimeAccount& a : account.devices) {
        DeviceTime d;
        d.device = a.device;
        d.time = a.time;
        d.idle = a.idle();
        d.exposedComm = a.exposedComm;
        d.idleByCause = a.idleByCause;
        d.idleShort = a.idleShort;
        d.syncIdle = a.idleByCause[static_cast<size_t>(GapCause::Synchronization)];
        d.of = denominatorName(a.denominator);
        d.account = &a;
        out.push_back(d);
    }
    return out;
}

// The longest idle gaps of a device's account (optionally of one cause).
std::vector<const CausedGap*> longestGaps(const DeviceTime& d, std::optional<GapCause> cause,
                                          size_t most) {
    std::vector<const CausedGap*> out;
    for (const CausedGap& g : d.account->gaps)
        if (!cause || g.cause == *cause) out.push_back(&g);
    std::sort(out.begin(), out.end(), [](const CausedGap* a, const CausedGap* b) {
        if (a->gap.length() != b->gap.length()) return a->gap.length() > b->gap.length();
        return a->gap.start < b->gap.start;
    });
    if (out.size() > most) out.resize(most);
    return out;
}

void addGapEvidence(Finding& f, const std::vector<const CausedGap*>& gaps, size_t maxSlices) {
    for (const CausedGap* g : gaps) {
        f.ranges.push_back(g->gap);
        for (const uint32_t s : g->evidence) {
            if (f.slices.size() >= maxSlices) break;
            if (std::find(f.slices.begin(), f.slices.end(), s) == f.slices.end())
                f.slices.push_back(s);
        }
    }
}

void inputBound(const Trace& t, const AdviceInputs& in, std::vector<Ranked>& out) {
    if (!in.pipeline || in.pipeline->verdict == InputVerdict::NotInputBound) return;
    const PipelineReport& p = *in.pipeline;
    Finding f;
    f.rule = "input-bound";
    f.severity = p.verdict == InputVerdict::Highly ? Severity::High : Severity::Medium;
    const double s = p.inputShare.value_or(0);
    std::string what;
    if (p.dataLoader) {
        const double loaderShare = share(p.hostWait, p.hostTime);
        if (p.dataLoader->kind == std::optional<std::string>("single-process") &&
            loaderShare > 0.05)
            what =
                "the DataLoader loads in the main process: set num_workers > 0 (and "
                "pin_memory=True)";
        else
            what = "raise the DataLoader's num_workers or make __getitem__ cheaper";
        f.figures.push_back(FindingFigure::share("dataloader_share", loaderShare, "host_time_ns"));
        f.figures.push_back(FindingFigure::duration("host_time_ns", p.hostTime));
    }
    if (p.checks) {
        std::vector<std::string> fixes;
        if (p.checks->missingPrefetch) fixes.push_back("add .prefetch(tf.data.AUTOTUNE)");
        if (p.checks->sequentialMap)
            fixes.push_back("use map(..., num_parallel_calls=tf.data.AUTOTUNE)");
        if (p.checks->noCache) fixes.push_back("cache() the dataset if it fits in memory");
        std::string joined;
        for (const std::string& x : fixes) {
            if (!joined.empty()) joined.append("; ");
            joined.append(x);
        }
        if (!joined.empty()) what = what.empty() ? joined : what + "; " + joined;
    }
    if (what.empty()) what = "make the input pipeline faster (prefetch, parallel map, cache)";
    const char* of = denominatorName(p.denominator);
    f.message = p.fromGpu ? "The GPU waits for input: idle waiting for the next batch "
                          : "The host waits for input: in the next batch's loading ";
    f.message.append(readablePercent(s)).append(" of the ").append(of).append(" (");
    f.message.append(readableDuration(p.inputWait)).append(" of ").append(readableDuration(p.time));
    f.message.append("); ").append(what).append(".");
    f.figures.insert(f.figures.begin(), {FindingFigure::share("input_share", s, "time_ns"),
                                         FindingFigure::duration("input_wait_ns", p.inputWait),
                                         FindingFigure::duration("time_ns", p.time),
                                         FindingFigure::duration("host_wait_ns", p.hostWait)});
    f.slices = p.longestWaits;
    if (in.steps) {
        // The steps that waited longest.
        std::vector<std::pair<TimeNs, Interval>> waits;
        for (size_t i = 0; i < p.perStep.size() && i < in.steps->steps.size(); ++i)
            if (p.perStep[i].wait > 0)
                waits.push_back({p.perStep[i].wait, in.steps->steps[i].step.span});
        std::stable_sort(waits.begin(), waits.end(),
                         [](const auto& a, const auto& b) { return a.first > b.first; });
        for (size_t i = 0; i < waits.size() && i < 5; ++i)
            f.ranges.push_back(waits[i].second);
    }
    if (f.slices.empty() && f.ranges.empty()) return;
    (void)t;
    out.push_back({std::move(f), s});
}

void gpuIdle(const std::vector<DeviceTime>& times, std::vector<Ranked>& out) {
    for (const DeviceTime& d : times) {
        if (d.idle * 5 <= d.time) continue;
        Finding f;
        f.rule = "gpu-idle";
        f.device = d.device;
        const double s = share(d.idle, d.time);
        f.severity = s > 0.5 ? Severity::High : Severity::Medium;
        size_t lead = 0;
        for (size_t c = 1; c < kGapCauseCount; ++c)
            if (d.idleByCause[c] > d.idleByCause[lead]) lead = c;
        const bool shortLeads = d.idleShort > d.idleByCause[lead];
        // A leading cause with its own finding (input-bound, blocking-sync)
        // is told there: this one says how idle, rated by that, and points
        // to it. (input-bound runs before this rule; blocking-sync fires
        // whenever synchronization idle has gaps to show.)
        const bool inputFinding = std::any_of(out.begin(), out.end(), [](const Ranked& r) {
            return r.finding.rule == "input-bound";
        });
        const bool toldElsewhere =
            !shortLeads && ((GapCause(lead) == GapCause::Input && inputFinding) ||
                            GapCause(lead) == GapCause::Synchronization);
        f.message = gpu(d.device);
        f.message.append(" is idle ")
            .append(readablePercent(s))
            .append(" of the ")
            .append(d.of)
            .append(" (");
        f.message.append(readableDuration(d.idle)).append(" of ").append(readableDuration(d.time));
        f.message.append("); the most idle time is ");
        if (shortLeads) {
            f.message.append("in short gaps between kernels (");
            f.message.append(readableDuration(d.idleShort))
                .append("): launch overhead or small kernels.");
        } else {
            f.message.append("caused by ").append(gapCauseName(GapCause(lead))).append(" (");
            f.message.append(readableDuration(d.idleByCause[lead])).append(")");
            if (toldElsewhere)
                f.message.append(": the ")
                    .append(GapCause(lead) == GapCause::Input ? "input-bound" : "blocking-sync")
                    .append(" finding says why");
            f.message.append(".");
        }
        f.figures = {FindingFigure::share("idle_share", s, "time_ns"),
                     FindingFigure::duration("idle_ns", d.idle),
                     FindingFigure::duration("time_ns", d.time),
                     FindingFigure::duration("short_gaps_ns", d.idleShort)};
        for (size_t c = 0; c < kGapCauseCount; ++c) {
            std::string key = "idle_";
            key.append(gapCauseName(GapCause(c))).append("_ns");
            f.figures.push_back(FindingFigure::duration(key, d.idleByCause[c]));
        }
        addGapEvidence(f, longestGaps(d, std::nullopt, 5), 10);
        if (f.ranges.empty()) continue;
        out.push_back({std::move(f), s});
    }
}

// The time short kernels run inside a device's account windows (their
// union: kernels on several streams at once count once).
TimeNs shortKernelTime(const Trace& t, const GpuTimeAccount& d) {
    const auto device = std::find_if(t.gpuDevices.begin(), t.gpuDevices.end(),
                                     [&](const GpuDevice& g) { return g.index == d.device; });
    if (device == t.gpuDevices.end()) return 0;
    TimeNs sum = 0;
    for (const Interval& w : d.windows) {
        std::vector<Interval> runs;
        forEachActivity(t, *device, w, [&](uint32_t k, const Track&, ActivityKind kind) {
            const Slice& s = t.slices[k];
            if (kind == ActivityKind::Kernel && s.dur < kShortKernelNs)
                runs.push_back({s.start, s.end()});
        });
        mergeIntervals(runs);
        sum += lengthWithin(runs, w);
    }
    return sum;
}

// Tiny kernels cost what they run plus the launch gaps between them: fire
// when those (the short kernels' time and the short idle gaps, both inside
// the account's windows) take at least a tenth of the GPUs' time, not by
// how many kernels are short.
void tinyKernels(const Trace& t, const AdviceInputs& in, const TimeAccount& account,
                 std::vector<Ranked>& out) {
    if (!in.launch || !in.launch->shortShare || in.launch->shortKernels == 0) return;
    const LaunchOverhead& l = *in.launch;
    TimeNs time = 0, shortGaps = 0, shortKernels = 0;
    for (const GpuTimeAccount& d : account.devices) {
        time += d.time;
        shortGaps += d.idleShort;
        shortKernels += shortKernelTime(t, d);
    }
    const TimeNs cost = shortKernels + shortGaps;
    if (time <= 0 || cost * 10 < time) return;
    const double s = share(cost, time);
    Finding f;
    f.rule = "tiny-kernels";
    f.severity = Severity::Medium;
    f.message = std::to_string(l.shortKernels);
    f.message.append(" kernels (").append(readablePercent(*l.shortShare)).append(" of them) run ");
    f.message.append("shorter than 10 µs; with the short gaps between kernels they take ");
    f.message.append(readablePercent(s))
        .append(" of the GPUs' ")
        .append(denominatorName(account.denominator))
        .append(" (");
    f.message.append(readableDuration(cost)).append(" of ").append(readableDuration(time));
    f.message.append("): fuse them (torch.compile, XLA), capture CUDA graphs, or raise the ");
    f.message.append("batch size.");
    f.figures = {FindingFigure::count("short_kernels", static_cast<int64_t>(l.shortKernels)),
                 FindingFigure::count("kernels", static_cast<int64_t>(l.kernels)),
                 FindingFigure::share("short_share", *l.shortShare, "kernels"),
                 FindingFigure::duration("short_kernel_ns", shortKernels),
                 FindingFigure::duration("short_gaps_ns", shortGaps),
                 FindingFigure::share("cost_share", s, "time_ns"),
                 FindingFigure::duration("time_ns", time)};
    if (in.kernels) {
        // The most frequent short kernels, one instance each.
        std::vector<const KernelStats*> shortOnes;
        for (const KernelStats& k : *in.kernels)
            if (k.median < kShortKernelNs) shortOnes.push_back(&k);
        std::stable_sort(shortOnes.begin(), shortOnes.end(),
                         [](const auto* a, const auto* b) { return a->count > b->count; });
        for (size_t i = 0; i < shortOnes.size() && i < 5; ++i)
            f.slices.push_back(shortOnes[i]->firstSlice);
    }
    if (f.slices.empty()) return;
    out.push_back({std::move(f), s});
}

void blockingSync(const Trace& t, const std::vector<DeviceTime>& times, std::vector<Ranked>& out) {
    for (const DeviceTime& d : times) {
        if (d.syncIdle <= 0) continue;
        Finding f;
        f.rule = "blocking-sync";
        f.device = d.device;
        const double s = share(d.syncIdle, d.time);
        f.severity = s >= 0.05 ? Severity::Medium : Severity::Low;
        addGapEvidence(f, longestGaps(d, GapCause::Synchronization, 5), 10);
        std::set<std::string_view> names;
        for (const uint32_t x : f.slices)
            names.insert(t.str(t.slices[x].name));
        std::string list;
        for (const std::string_view n : names) {
            if (!list.empty()) list.append(", ");
            list.append(n);
        }
        f.message = "Blocking synchronisation leaves ";
        f.message.append(gpu(d.device)).append(" idle for ").append(readableDuration(d.syncIdle));
        f.message.append(" (")
            .append(readablePercent(s))
            .append(" of the ")
            .append(d.of)
            .append(")");
        if (!list.empty()) f.message.append(": ").append(list);
        f.message.append(
            "; avoid reading GPU values on the host inside the step (.item(), "
            ".cpu(), printing a loss) or move them to its end.");
        f.figures = {FindingFigure::duration("sync_idle_ns", d.syncIdle),
                     FindingFigure::share("sync_idle_share", s, "time_ns"),
                     FindingFigure::duration("time_ns", d.time)};
        if (f.ranges.empty()) continue;
        out.push_back({std::move(f), s});
    }
}

void pageableCopies(const AdviceInputs& in, const std::vector<DeviceTime>& times,
                    std::vector<Ranked>& out) {
    if (!in.copies) return;
    std::map<int, Finding> byDevice;
    std::map<int, std::pair<uint64_t, TimeNs>> totals;
    for (const CopyStats& c : *in.copies) {
        if (c.direction != CopyDirection::HtoD || c.memory != HostMemory::Pageable) continue;
        Finding& f = byDevice[c.device];
        f.slices.push_back(c.longestSlice);
        totals[c.device].first += c.count;
        totals[c.device].second += c.total;
    }
    for (auto& [device, f] : byDevice) {
        TimeNs time = 0;
        for (const DeviceTime& d : times)
            if (d.device == device) time = d.time;
        const auto [count, total] = totals[device];
        const double s = share(total, time);
        f.rule = "pageable-copies";
        f.device = device;
        f.severity = s >= 0.01 ? Severity::Medium : Severity::Low;
        f.message = std::to_string(count);
        f.message.append(" host-to-device copies to ").append(gpu(device));
        f.message.append(" come from pageable memory (").append(readableDuration(total));
        f.message.append(
            "): pin the host memory (DataLoader pin_memory=True, "
            "tensor.pin_memory()) and copy with non_blocking=True.");
        f.figures = {FindingFigure::count("copies", static_cast<int64_t>(count)),
                     FindingFigure::duration("total_ns", total),
                     FindingFigure::share("share_of_step_time", s, "time_ns"),
                     FindingFigure::duration("time_ns", time)};
        out.push_back({std::move(f), s});
    }
}

void exposedComm(const AdviceInputs& in, const std::vector<DeviceTime>& times,
                 std::vector<Ranked>& out) {
    for (const DeviceTime& d : times) {
        if (d.exposedComm * 10 <= d.time) continue;
        Finding f;
        f.rule = "exposed-communication";
        f.device = d.device;
        const double s = share(d.exposedComm, d.time);
        f.severity = s > 0.3 ? Severity::High : Severity::Medium;
        f.message = "Communication that does not overlap compute takes ";
        f.message.append(readablePercent(s))
            .append(" of ")
            .append(gpu(d.device))
            .append("'s ")
            .append(d.of)
            .append(" (");
        f.message.append(readableDuration(d.exposedComm))
            .append("): overlap it with compute (DDP ");
        f.message.append("bucketing, FSDP prefetch) or communicate less (gradient accumulation).");
        f.figures = {FindingFigure::duration("exposed_comm_ns", d.exposedComm),
                     FindingFigure::share("share_of_step_time", s, "time_ns"),
                     FindingFigure::duration("time_ns", d.time)};
        if (in.kernels) {
            for (const KernelStats& k : *in.kernels) {
                if (k.communication && f.slices.size() < 5) f.slices.push_back(k.firstSlice);
            }
        }
        if (in.steps) {
            std::vector<std::pair<TimeNs, Interval>> worst;
            for (const StepReport& r : in.steps->steps)
                for (const StepBreakdown& b : r.devices)
                    if (b.device == d.device && b.exposedComm > 0)
                        worst.push_back({b.exposedComm, r.step.span});
            std::stable_sort(worst.begin(), worst.end(),
                             [](const auto& a, const auto& b) { return a.first > b.first; });
            for (size_t i = 0; i < worst.size() && i < 3; ++i)
                f.ranges.push_back(worst[i].second);
        }
        if (f.slices.empty() && f.ranges.empty()) continue;
        out.push_back({std::move(f), s});
    }
}

void tensorCores(const Trace& t, const AdviceInputs& in, std::vector<Ranked>& out) {
    if (!in.kernels || !in.breakdowns) return;
    TimeNs compute = 0, gemmConv = 0;
    for (const GpuTimeBreakdown& b : *in.breakdowns)
        compute += b.computation;
    std::vector<const KernelStats*> heavy;
    for (const KernelStats& k : *in.kernels) {
        if (k.tensorCores == TensorCoreUse::Yes) return;  // some kernel already uses them
        // Only matrix kernels known not to use them (an unknown may).
        if (k.communication || k.tensorCores != TensorCoreUse::No ||
            !looksLikeMatrixKernel(t.str(k.name)))
            continue;
        gemmConv += k.total;
        heavy.push_back(&k);
    }
    if (gemmConv * 5 <= compute || heavy.empty()) return;
    Finding f;
    f.rule = "no-tensor-cores";
    f.severity = Severity::Medium;
    const double s = share(gemmConv, compute);
    f.message = "GEMM and convolution kernels take ";
    f.message.append(readablePercent(s))
        .append(" of the compute time and none runs on Tensor Cores: ");
    f.message.append("train in mixed precision (torch.autocast with bf16/fp16, or TF32).");
    f.figures = {FindingFigure::duration("gemm_conv_ns", gemmConv),
                 FindingFigure::duration("compute_ns", compute),
                 FindingFigure::share("share_of_compute", s, "compute_ns")};
    for (size_t i = 0; i < heavy.size() && i < 5; ++i)
        f.slices.push_back(heavy[i]->firstSlice);
    out.push_back({std::move(f), s});
}

// The op signatures that take a real share of the GPUs' time at most half
// as fast as their roofline allows: the three that lose the most time
// against the roof (their time less the roofline's), each a finding.
void belowRoofline(const Trace& t, const AdviceInputs& in, std::vector<Ranked>& out) {
    if (!in.efficiency || in.efficiency->gpuBusy <= 0) return;
    const EfficiencyResult& e = *in.efficiency;
    struct Loss {
        const SignatureEfficiency* s;
        double lost;
    };
    std::vector<Loss> losses;
    for (const SignatureEfficiency& s : e.signatures) {
        if (!s.boundNs || s.busy <= 0 || s.busy * 50 < e.gpuBusy) continue;
        const double reached = *s.boundNs / static_cast<double>(s.busy);
        if (reached > 0.5) continue;
        losses.push_back({&s, static_cast<double>(s.busy) - *s.boundNs});
    }
    std::sort(losses.begin(), losses.end(),
              [](const Loss& a, const Loss& b) { return a.lost > b.lost; });
    if (losses.size() > 3) losses.resize(3);
    for (const Loss& l : losses) {
        const SignatureEfficiency& s = *l.s;
        const double n = static_cast<double>(s.count);
        const double seconds = static_cast<double>(s.busy) * 1e-9;
        const double achieved = s.cost.flops * n / seconds;
        const double roof = s.cost.flops * n / (*s.boundNs * 1e-9);
        const double reached = *s.boundNs / static_cast<double>(s.busy);
        const double ofBusy = share(s.busy, e.gpuBusy);
        Finding f;
        f.rule = "below-roofline";
        f.severity = ofBusy >= 0.1 ? Severity::Medium : Severity::Low;
        f.device = s.device;
        const bool compute = s.computeBound.value_or(true);
        auto tflops = [](double v) {
            char text[32];
            std::snprintf(text, sizeof text, "%.1f", v / 1e12);
            return std::string(text);
        };
        f.message = std::string(t.str(s.name));
        // (An HLO op's kernel is the op itself.)
        if (s.topKernel && s.topKernel != s.name)
            f.message.append(" (kernel ").append(t.str(s.topKernel)).append(")");
        f.message.append(" reaches ")
            .append(readablePercent(reached))
            .append(" of its roofline: ")
            .append(tflops(achieved))
            .append(" of ")
            .append(tflops(roof))
            .append(compute ? " TFLOP/s (compute-bound), over "
                            : " TFLOP/s (memory-bound at its intensity), over ")
            .append(readableDuration(s.busy))
            .append(", ")
            .append(readablePercent(ofBusy))
            .append(" of the GPUs' busy time. ")
            .append(compute ? "Check its shapes (multiples of 8/16, large enough to fill the GPU) "
                              "and its data type."
                            : "Fuse it with its neighbours (torch.compile) or keep its data in a "
                              "lower precision.");
        f.figures = {FindingFigure::duration("gpu_ns", s.busy),
                     FindingFigure::duration("gpu_busy_ns", e.gpuBusy),
                     FindingFigure::share("share_of_busy", ofBusy, "gpu_busy_ns"),
                     {"tflops", Unit::Number, achieved / 1e12},
                     {"roofline_tflops", Unit::Number, roof / 1e12},
                     FindingFigure::share("of_roofline", reached)};
        f.slices.push_back(s.firstSlice);
        if (s.topKernelSlice != kNone && s.topKernelSlice != s.firstSlice)
            f.slices.push_back(s.topKernelSlice);
        out.push_back({std::move(f), l.lost});
    }
}

// What the trace lacks qualifies every other figure: say so first.
void health(const Trace& t, const AdviceInputs& in, std::vector<Ranked>& out) {
    if (!in.health) return;
    const TraceHealth& h = *in.health;
    if (const HealthCheck* cut = h.find("truncated"); cut && cut->count) {
        Finding f;
        f.rule = "truncated-trace";
        f.severity = Severity::Medium;
        f.message =
            "The trace file is cut short (the profiler did not finish writing it): what follows "
            "the cut is missing, and the last step's figures are lower bounds.";
        f.ranges.push_back({t.spanEnd, t.spanEnd});
        f.figures = {{"span_end_ns", Unit::Time, int64_t{t.spanEnd}}};
        out.push_back({std::move(f), 1.0});
    }
    if (h.launchesWithoutWork.empty()) return;
    // The steps the launches fall in, by number.
    // Each rank's steps by start (a rank's steps do not overlap): a launch
    // falls in the last one of its rank that starts at or before it.
    auto groupOf = [&](uint32_t slice) {
        const uint32_t track = t.trackOfSlice(slice);
        return track == kNone ? 0u : t.processes[t.tracks[track].process].group;
    };
    std::map<uint32_t, std::vector<const Step*>> byRank;
    if (in.steps)
        for (const StepReport& r : in.steps->steps)
            byRank[groupOf(r.step.slice)].push_back(&r.step);
    for (auto& [rank, list] : byRank)
        std::sort(list.begin(), list.end(),
                  [](const Step* a, const Step* b) { return a->span.start < b->span.start; });
    std::set<int64_t> steps;
    size_t outside = 0;
    for (const uint32_t l : h.launchesWithoutWork) {
        const TimeNs at = t.slices[l].start;
        const auto rank = byRank.find(groupOf(l));
        bool inStep = false;
        if (rank != byRank.end()) {
            const auto& list = rank->second;
            const auto after =
                std::upper_bound(list.begin(), list.end(), at,
                                 [](TimeNs v, const Step* s) { return v < s->span.start; });
            if (after != list.begin() && at < (*(after - 1))->span.end) {
                steps.insert((*(after - 1))->number);
                inStep = true;
            }
        }
        outside += !inStep;
    }
    Finding f;
    f.rule = "missing-gpu-work";
    f.severity = Severity::Medium;
    const size_t n = h.launchesWithoutWork.size();
    f.message =
        "GPU work is missing for " + std::to_string(n) + " launch call" + (n == 1 ? "" : "s");
    if (!steps.empty()) {
        f.message += " in step" + std::string(steps.size() == 1 ? " " : "s ");
        size_t listed = 0;
        for (const int64_t s : steps) {
            if (listed++ == 8) {
                f.message += ", …";
                break;
            }
            f.message += (listed > 1 ? ", " : "") + std::to_string(s);
        }
        if (outside) f.message += " (and " + std::to_string(outside) + " outside steps)";
    }
    f.message +=
        ": the profiler lost it or its window cut it, so the GPU figures there are lower "
        "bounds (Trace Health lists the calls).";
    for (const uint32_t l : h.launchesWithoutWork) {
        if (f.slices.size() == kHealthExamples) break;
        f.slices.push_back(l);
        f.ranges.push_back({t.slices[l].start, t.slices[l].end()});
    }
    f.figures = {FindingFigure::count("launches_without_gpu_work", static_cast<int64_t>(n)),
                 FindingFigure::count("steps_affected", static_cast<int64_t>(steps.size()))};
    out.push_back({std::move(f), static_cast<double>(n)});
}

void memory(const AdviceInputs& in, std::vector<Ranked>& out) {
    if (!in.memory) return;
    auto where = [](const DeviceMemory& m) { return m.gpu ? gpu(m.device) : std::string("Host"); };
    for (const DeviceMemory& m : in.memory->devices) {
        if (m.growthPerStep && in.steps && !in.steps->steps.empty()) {
            Finding f;
            f.rule = "memory-growth";
            f.device = m.device;
            f.severity = Severity::Medium;
            f.message = where(m);
            f.message.append(" memory grows ~")
                .append(readableBytes(*m.growthPerStep))
                .append(" per step over ");
            f.message.append(std::to_string(in.steps->steps.size()));
            f.message.append(
                " steps: look for tensors kept across steps (a list of losses "
                "without .item(), a growing cache).");
            f.figures = {{"growth_bytes_per_step", Unit::Bytes, double{*m.growthPerStep}},
                         {"r2", Unit::Number, double{m.growthR2.value_or(0)}}};
            for (const StepReport& r : in.steps->steps)
                f.ranges.push_back(r.step.span);
            out.push_back({std::move(f), 0});
        }
        // What the allocator holds (reserved) is what runs out, not only
        // what tensors use (allocated): either close to the device's size.
        // A plain double and a flag: GCC 12 at -O3 warns (maybe-uninitialized,
        // a false positive) on an optional here.
        const bool hasReserved = m.peakReserved && m.deviceMemory && *m.deviceMemory > 0;
        const double reservedShare =
            hasReserved ? *m.peakReserved / static_cast<double>(*m.deviceMemory) : 0.0;
        const double worst = std::max(m.peakShare.value_or(0), reservedShare);
        if (worst > 0.9 && !m.relative) {
            Finding f;
            f.rule = "memory-peak";
            f.device = m.device;
            f.severity = worst > 0.97 ? Severity::High : Severity::Medium;
            f.message = where(m);
            f.message.append(" peaks at ").append(readablePercent(m.peakShare.value_or(0)));
            f.message.append(" of its memory allocated");
            if (hasReserved)
                f.message.append(", ").append(readablePercent(reservedShare)).append(" reserved");
            f.message.append(": close to out-of-memory; lower the batch size, use activation ");
            f.message.append("checkpointing or shard the model");
            if (hasReserved && reservedShare > 0.9 && m.peakShare.value_or(0) <= 0.9)
                f.message.append(" (the caching allocator holds far more than is in use: ")
                    .append("fragmentation; try expandable_segments:True)");
            f.message.append(".");
            f.figures = {
                FindingFigure::bytes("peak_allocated_bytes", std::llround(m.peakAllocated)),
                FindingFigure::bytes("peak_reserved_bytes",
                                     std::llround(m.peakReserved.value_or(0))),
                FindingFigure::bytes("device_memory_bytes", m.deviceMemory.value_or(0)),
                FindingFigure::share("peak_share", m.peakShare.value_or(0), "device_memory_bytes"),
                FindingFigure::share("peak_reserved_share", reservedShare, "device_memory_bytes")};
            f.ranges.push_back({m.peakTime, m.peakTime + 1});
            out.push_back({std::move(f), worst});
        }
    }
}

}  // namespace

std::vector<Finding> advise(const Trace& trace, const AdviceInputs& in) {
    std::vector<Ranked> ranked;
    std::optional<TimeAccount> own;
    const TimeAccount& account = accountOf(in, own);
    const std::vector<DeviceTime> times = deviceTimes(account);
    inputBound(trace, in, ranked);
    gpuIdle(times, ranked);
    tinyKernels(trace, in, account, ranked);
    blockingSync(trace, times, ranked);
    pageableCopies(in, times, ranked);
    exposedComm(in, times, ranked);
    tensorCores(trace, in, ranked);
    belowRoofline(trace, in, ranked);
    memory(in, ranked);
    health(trace, in, ranked);
    std::stable_sort(ranked.begin(), ranked.end(), [](const Ranked& a, const Ranked& b) {
        if (a.finding.severity != b.finding.severity)
            return a.finding.severity < b.finding.severity;
        if (priority(a.finding.rule) != priority(b.finding.rule))
            return priority(a.finding.rule) < priority(b.finding.rule);
        return a.impact > b.impact;
    });
    std::vector<Finding> out;
    for (Ranked& r : ranked)
        out.push_back(std::move(r.finding));
    return out;
}

AdviceInputs AdviceData::inputs() const {
    AdviceInputs in;
    in.steps = &steps;
    in.pipeline = &pipeline;
    in.launch = &launch;
    in.kernels = &kernels;
    in.copies = &copies;
    in.memory = &memory;
    in.breakdowns = &breakdowns;
    in.gaps = &gaps;
    in.account = &account;
    in.health = &health;
    in.efficiency = efficiency.get();
    return in;
}

AdviceData adviceData(const Trace& trace, const StepOptions& so,
                      const std::optional<DevicePeaks>& peaks) {
    AdviceData d;
    const Interval window = so.window;
    d.steps = stepAnalysis(trace, so);
    std::vector<Step> spans;
    for (const StepReport& r : d.steps.steps)
        spans.push_back(r.step);
    d.launch = launchOverhead(trace, window, so.index, so.cancel);
    KernelStatsOptions ko;
    ko.window = window;
    // With the launchers the kernels analysis finds: one pass for both.
    ko.launchers = true;
    ko.index = so.index;
    ko.cancel = so.cancel;
    d.kernels = kernelStats(trace, ko);
    d.copies = memcpyStats(trace, window, so.cancel);
    d.memory = memoryUsage(trace, spans);
    d.breakdowns = timeBreakdowns(trace, window);
    GapOptions go;
    go.window = window;
    go.minGapNs = so.minGapNs;
    go.index = so.index;
    go.cancel = so.cancel;
    d.gaps = gapsWithCauses(trace, go);
    d.account = timeAccount(d.steps, d.breakdowns, d.gaps);
    d.pipeline = inputPipeline(trace, spans, &d.account);
    d.health = traceHealth(trace, so.index ? &so.index->launches() : nullptr,
                           so.index ? &so.index->stepWindows() : nullptr);
    d.efficiency = efficiencyOfWindow(trace, window, so.index, so.regex, so.cancel, peaks);
    return d;
}

std::vector<Finding> adviseWholeTrace(const Trace& trace, const StepOptions& stepOptions,
                                      const AnalysisIndex* index,
                                      const std::optional<DevicePeaks>& peaks) {
    std::optional<AnalysisIndex> own;
    if (!index) index = &own.emplace(trace);
    StepOptions so = stepOptions;
    so.index = index;
    so.window = kWholeTrace;
    so.onlyNumber.reset();
    const AdviceData data = adviceData(trace, so, peaks);
    return advise(trace, data.inputs());
}

}  // namespace gapscope
