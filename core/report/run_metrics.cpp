#include "report/run_metrics.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "analysis/advice.h"
#include "analysis/analysis_index.h"
#include "analysis/kernel_scopes.h"
#include "analysis/launch_calls.h"
#include "analysis/op_stats.h"
#include "model/slice_kind.h"

namespace gapscope {

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

std::optional<size_t> medianStepIndex(const RunMetrics& m) {
    if (m.stepDurations.empty() || !m.stepMedian) return std::nullopt;
    size_t best = 0;
    for (size_t i = 1; i < m.stepDurations.size(); ++i)
        if (std::abs(double(m.stepDurations[i]) - *m.stepMedian) <
            std::abs(double(m.stepDurations[best]) - *m.stepMedian))
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

RunMetrics runMetrics(const Trace& trace, const StepOptions& stepOptions) {
    std::unique_ptr<AnalysisIndex> own;
    const StepOptions options = wholeTraceOptions(trace, stepOptions, own);
    const AdviceData data = adviceData(trace, options);
    RunMetrics m;

    m.stepCount = data.steps.steps.size();
    if (!data.steps.steps.empty()) {
        double sum = 0;
        for (const StepReport& s : data.steps.steps) {
            sum += double(s.duration);
            m.stepDurations.push_back(s.duration);
            m.steps.push_back(s.step);
        }
        m.stepMean = sum / double(data.steps.steps.size());
    }
    if (data.steps.medianDuration) m.stepMedian = double(*data.steps.medianDuration);
    if (!m.stepDurations.empty()) {
        std::vector<TimeNs> sorted = m.stepDurations;
        std::sort(sorted.begin(), sorted.end());
        // Nearest rank: the ceil(q · n)-th smallest.
        auto rank = [&](double q) {
            const auto r = static_cast<size_t>(std::ceil(q * double(sorted.size())));
            return sorted[std::clamp<size_t>(r, 1, sorted.size()) - 1];
        };
        m.stepP10 = rank(0.10);
        m.stepP90 = rank(0.90);
    }

    for (const GpuTimeAccount& d : data.account.devices) {
        m.gpuBusy += d.busy();
        m.gpuTime += d.time;
        m.exposedComm += d.exposedComm;
        for (size_t c = 0; c < kGapCauseCount; ++c)
            m.idleByCause[c] += d.idleByCause[c];
        m.idleShort += d.idleShort;
    }
    if (m.gpuTime > 0) m.gpuBusyPercent = 100.0 * double(m.gpuBusy) / double(m.gpuTime);
    for (const DeviceMemory& d : data.memory.devices) {
        if (!d.gpu || d.relative) continue;  // relative curves have no absolute peak
        if (!m.memoryPeak || d.peakAllocated > *m.memoryPeak) m.memoryPeak = d.peakAllocated;
        if (d.growthPerStep &&
            (!m.memoryGrowthPerStep || *d.growthPerStep > *m.memoryGrowthPerStep))
            m.memoryGrowthPerStep = d.growthPerStep;
    }

    for (GpuTimeAccount d : data.account.devices) {
        d.windows.clear();
        m.gpus.push_back(std::move(d));
    }
    m.inputVerdict = data.pipeline.verdict;
    m.inputShare = data.pipeline.inputShare;
    if (data.launch.kernelsWithLaunch > 0) m.launchDelayMedian = data.launch.delay.median;
    for (const Finding& f : advise(trace, data.inputs()))
        m.findings.push_back({f.rule, f.device, f.severity, f.message});

    for (const KernelStats& k : data.kernels) {
        RunMetrics::Kernel& out = m.kernels[std::string(trace.str(k.name))];
        if (out.count == 0) out.opPath = launchPath(trace, *options.index, k.firstSlice);
        out.count += k.count;
        out.total += k.total;
        m.kernelCount += k.count;
        m.kernelTotal += k.total;
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
    OpStatsOptions opOptions;
    opOptions.index = options.index;
    opOptions.cancel = options.cancel;
    for (const OpStats& o : opStats(trace, opOptions)) {
        RunMetrics::Op& out = m.ops[std::string(trace.str(o.name))];
        out.count += o.count;
        out.self += o.self;
        out.gpu += o.gpu;
    }
    return m;
}

}  // namespace gapscope
