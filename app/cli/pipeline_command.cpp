#include <iostream>

#include "analysis/analysis_index.h"
#include "analysis/input_pipeline.h"
#include "analysis_commands.h"
#include "cli_output.h"
#include "report/analysis_tables.h"
#include "report/result_json.h"
#include "util/readable_units.h"

namespace gapscope::cli {

namespace {

constexpr const char* kHelp =
    "Usage: gapscope-cli pipeline TRACE [--format table|csv|md|json] [--step-regex RE]\n"
    "  Is the job waiting for input? The share of the GPUs' time (step time, or\n"
    "  the active span without steps) they sat idle waiting for input, with\n"
    "  TensorBoard's verdict: >= 20% highly, >= 5% moderately, else not\n"
    "  input-bound; the host's wait in DataLoader __next__ / IteratorGetNext as\n"
    "  detail (the verdict reads it only without a GPU). tf.data stages\n"
    "  (Iterator::...) with calls, inclusive and self time and checks (missing\n"
    "  Prefetch, sequential Map, no Cache); the PyTorch DataLoader kind (single-\n"
    "  process or worker processes) and whether a pin-memory thread runs.\n"
    "  --range / --step: the steps that start inside it.\n";

}  // namespace

int runPipeline(int argc, char** argv) {
    if (printedHelp(argc, argv, kHelp)) return 0;
    int exitCode = 0;
    auto p = prepare("pipeline", argc, argv, {}, exitCode);
    if (!p) return exitCode;
    const Trace& t = *p->trace;
    StepList steps;
    steps.steps = stepsInRange(t, p->args);
    const AnalysisIndex index(t);
    StepOptions so = p->args.stepOptions();
    so.index = &index;
    so.window = p->args.range.value_or(kWholeTrace);
    so.onlyNumber = p->args.step;
    const TimeAccount account = timeAccountOf(t, so);
    const PipelineReport r = inputPipeline(t, steps.steps, &account);
    if (p->args.format == OutputFormat::Json) {
        const nlohmann::json stages = resultRowsJson(pipelineStageTable(t, r));
        const nlohmann::json perStep = resultRowsJson(inputWaitTable(r, steps.steps));
        nlohmann::json checks = nullptr, loader = nullptr, waits = nlohmann::json::array();
        if (r.checks) {
            checks = {{"missing_prefetch", r.checks->missingPrefetch},
                      {"sequential_map", r.checks->sequentialMap},
                      {"no_cache", r.checks->noCache}};
        }
        if (r.dataLoader) {
            loader = {{"calls", r.dataLoader->calls},
                      {"total_ns", r.dataLoader->total},
                      {"kind", orNull(r.dataLoader->kind)},
                      {"pin_memory_thread", r.dataLoader->pinMemoryThread}};
        }
        for (const uint32_t s : r.longestWaits)
            waits.push_back(sliceJson(t, s));
        printJson(
            {{"verdict", r.inputShare ? nlohmann::json(inputVerdictName(r.verdict)) : nullptr},
             {"input_share", orNull(r.inputShare)},
             {"input_wait_ns", r.inputWait},
             {"time_ns", r.time},
             {"denominator", denominatorName(r.denominator)},
             {"from", r.fromGpu ? "gpu" : "host"},
             {"host_wait_ns", r.hostWait},
             {"host_time_ns", r.hostTime},
             {"steps", steps.steps.size()},
             {"stages", stages},
             {"get_next_ns", r.getNext},
             {"checks", checks},
             {"dataloader", loader},
             {"per_step", perStep},
             {"longest_waits", waits}});
        return 0;
    }
    std::cout << "Verdict: " << inputVerdictName(r.verdict);
    if (r.inputShare)
        std::cout << " ("
                  << (r.fromGpu ? "the GPUs idle for input " : "the host waiting for input ")
                  << readablePercent(*r.inputShare) << " of " << r.time << " ns of "
                  << denominatorName(r.denominator) << ")";
    std::cout << "\n";
    if (r.fromGpu)
        std::cout << "Host wait in the next batch: " << r.hostWait << " ns of " << r.hostTime
                  << " ns of the steps' duration on the host\n";
    if (r.dataLoader) {
        std::cout << "DataLoader: " << r.dataLoader->calls << " calls, " << r.dataLoader->total
                  << " ns, " << r.dataLoader->kind.value_or("unknown kind")
                  << (r.dataLoader->pinMemoryThread ? ", pin-memory thread" : "") << "\n";
    }
    if (r.checks) {
        std::cout << "tf.data: IteratorGetNext " << r.getNext << " ns"
                  << (r.checks->missingPrefetch ? "; no Prefetch" : "")
                  << (r.checks->sequentialMap ? "; a sequential Map" : "")
                  << (r.checks->noCache ? "; no Cache" : "") << "\n";
    }
    if (r.stages.empty()) return 0;
    std::cout << "\n";
    printResult(pipelineStageTable(t, r), p->args.format);
    return 0;
}

}  // namespace gapscope::cli
