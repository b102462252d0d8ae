#include "report/run_summary.h"

#include <algorithm>
#include <cstdio>
#include <memory>

#include "analysis/advice.h"
#include "analysis/analysis_index.h"
#include "analysis/op_stats.h"
#include "report/op_table.h"
#include "report/run_metrics.h"

namespace gapscope {

namespace {

std::string percent(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    return buf;
}

std::string integer(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
}

std::vector<bool> numericExcept(size_t columns, std::initializer_list<size_t> text) {
    std::vector<bool> n(columns, true);
    for (size_t c : text)
        n[c] = false;
    return n;
}

// The GPUs' time account: what the Overview shows, in the same order.
SummaryTable gpuTable(const AdviceData& data) {
    SummaryTable s{"gpus", "GPU time", {}};
    s.table.headers = {"device",          "of",
                       "time ns",         "busy %",
                       "busy ns",         "computation ns",
                       "exposed comm ns", "exposed memcpy ns",
                       "idle ns"};
    for (size_t c = 0; c < kGapCauseCount; ++c)
        s.table.headers.push_back(std::string("idle ") + gapCauseName(GapCause(c)) + " ns");
    s.table.headers.push_back("idle short ns");
    s.table.numeric = numericExcept(s.table.headers.size(), {1});
    for (const GpuTimeAccount& d : data.account.devices) {
        std::vector<std::string> row = {
            std::to_string(d.device),
            denominatorName(data.account.denominator),
            std::to_string(d.time),
            d.time > 0 ? percent(100.0 * double(d.busy()) / double(d.time)) : "-",
            std::to_string(d.busy()),
            std::to_string(d.computation),
            std::to_string(d.exposedComm),
            std::to_string(d.exposedMemcpy),
            std::to_string(d.idle())};
        for (const TimeNs v : d.idleByCause)
            row.push_back(std::to_string(v));
        row.push_back(std::to_string(d.idleShort));
        s.table.rows.push_back(std::move(row));
    }
    return s;
}

SummaryTable stepTable(const Trace& t, const AdviceData& data) {
    SummaryTable s{"steps", "Steps", {}};
    s.table.headers = {"source",     "steps",        "mean ns",   "median ns",
                       "slowest ns", "slowest step", "slow steps"};
    s.table.numeric = numericExcept(s.table.headers.size(), {0, 5});
    const StepsResult& r = data.steps;
    if (r.steps.empty()) {
        s.table.rows.push_back({r.source == StepSource::None ? "none" : stepSourceName(r.source),
                                "0", "-", "-", "-", "-", "0"});
        return s;
    }
    double sum = 0;
    const StepReport* slowest = &r.steps.front();
    size_t slow = 0;
    for (const StepReport& st : r.steps) {
        sum += double(st.duration);
        if (st.duration > slowest->duration) slowest = &st;
        slow += st.slow ? 1 : 0;
    }
    s.table.rows.push_back({stepSourceName(r.source), std::to_string(r.steps.size()),
                            integer(sum / double(r.steps.size())),
                            r.medianDuration ? std::to_string(*r.medianDuration) : "-",
                            std::to_string(slowest->duration),
                            std::string(t.str(t.slices[slowest->step.slice].name)),
                            std::to_string(slow)});
    return s;
}

SummaryTable kernelTable(const Trace& t, const AdviceData& data, size_t top) {
    SummaryTable s{"kernels", "Top kernels by total time", {}};
    s.table.headers = {"kernel",      "count", "total ns", "mean ns", "share of kernel time %",
                       "tensor cores"};
    s.table.numeric = numericExcept(s.table.headers.size(), {0, 5});
    std::vector<const KernelStats*> order;
    for (const KernelStats& k : data.kernels)
        order.push_back(&k);
    std::stable_sort(order.begin(), order.end(), [](const KernelStats* a, const KernelStats* b) {
        return a->total > b->total;
    });
    for (size_t i = 0; i < order.size() && i < top; ++i) {
        const KernelStats& k = *order[i];
        s.table.rows.push_back({std::string(t.str(k.name)), std::to_string(k.count),
                                std::to_string(k.total), integer(k.mean),
                                percent(100.0 * k.shareOfKernelTime),
                                tensorCoreUseName(k.tensorCores)});
    }
    return s;
}

SummaryTable opSummary(const Trace& t, const std::vector<OpStats>& ops, size_t top) {
    return {"ops", "Top ops by GPU time", opTable(t, ops, top)};
}

SummaryTable pipelineTable(const AdviceData& data) {
    SummaryTable s{"input_pipeline", "Input pipeline", {}};
    s.table.headers = {"verdict", "input share %", "input wait ns",
                       "of ns",   "denominator",   "host wait ns"};
    s.table.numeric = numericExcept(s.table.headers.size(), {0, 4});
    const PipelineReport& p = data.pipeline;
    s.table.rows.push_back({p.inputShare ? inputVerdictName(p.verdict) : "-",
                            p.inputShare ? percent(100.0 * *p.inputShare) : "-",
                            std::to_string(p.inputWait), std::to_string(p.time),
                            denominatorName(p.denominator), std::to_string(p.hostWait)});
    return s;
}

SummaryTable memoryTable(const AdviceData& data) {
    SummaryTable s{"memory", "Memory", {}};
    s.table.headers = {"device", "peak allocated bytes", "peak at ns", "peak reserved bytes",
                       "growth per step bytes"};
    s.table.numeric = numericExcept(s.table.headers.size(), {0});
    for (const DeviceMemory& d : data.memory.devices) {
        s.table.rows.push_back({d.gpu ? "GPU " + std::to_string(d.device) : std::string("host"),
                                integer(d.peakAllocated) + (d.relative ? " (relative)" : ""),
                                std::to_string(d.peakTime),
                                d.peakReserved ? integer(*d.peakReserved) : "-",
                                d.growthPerStep ? integer(*d.growthPerStep) : "-"});
    }
    return s;
}

SummaryTable adviceTable(const Trace& t, const AdviceData& data) {
    SummaryTable s{"advice", "Advice", {}};
    s.table.headers = {"severity", "rule", "device", "finding"};
    s.table.numeric = {false, false, true, false};
    for (const Finding& f : advise(t, data.inputs()))
        s.table.rows.push_back({severityName(f.severity), f.rule,
                                f.device < 0 ? "-" : std::to_string(f.device), f.message});
    return s;
}

}  // namespace

std::vector<SummaryTable> summaryTables(const Trace& trace, const StepOptions& stepOptions,
                                        size_t top) {
    std::unique_ptr<AnalysisIndex> own;
    const StepOptions options = wholeTraceOptions(trace, stepOptions, own);
    const AdviceData data = adviceData(trace, options);
    OpStatsOptions opOptions;
    opOptions.index = options.index;
    opOptions.cancel = options.cancel;
    for (const StepReport& r : data.steps.steps)  // the shares of `ops`
        opOptions.stepTime += r.duration;
    const std::vector<OpStats> ops = opStats(trace, opOptions);
    return {gpuTable(data),
            stepTable(trace, data),
            kernelTable(trace, data, top),
            opSummary(trace, ops, top),
            pipelineTable(data),
            memoryTable(data),
            adviceTable(trace, data)};
}

std::string summaryDocument(const std::string& traceName, const std::vector<SummaryTable>& tables,
                            TableFormat format) {
    std::string out;
    if (format == TableFormat::Html) {
        out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>";
        out += htmlEscape("Gapscope summary: " + traceName);
        out +=
            "</title>\n<style>body{font-family:system-ui,sans-serif;margin:2em;color:#222}"
            "table{border-collapse:collapse;margin-bottom:1.5em}"
            "th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left}"
            "th{background:#f0f0f0}.num{text-align:right;"
            "font-variant-numeric:tabular-nums}td.num{white-space:nowrap}"
            "</style></head><body>\n<h1>";
        out += htmlEscape("Gapscope summary: " + traceName);
        out += "</h1>\n";
        for (const SummaryTable& t : tables) {
            out += "<h2>";
            out += htmlEscape(t.title);
            out += "</h2>\n";
            out += formatTable(t.table, TableFormat::Html);
        }
        out += "</body></html>\n";
        return out;
    }
    out += "# Gapscope summary: ";
    out += traceName;
    out += "\n";
    for (const SummaryTable& t : tables) {
        out += "\n## ";
        out += t.title;
        out += "\n\n";
        out += formatTable(t.table, format);
    }
    return out;
}

}  // namespace gapscope
