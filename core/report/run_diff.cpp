#include "report/run_diff.h"

#include <algorithm>
#include <cmath>
#include <set>

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

const char* nameStatusName(NameStatus s) {
    switch (s) {
        case NameStatus::Same:
            return "same";
        case NameStatus::Changed:
            return "changed";
        case NameStatus::New:
            return "new";
        case NameStatus::Vanished:
            return "vanished";
    }
    return "?";
}

std::optional<double> MetricDelta::delta() const {
    if (!base || !now) return std::nullopt;
    return *now - *base;
}

std::optional<double> MetricDelta::relative() const {
    if (!base || !now || *base == 0) return std::nullopt;
    return 100.0 * (*now - *base) / std::abs(*base);
}

double KernelDelta::impact() const {
    return std::abs(double(now.total) - double(base.total));
}

double OpDelta::impact() const {
    return std::max(std::abs(double(now.self) - double(base.self)),
                    std::abs(double(now.gpu) - double(base.gpu)));
}

namespace {

std::string idleName(size_t cause) {
    return std::string("idle_") + gapCauseName(GapCause(cause));
}

bool sameFigures(const RunMetrics::Kernel& x, const RunMetrics::Kernel& y) {
    return x.count == y.count && x.total == y.total;
}

bool sameFigures(const RunMetrics::Op& x, const RunMetrics::Op& y) {
    return x.count == y.count && x.self == y.self && x.gpu == y.gpu;
}

// Every name of either run, in name order, with both runs' figures (zero
// where absent) and whether it changed, is new or vanished.
template <class Delta, class Figures>
std::vector<Delta> namedDeltas(const std::map<std::string, Figures>& base,
                               const std::map<std::string, Figures>& now) {
    std::set<std::string> names;
    for (const auto& [n, f] : base)
        names.insert(n);
    for (const auto& [n, f] : now)
        names.insert(n);
    std::vector<Delta> out;
    for (const std::string& n : names) {
        Delta d;
        d.name = n;
        const auto b = base.find(n), a = now.find(n);
        if (b != base.end()) d.base = b->second;
        if (a != now.end()) d.now = a->second;
        d.status = b == base.end()              ? NameStatus::New
                   : a == now.end()             ? NameStatus::Vanished
                   : sameFigures(d.base, d.now) ? NameStatus::Same
                                                : NameStatus::Changed;
        out.push_back(std::move(d));
    }
    return out;
}

}  // namespace

const std::vector<std::string>& headlineMetricNames() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> n = {"step_time", "step_time_median", "gpu_busy", "gpu_idle"};
        for (size_t c = 0; c < kGapCauseCount; ++c)
            n.push_back(idleName(c));
        for (const char* rest :
             {"idle_short", "exposed_comm", "memory_peak", "kernel_total", "kernel_count"})
            n.push_back(rest);
        return n;
    }();
    return names;
}

bool headlineMetric(const RunMetrics& m, const std::string& name, std::optional<double>& value,
                    MetricUnit& unit) {
    unit = MetricUnit::Ns;
    value.reset();
    if (name == "step_time") {
        value = m.stepMean;
    } else if (name == "step_time_median") {
        value = m.stepMedian;
    } else if (name == "gpu_busy" || name == "gpu_idle") {
        unit = MetricUnit::Percent;
        if (m.gpuBusyPercent)
            value = name == "gpu_busy" ? *m.gpuBusyPercent : 100.0 - *m.gpuBusyPercent;
    } else if (name == "idle_short") {
        value = double(m.idleShort);
    } else if (name == "exposed_comm") {
        value = double(m.exposedComm);
    } else if (name == "memory_peak") {
        unit = MetricUnit::Bytes;
        value = m.memoryPeak;
    } else if (name == "kernel_total") {
        value = double(m.kernelTotal);
    } else if (name == "kernel_count") {
        unit = MetricUnit::Count;
        value = double(m.kernelCount);
    } else {
        for (size_t c = 0; c < kGapCauseCount; ++c) {
            const bool former = GapCause(c) == GapCause::Host &&
                                name == std::string("idle_") + kFormerHostCauseName;
            if (name == idleName(c) || former) {
                value = double(m.idleByCause[c]);
                return true;
            }
        }
        return false;
    }
    return true;
}

bool isStepTimeMetric(const std::string& name) {
    return name == "step_time" || name == "step_time_median";
}

RunDiff diffRuns(const RunMetrics& base, const RunMetrics& now, double level) {
    RunDiff d;
    d.stepChange = shiftTest(base.stepDurations, now.stepDurations, level);
    for (const std::string& name : headlineMetricNames()) {
        MetricDelta md;
        md.metric = name;
        headlineMetric(base, name, md.base, md.unit);
        headlineMetric(now, name, md.now, md.unit);
        d.metrics.push_back(std::move(md));
    }
    d.kernels = namedDeltas<KernelDelta>(base.kernels, now.kernels);
    d.ops = namedDeltas<OpDelta>(base.ops, now.ops);
    // Names were visited in name order, so ties keep it.
    std::stable_sort(
        d.kernels.begin(), d.kernels.end(),
        [](const KernelDelta& x, const KernelDelta& y) { return x.impact() > y.impact(); });
    std::stable_sort(d.ops.begin(), d.ops.end(),
                     [](const OpDelta& x, const OpDelta& y) { return x.impact() > y.impact(); });
    return d;
}

}  // namespace gapscope
