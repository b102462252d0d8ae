#include "report/run_summary.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include "analysis/advice.h"
#include "analysis/analysis_index.h"
#include "analysis/op_stats.h"
#include "report/analysis_tables.h"
#include "report/run_metrics.h"
#include "report/table.h"

namespace gapscope {

namespace {

ResultTable stepTable(const Trace& t, const AdviceData& data) {
    ResultTable s;
    s.id = "steps";
    s.title = "Steps";
    s.columns = {
        {"source", "Source", Unit::Text},          {"steps", "Steps", Unit::Count},
        {"mean_ns", "Mean", Unit::Duration, 0},    {"median_ns", "Median", Unit::Duration},
        {"slowest_ns", "Slowest", Unit::Duration}, {"slowest_step", "Slowest step", Unit::Text},
        {"slow_steps", "Slow steps", Unit::Count}};
    const StepsResult& r = data.steps;
    if (r.steps.empty()) {
        s.rows.push_back(
            {{std::string(r.source == StepSource::None ? "none" : stepSourceName(r.source)),
              int64_t{0}, ResultCell(), ResultCell(), ResultCell(), ResultCell(), int64_t{0}},
             {}});
        return s;
    }
    TimeNs sum = 0;
    const StepReport* slowest = &r.steps.front();
    int64_t slow = 0;
    for (const StepReport& st : r.steps) {
        sum += st.duration;
        if (st.duration > slowest->duration) slowest = &st;
        slow += st.slow ? 1 : 0;
    }
    ResultRow row;
    row.cells = {std::string(stepSourceName(r.source)),
                 static_cast<int64_t>(r.steps.size()),
                 static_cast<int64_t>(std::llround(double(sum) / double(r.steps.size()))),
                 cellOf(r.medianDuration),
                 slowest->duration,
                 std::string(t.str(t.slices[slowest->step.slice].name)),
                 slow};
    row.ref.kind = ResultRef::Kind::Step;
    row.ref.slice = slowest->step.slice;
    row.ref.range = slowest->step.span;
    row.ref.step = slowest->step.number;
    s.rows.push_back(std::move(row));
    return s;
}

ResultTable pipelineTable(const AdviceData& data) {
    ResultTable s;
    s.id = "input_pipeline";
    s.title = "Input pipeline";
    s.columns = {{"verdict", "Verdict", Unit::Text},
                 {"input_share", "Input share", Unit::Share},
                 {"input_wait_ns", "Input wait", Unit::Duration},
                 {"time_ns", "Of", Unit::Duration},
                 {"denominator", "Denominator", Unit::Text},
                 {"host_wait_ns", "Host wait", Unit::Duration}};
    const PipelineReport& p = data.pipeline;
    s.rows.push_back(
        {{p.inputShare ? ResultCell(std::string(inputVerdictName(p.verdict))) : ResultCell(),
          cellOf(p.inputShare), p.inputWait, p.time, std::string(denominatorName(p.denominator)),
          p.hostWait},
         {}});
    return s;
}

ResultTable adviceTable(const Trace& t, const AdviceData& data) {
    ResultTable s;
    s.id = "advice";
    s.title = "Advice";
    s.columns = {{"severity", "Severity", Unit::Text},
                 {"rule", "Rule", Unit::Text},
                 {"device", "GPU", Unit::Count},
                 {"finding", "Finding", Unit::Text}};
    for (const Finding& f : advise(t, data.inputs()))
        s.rows.push_back({{std::string(severityName(f.severity)), f.rule,
                           f.device < 0 ? ResultCell() : ResultCell(int64_t{f.device}), f.message},
                          {}});
    return s;
}

}  // namespace

std::vector<ResultTable> summaryTables(const Trace& trace, const StepOptions& stepOptions,
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
    std::vector<KernelStats> kernels = data.kernels;
    std::stable_sort(kernels.begin(), kernels.end(),
                     [](const KernelStats& a, const KernelStats& b) { return a.total > b.total; });
    ResultTable topKernels = project(
        kernelTable(trace, kernels, false),
        {"name", "count", "total_ns", "mean_ns", "share_of_kernel_time", "tensor_cores"}, top);
    topKernels.title = "Top kernels by total time";
    ResultTable topOps = project(opTable(trace, ops), {}, top);
    topOps.title = "Top ops by GPU time";
    return {accountTable(data.account, data.breakdowns),
            stepTable(trace, data),
            std::move(topKernels),
            std::move(topOps),
            pipelineTable(data),
            memoryTable(data.memory),
            adviceTable(trace, data)};
}

std::string summaryDocument(const std::string& traceName, const std::vector<ResultTable>& tables,
                            OutputFormat format) {
    std::string out;
    if (format == OutputFormat::Html) {
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
        for (const ResultTable& t : tables) {
            out += "<h2>";
            out += htmlEscape(t.title);
            out += "</h2>\n";
            out += renderResult(t, OutputFormat::Html);
        }
        out += "</body></html>\n";
        return out;
    }
    out += "# Gapscope summary: ";
    out += traceName;
    out += "\n";
    for (const ResultTable& t : tables) {
        out += "\n## ";
        out += t.title;
        out += "\n\n";
        out += renderResult(t, format);
    }
    return out;
}

}  // namespace gapscope
