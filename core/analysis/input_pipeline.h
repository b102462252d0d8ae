#pragma once
// Is the job waiting for its input? TensorFlow's tf.data stages and
// PyTorch's DataLoader, and a verdict with TensorBoard's thresholds.
//
//  - tf.data: per `Iterator::` stage (its full path) calls, inclusive time
//    and self time (inclusive less the nested stages on the same thread),
//    and its share of all stages' self time; the time in IteratorGetNext;
//    checks for a missing Prefetch, a sequential Map, no Cache.
//  - PyTorch: DataLoader `__next__` calls and time; single-process
//    (_SingleProcessDataLoaderIter) or worker processes
//    (_MultiProcessingDataLoaderIter); whether a pin-memory thread exists.
//  - The verdict, as TensorBoard's input-pipeline analyser decides it: the
//    share of the GPUs' time they sat idle waiting for input (idle caused
//    by input, over the time account's denominator: step time, or the
//    active span without steps; summed over the GPUs). ≥ 20 % highly,
//    ≥ 5 % moderately, else not input-bound (exact integer comparisons).
//    Without GPU activity, the host's wait stands in for it.
//  - Host wait, as supporting detail: the union of DataLoader __next__ and
//    IteratorGetNext slices inside the steps (without steps: over the span
//    of host and GPU activity). It can exceed the GPU's input idle when the
//    host runs ahead of the GPU, which then hides the wait.

#include <optional>
#include <string>
#include <vector>

#include "analysis/gpu_time_account.h"
#include "analysis/steps.h"

namespace gapscope {

enum class InputVerdict : uint8_t { NotInputBound, Moderately, Highly };
const char* inputVerdictName(InputVerdict v);  // "not input-bound", ...

struct PipelineStage {
    StringId name = 0;
    uint64_t calls = 0;
    TimeNs inclusive = 0, self = 0;
    std::optional<double> share;
};

struct DataLoaderUse {
    uint64_t calls = 0;
    TimeNs total = 0;
    std::optional<std::string> kind;  // "single-process", "worker processes"
    bool pinMemoryThread = false;
};

struct PipelineChecks {
    bool missingPrefetch = false, sequentialMap = false, noCache = false;
};

struct StepInputWait {
    int64_t number = 0;
    TimeNs wait = 0;
    double share = 0;
};

struct PipelineReport {
    InputVerdict verdict = InputVerdict::NotInputBound;
    // GPU idle caused by input of `time`, the denominator (from the time
    // account); without GPUs, the host's wait and time.
    std::optional<double> inputShare;
    TimeNs inputWait = 0, time = 0;
    bool fromGpu = false;
    Denominator denominator = Denominator::ActiveSpan;
    // The host's wait in __next__ / IteratorGetNext over the steps (or the
    // span of all activity without steps), and that time.
    TimeNs hostWait = 0, hostTime = 0;
    std::vector<PipelineStage> stages;  // by self time
    TimeNs getNext = 0;
    std::optional<PipelineChecks> checks;  // with tf.data stages
    std::optional<DataLoaderUse> dataLoader;
    std::vector<StepInputWait> perStep;
    std::vector<uint32_t> longestWaits;  // the input-wait slices, longest first (at most 10)
};

// `account`: the GPUs' time account of the same steps or window (may be
// null: the verdict then reads the host's wait).
PipelineReport inputPipeline(const Trace& trace, const std::vector<Step>& steps,
                             const TimeAccount* account);

// The span of host slices and GPU activity (empty without any).
Interval activitySpan(const Trace& trace);

}  // namespace gapscope
