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
            if (name == idleName(c)) {
                value = double(m.idleByCause[c]);
                return true;
            }
        }
        return false;
    }
    return true;
}

RunDiff diffRuns(const RunMetrics& base, const RunMetrics& now) {
    RunDiff d;
    for (const std::string& name : headlineMetricNames()) {
        MetricDelta md;
        md.metric = name;
        headlineMetric(base, name, md.base, md.unit);
        headlineMetric(now, name, md.now, md.unit);
        d.metrics.push_back(std::move(md));
    }
    std::set<std::string> kernelNames, opNames;
    for (const auto& [n, k] : base.kernels)
        kernelNames.insert(n);
    for (const auto& [n, k] : now.kernels)
        kernelNames.insert(n);
    for (const std::string& n : kernelNames) {
        KernelDelta k;
        k.name = n;
        const auto b = base.kernels.find(n), a = now.kernels.find(n);
        if (b != base.kernels.end()) k.base = b->second;
        if (a != now.kernels.end()) k.now = a->second;
        k.status = b == base.kernels.end()  ? NameStatus::New
                   : a == now.kernels.end() ? NameStatus::Vanished
                   : (k.base.count == k.now.count && k.base.total == k.now.total)
                       ? NameStatus::Same
                       : NameStatus::Changed;
        d.kernels.push_back(std::move(k));
    }
    for (const auto& [n, o] : base.ops)
        opNames.insert(n);
    for (const auto& [n, o] : now.ops)
        opNames.insert(n);
    for (const std::string& n : opNames) {
        OpDelta o;
        o.name = n;
        const auto b = base.ops.find(n), a = now.ops.find(n);
        if (b != base.ops.end()) o.base = b->second;
        if (a != now.ops.end()) o.now = a->second;
        o.status =
            b == base.ops.end()  ? NameStatus::New
            : a == now.ops.end() ? NameStatus::Vanished
            : (o.base.count == o.now.count && o.base.self == o.now.self && o.base.gpu == o.now.gpu)
                ? NameStatus::Same
                : NameStatus::Changed;
        d.ops.push_back(std::move(o));
    }
    // Names were visited in name order, so ties keep it.
    std::stable_sort(
        d.kernels.begin(), d.kernels.end(),
        [](const KernelDelta& x, const KernelDelta& y) { return x.impact() > y.impact(); });
    std::stable_sort(d.ops.begin(), d.ops.end(),
                     [](const OpDelta& x, const OpDelta& y) { return x.impact() > y.impact(); });
    return d;
}

}  // namespace gapscope
