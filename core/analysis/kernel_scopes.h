#pragma once
// GPU kernel time by scope. A kernel's scope is the ranges a person named
// around its launch call: record_function and NVTX push/pop ranges, and,
// in a trace recorded with Python stacks, the nn.Module frames
// ("nn.Module: Linear_0"); outermost first ("## mlp ## > nn.Module:
// Linear_0"). Left out: the steps, the ranges a compiler adds
// (torch.compile's "## Call CompiledFxGraph <hash> ##", "Torch-Compiled
// Region", ...) and the per-op ranges of emit_nvtx ("aten::mm, seq = 12"),
// which name no part of the model and change from run to run. So a range
// named around a call keeps its name when torch.compile, another library or
// another algorithm renames the kernels and the ops inside it, and two
// runs' kernels can be compared range by range.

#include <string>
#include <utility>
#include <vector>

#include "model/trace.h"
#include "util/cancel_token.h"

namespace gapscope {

class AnalysisIndex;

struct KernelScope {
    std::string path;  // "" for the kernels launched outside any named range (or never launched)
    uint64_t count = 0;
    TimeNs total = 0;
    // Each kernel name in the scope with its time there, by time, then name.
    std::vector<std::pair<StringId, TimeNs>> kernels;
};

struct KernelScopeOptions {
    const AnalysisIndex* index = nullptr;  // built once per trace; else built here
    const CancelToken* cancel = nullptr;
    // The run's step slices, sorted: never a scope (steps found by a
    // --step-regex among NVTX ranges are user annotations).
    std::vector<uint32_t> steps;
};

// Every kernel of the trace (as kernelStats counts them, all devices
// together) in its scope; sorted by path. Empty when cancelled.
std::vector<KernelScope> kernelScopes(const Trace& trace, const KernelScopeOptions& options = {});

// Whether a slice, by its kind and name, names a scope (steps aside).
bool isScopeSlice(const Trace& trace, const Slice& slice);

}  // namespace gapscope
