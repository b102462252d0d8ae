#include "report/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <unordered_map>

#include "analysis/advice.h"
#include "analysis/analysis_index.h"
#include "analysis/kernel_scopes.h"
#include "analysis/launch_calls.h"
#include "analysis/op_stats.h"
#include "model/slice_kind.h"
#include "report/analysis_registry.h"

namespace gapscope {

const char* metricUnitName(MetricUnit u) {
    switch (u) {
        case MetricUnit::Ns:
            return "ns";
        case MetricUnit::Percent:
            return "percent";
        case MetricUnit::Bytes:
            return "bytes";
        case MetricUnit::Count:
            return "count";
    }
    return "?";
}

const std::vector<HeadlineMetric>& headlineMetrics() {
    static const std::vector<HeadlineMetric> metrics = [] {
        std::vector<HeadlineMetric> m = {
            {"step_time", "steps", "mean_duration_ns"},
            {"step_time_median", "steps", "median_duration_ns"},
            {"step_time_p10", "steps", "p10_duration_ns"},
            {"step_time_p90", "steps", "p90_duration_ns"},
            {"gpu_busy", "account", "busy_share", MetricUnit::Percent},
            {"gpu_idle", "account", "idle_share", MetricUnit::Percent}};
        for (size_t c = 0; c < kGapCauseCount; ++c) {
            const std::string cause = gapCauseName(GapCause(c));
            m.push_back({"idle_" + cause, "account", "idle_by_cause." + cause});
        }
        m.insert(m.end(),
                 {{"idle_short", "account", "idle_short_ns"},
                  {"exposed_comm", "account", "exposed_comm_ns"},
                  {"input_share", "pipeline", "input_share", MetricUnit::Percent},
                  {"launch_delay_median", "launch", "delay.median_ns"},
                  {"memory_peak", "memory", "peak_allocated_bytes", MetricUnit::Bytes},
                  {"memory_growth_per_step", "memory", "growth_bytes_per_step", MetricUnit::Bytes},
                  {"kernel_total", "kernels", "total_ns"},
                  {"kernel_count", "kernels", "count", MetricUnit::Count}});
        return m;
    }();
    return metrics;
}

namespace {

// "outer > ... > inner": the slices around the launch call of `activity`,
// the steps left out (they differ from run to run by their number).
std::string launchPath(const Trace& trace, const AnalysisIndex& index, uint32_t activity) {
    if (activity == kNone) return {};
    const uint32_t call = index.launches().first(activity);
    if (call == kNone) return {};
    std::vector<std::string_view> names;
    index.enclosing().forEach(call, [&](uint32_t s) {
        if (sliceKind(trace.slices[s]) != SliceKind::Step)
            names.push_back(trace.str(trace.slices[s].name));
    });
    std::string path;
    for (auto it = names.rbegin(); it != names.rend(); ++it)
        path.append(path.empty() ? "" : " > ").append(*it);
    return path;
}

}  // namespace

std::optional<double> RunMetrics::metric(std::string_view name) const {
    const auto it = headline.find(name);
    return it == headline.end() ? std::nullopt : it->second;
}

std::optional<size_t> medianStepIndex(const RunMetrics& m) {
    const std::optional<double> median = m.metric("step_time_median");
    if (m.stepDurations.empty() || !median) return std::nullopt;
    size_t best = 0;
    for (size_t i = 1; i < m.stepDurations.size(); ++i)
        if (std::abs(double(m.stepDurations[i]) - *median) <
            std::abs(double(m.stepDurations[best]) - *median))
            best = i;
    return best;
}

StepOptions wholeTraceOptions(const Trace& trace, const StepOptions& given,
                              std::unique_ptr<AnalysisIndex>& own) {
    StepOptions options = given;
    options.window = kWholeTrace;
    if (!options.index) {
        own = std::make_unique<AnalysisIndex>(trace);
        options.index = own.get();
    }
    return options;
}

namespace {

// Each headline metric as its registered analysis computes it over the
// whole trace (each analysis once).
std::map<std::string, std::optional<double>, std::less<>> headlineOf(const Trace& trace,
                                                                     const StepOptions& options) {
    Scope scope;
    scope.stepRegex = options.regex;
    scope.minGapNs = options.minGapNs;
    scope.index = options.index;
    scope.cancel = options.cancel;
    std::map<std::string, AnalysisResult> results;
    std::map<std::string, std::optional<double>, std::less<>> out;
    for (const HeadlineMetric& h : headlineMetrics()) {
        auto it = results.find(h.analysis);
        if (it == results.end()) {
            const Analysis* a = analysisRegistry().find(h.analysis);
            if (!a)
                throw std::logic_error("headline metric " + h.name + ": no analysis " + h.analysis);
            it = results.emplace(h.analysis, computeAnalysis(*a, trace, scope)).first;
        }
        const ResultCell& cell = it->second.figure(h.figure);
        std::optional<double> v;
        if (const auto* i = std::get_if<int64_t>(&cell)) v = double(*i);
        if (const auto* d = std::get_if<double>(&cell)) v = *d;
        if (v && h.unit == MetricUnit::Percent) *v *= 100.0;
        out[h.name] = v;
    }
    return out;
}

// Each kernel's time per step, the noise a change of its total is weighed
// against (run_diff.h). The steps' GPU tiles (lead-in and window) tile each
// GPU's step time, so a kernel is in at most one step.
void addKernelsPerStep(const Trace& trace, const StepsResult& steps, RunMetrics& m) {
    const size_t n = steps.steps.size();
    if (n == 0) return;
    std::unordered_map<StringId, std::vector<TimeNs>> kernels;
    for (const GpuDevice& device : trace.gpuDevices) {
        for (size_t i = 0; i < n; ++i) {
            for (const StepBreakdown& b : steps.steps[i].devices) {
                if (b.device != device.index) continue;
                const Interval tile = b.tile();
                if (tile.end <= tile.start) continue;
                forEachActivity(trace, device, tile,
                                [&](uint32_t k, const Track&, ActivityKind kind) {
                                    const Slice& s = trace.slices[k];
                                    if (kind != ActivityKind::Kernel || s.start < tile.start ||
                                        s.start >= tile.end)
                                        return;
                                    auto& per = kernels[s.name];
                                    if (per.empty()) per.resize(n);
                                    per[i] += s.dur;
                                });
            }
        }
    }
    for (auto& [name, per] : kernels)
        if (const auto k = m.kernels.find(std::string(trace.str(name))); k != m.kernels.end())
            k->second.perStep = std::move(per);
    for (auto& [name, k] : m.kernels)
        if (k.perStep.empty()) k.perStep.resize(n);  // none in any step
}

// The steps' CPU spans, where each op's time per step can be had from
// them: one rank's steps, in order and apart (ranks merged into one trace
// share their spans with the other ranks' ops; opStats has no rank).
std::vector<Interval> opStepParts(const StepsResult& steps) {
    std::vector<Interval> parts;
    for (const StepReport& s : steps.steps) {
        if (s.rank || (!parts.empty() && s.step.span.start < parts.back().end)) return {};
        parts.push_back(s.step.span);
    }
    return parts;
}

}  // namespace

RunMetrics runMetrics(const Trace& trace, const StepOptions& stepOptions) {
    std::unique_ptr<AnalysisIndex> own;
    const StepOptions options = wholeTraceOptions(trace, stepOptions, own);
    const AdviceData data = adviceData(trace, options);
    RunMetrics m;
    m.headline = headlineOf(trace, options);
    m.stepCount = data.steps.steps.size();
    for (const StepReport& s : data.steps.steps) {
        m.stepDurations.push_back(s.duration);
        m.steps.push_back(s.step);
    }
    for (GpuTimeAccount d : data.account.devices) {
        m.gpuTime += d.time;
        d.windows.clear();
        m.gpus.push_back(std::move(d));
    }
    m.inputVerdict = data.pipeline.verdict;
    for (const Finding& f : advise(trace, data.inputs()))
        m.findings.push_back({f.rule, f.device, f.severity, f.message});

    for (const KernelStats& k : data.kernels) {
        RunMetrics::Kernel& out = m.kernels[std::string(trace.str(k.name))];
        if (out.count == 0) out.opPath = launchPath(trace, *options.index, k.firstSlice);
        out.count += k.count;
        out.total += k.total;
    }
    KernelScopeOptions scopeOptions{options.index, options.cancel, {}};
    for (const StepReport& s : data.steps.steps)
        if (s.step.slice != kNone) scopeOptions.steps.push_back(s.step.slice);
    std::sort(scopeOptions.steps.begin(), scopeOptions.steps.end());
    // Each kernel name's scope: the one that holds most of its time (the
    // first path of equals, as paths come sorted).
    std::map<std::string, TimeNs> mostTime;
    for (const KernelScope& s : kernelScopes(trace, scopeOptions)) {
        RunMetrics::Scope& out = m.scopes[s.path];
        out.count = s.count;
        out.total = s.total;
        for (const auto& [id, time] : s.kernels) {
            std::string name(trace.str(id));
            out.kernels.emplace_back(name, time);
            const auto [it, first] = mostTime.try_emplace(name, time);
            if (!first && time <= it->second) continue;
            it->second = time;
            if (const auto k = m.kernels.find(name); k != m.kernels.end()) k->second.scope = s.path;
        }
    }
    addKernelsPerStep(trace, data.steps, m);
    OpStatsOptions opOptions;
    opOptions.index = options.index;
    opOptions.cancel = options.cancel;
    opOptions.parts = opStepParts(data.steps);  // each op's time per step, in the same pass
    for (OpStats& o : opStats(trace, opOptions)) {
        RunMetrics::Op& out = m.ops[std::string(trace.str(o.name))];
        out.count += o.count;
        out.self += o.self;
        out.gpu += o.gpu;
        out.selfPerStep = std::move(o.selfPerPart);
        out.gpuPerStep = std::move(o.gpuPerPart);
    }
    return m;
}

}  // namespace gapscope
