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
//  - Input wait: the union of DataLoader __next__ and IteratorGetNext
//    slices. Input share = wait inside steps / step time (without steps:
//    over the span of host and GPU activity). Verdict: ≥ 20 % highly,
//    ≥ 5 % moderately, else not input-bound (exact integer comparisons).

#include <optional>
#include <string>
#include <vector>

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
    std::optional<double> inputShare;
    TimeNs inputWait = 0, stepTime = 0;
    std::vector<PipelineStage> stages;  // by self time
    TimeNs getNext = 0;
    std::optional<PipelineChecks> checks;  // with tf.data stages
    std::optional<DataLoaderUse> dataLoader;
    std::vector<StepInputWait> perStep;
    std::vector<uint32_t> longestWaits;  // the input-wait slices, longest first (at most 10)
};

PipelineReport inputPipeline(const Trace& trace, const std::vector<Step>& steps);

// The span of host slices and GPU activity (empty without any).
Interval activitySpan(const Trace& trace);

}  // namespace gapscope
