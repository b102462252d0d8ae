#include "bench_analyses.h"

#include <cstdio>
#include <functional>
#include <string_view>

#include "analysis/advice.h"
#include "analysis/analysis_index.h"
#include "analysis/critical_path.h"
#include "analysis/efficiency.h"
#include "analysis/kernel_scopes.h"
#include "analysis/memory_held.h"
#include "analysis/op_stats.h"
#include "bench_common.h"
#include "loader/loader.h"
#include "report/run_diff.h"
#include "report/run_metrics.h"
#include "report/run_summary.h"

namespace gapscope::bench {

namespace {

struct Analysis {
    const char* name;
    // Runs the analysis over a window; returns a number so the work is kept.
    std::function<size_t(const Trace&, Interval, const AnalysisIndex*)> run;
    bool hasRange = true;
};

std::vector<Step> stepsIn(const Trace& t, const AnalysisIndex* x, Interval w) {
    std::vector<Step> out;
    for (const Step& s : x ? x->steps().steps : findSteps(t).steps)
        if (s.span.start >= w.start && s.span.start < w.end) out.push_back(s);
    return out;
}

// With the index: its launch queues, built once per trace and kept by it
// (their own row times building them); without: none (built by the path).
const LaunchQueues* keptQueues(const AnalysisIndex* x) {
    return x ? x->launchQueues(nullptr).get() : nullptr;
}

std::vector<Analysis> analyses() {
    return {
        {"gaps",  // the time account's, as the Gaps panel, the shading and `gaps` list them
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             StepOptions o;
             o.window = w;
             o.index = x;
             return accountGaps(timeAccountOf(t, o)).size();
         }},
        {"timeline", [](const Trace& t, Interval w,
                        const AnalysisIndex*) { return timeBreakdowns(t, w).size(); }},
        {"kernels",
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             KernelStatsOptions o;
             o.window = w;
             o.index = x;
             return kernelStats(t, o).size();
         }},
        {"memcpy",
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             (void)x;
             return memcpyStats(t, w).size();
         }},
        {"ops",
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             OpStatsOptions o;
             o.window = w;
             o.index = x;
             return opStats(t, o).size();
         }},
        {"steps",
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             StepOptions o;
             o.window = w;
             o.index = x;
             return stepAnalysis(t, o).steps.size();
         }},
        {"memory",
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             return memoryUsage(t, stepsIn(t, x, w)).devices.size();
         }},
        {"pipeline",
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             StepOptions o;
             o.window = w;
             o.index = x;
             const TimeAccount account = timeAccountOf(t, o);
             return inputPipeline(t, stepsIn(t, x, w), &account).stages.size();
         }},
        {"efficiency",  // each op's FLOPs and bytes, their GPU work, the steps' MFU
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             EfficiencyOptions o;
             o.window = w;
             o.index = x;
             if (x) {
                 o.steps = &x->steps();
                 o.windows = &x->stepWindows();
             }
             return efficiency(t, o).signatures.size();
         }},
        {"critical path's launch queues (once per trace, kept by the index)",
         [](const Trace& t, Interval, const AnalysisIndex* x) {
             return x ? LaunchQueues(t, x->launches()).launches().size()
                      : LaunchQueues(t, LaunchCalls(t)).launches().size();
         },
         false},
        {"critical path",  // its graph of the window and the longest path through it
         [](const Trace& t, Interval w, const AnalysisIndex* x) {
             PathGraphOptions o;
             o.window = w;
             o.queues = keptQueues(x);
             const CriticalPath p =
                 x ? criticalPath(t, x->launches(), o) : criticalPath(t, LaunchCalls(t), o);
             return p.nodes.size();
         }},
        {"critical path of the middle step",
         [](const Trace& t, Interval, const AnalysisIndex* x) {
             const std::vector<Step> steps = stepsIn(t, x, kWholeTrace);
             PathGraphOptions o;
             if (!steps.empty()) {  // the step's frame and end, as --step N has them
                 const Step& mid = steps[steps.size() / 2];
                 o.window = mid.span;
                 if (mid.slice != kNone &&
                     t.tracks[t.trackOfSlice(mid.slice)].kind == TrackKind::CpuThread)
                     o.steps = {mid.slice};
             }
             o.queues = keptQueues(x);
             const CriticalPath p =
                 x ? criticalPath(t, x->launches(), o) : criticalPath(t, LaunchCalls(t), o);
             return p.nodes.size();
         },
         false},
        {"memory allocations (pairing and attribution)",
         [](const Trace& t, Interval, const AnalysisIndex*) {
             return pairAllocations(t).allocations.size();
         },
         false},
        {"memory: alive at each peak, what steps leave behind",
         [](const Trace& t, Interval, const AnalysisIndex* x) {
             const MemoryAllocations m = pairAllocations(t);
             size_t n = 0;
             for (uint32_t a = 0; a < m.allocators.size(); ++a)
                 n += heldAt(t, m, a, m.allocators[a].peakEvent).alive.size();
             return n +
                    memoryLeaks(t, m, x ? x->steps().steps : findSteps(t).steps).candidates.size();
         },
         false},
        {"launch", [](const Trace& t, Interval w,
                      const AnalysisIndex* x) { return size_t(launchOverhead(t, w, x).kernels); }},
        {"advice",
         [](const Trace& t, Interval, const AnalysisIndex* x) {
             return adviseWholeTrace(t, {}, x).size();
         },
         false},
        {"scopes",
         [](const Trace& t, Interval, const AnalysisIndex* x) {
             return kernelScopes(t, {x, nullptr, {}}).size();
         },
         false},
        // gapscope-cli summary: every registration's summary parts, sharing
        // the steps and accounts through the index as the panels do.
        {"summary (every registration's part)",
         [](const Trace& t, Interval, const AnalysisIndex* x) {
             StepOptions o;
             o.index = x;
             return summaryTables(t, o).size();
         },
         false},
        // What a comparison computes once both runs are loaded: each run's
        // figures (every analysis above, whole trace) and their diff; here
        // the trace against itself.
        {"comparison (two runs' figures and their diff)",
         [](const Trace& t, Interval, const AnalysisIndex* x) {
             StepOptions o;
             o.index = x;
             const RunMetrics base = runMetrics(t, o), now = runMetrics(t, o);
             return diffRuns(base, now).kernels.size();
         },
         false},
    };
}

}  // namespace

void printAnalyses(const std::vector<std::string>& files, bool quick, const std::string& only) {
    std::printf(
        "\n| file | load s | analysis | whole trace, alone ms | / load | whole trace with the "
        "index ms | / load | 1 %% range with the index ms | / load |\n"
        "|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string& path : files) {
        LoadOptions options;  // no cache: the load time is this run's reference
        const auto t0 = Clock::now();
        const LoadResult r = loadTrace(path, options);
        const double loadS = seconds(t0, Clock::now());
        if (!r.trace) continue;
        const Trace& t = *r.trace;
        const TimeNs span = t.spanEnd - t.spanStart, mid = t.spanStart + span / 2;
        const Interval onePercent{mid - span / 200, mid + span / 200};
        const auto i0 = Clock::now();
        const AnalysisIndex index(t);
        const double indexMs = msSince(i0);
        std::printf("| %s | %.2f | (the index, once per load) | %.1f | %.1f %% | | | | |\n",
                    path.c_str(), loadS, indexMs, indexMs / (loadS * 10));
        size_t keep = 0;
        auto timed = [&](const Analysis& a, Interval w, const AnalysisIndex* x, int repeats) {
            std::vector<double> ms;
            for (int i = 0; i < repeats; ++i) {
                // Each run does its own work: the steps and accounts the index
                // remembers for the panels are not reused across runs.
                if (x) x->forgetRemembered();
                const auto s = Clock::now();
                keep += a.run(t, w, x);
                ms.push_back(msSince(s));
            }
            return median(ms);
        };
        const double pct = loadS * 10;  // ms per 1 % of the load
        for (const Analysis& a : analyses()) {
            if (!only.empty() && std::string_view(a.name).find(only) == std::string_view::npos)
                continue;
            const double alone = timed(a, kWholeTrace, nullptr, quick ? 1 : 3);
            const double whole = timed(a, kWholeTrace, &index, quick ? 1 : 3);
            std::printf("| %s | %.2f | %s | %.1f | %.1f %% | %.1f | %.1f %% |", path.c_str(), loadS,
                        a.name, alone, alone / pct, whole, whole / pct);
            if (a.hasRange) {
                const double range = timed(a, onePercent, &index, quick ? 1 : 5);
                std::printf(" %.2f | %.2f %% |\n", range, range / pct);
            } else {
                std::printf(" - | - |\n");
            }
            std::fflush(stdout);
        }
        if (keep == SIZE_MAX) std::printf("(unreachable)\n");
    }
}

}  // namespace gapscope::bench
