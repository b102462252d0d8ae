#include "analysis/kernel_scopes.h"

#include <algorithm>
#include <map>
#include <optional>
#include <unordered_map>

#include "analysis/analysis_index.h"
#include "analysis/gpu_activity.h"
#include "analysis/launch_calls.h"
#include "model/slice_kind.h"

namespace gapscope {

namespace {

bool isStep(const std::vector<uint32_t>& steps, uint32_t slice) {
    return std::binary_search(steps.begin(), steps.end(), slice);
}

struct ScopeTimes {
    uint64_t count = 0;
    TimeNs total = 0;
    std::unordered_map<StringId, TimeNs> byName;
};

// The innermost scope slice around a kernel's launch call; kNone outside
// any (or for a kernel whose launch is unknown).
uint32_t innermostScope(const Trace& trace, const LaunchCalls& calls,
                        const EnclosingSlices& enclosing, const std::vector<uint32_t>& steps,
                        uint32_t kernel) {
    const uint32_t call = calls.first(kernel);
    if (call == kNone) return kNone;
    uint32_t found = kNone;
    enclosing.forEach(call, [&](uint32_t s) {
        if (found == kNone && isScopeSlice(trace, trace.slices[s]) && !isStep(steps, s)) found = s;
    });
    return found;
}

// "outer > ... > inner" from the innermost scope slice.
std::string pathOf(const Trace& trace, const EnclosingSlices& enclosing,
                   const std::vector<uint32_t>& steps, uint32_t innermost) {
    if (innermost == kNone) return {};
    std::vector<std::string_view> names{trace.str(trace.slices[innermost].name)};
    enclosing.forEach(innermost, [&](uint32_t s) {
        if (isScopeSlice(trace, trace.slices[s]) && !isStep(steps, s))
            names.push_back(trace.str(trace.slices[s].name));
    });
    std::string path;
    for (auto it = names.rbegin(); it != names.rend(); ++it)
        path.append(path.empty() ? "" : " > ").append(*it);
    return path;
}

}  // namespace

bool isScopeSlice(const Trace&, const Slice& slice) {
    return slice.flags & kSliceNamedScope;
}

std::vector<KernelScope> kernelScopes(const Trace& trace, const KernelScopeOptions& options) {
    std::optional<LaunchCalls> ownCalls;
    std::optional<EnclosingSlices> ownEnclosing;
    const LaunchCalls& calls = options.index ? options.index->launches() : ownCalls.emplace(trace);
    const EnclosingSlices& enclosing =
        options.index ? options.index->enclosing() : ownEnclosing.emplace(trace);
    // By the innermost scope slice first: its path is then built once per
    // range rather than once per kernel.
    std::unordered_map<uint32_t, ScopeTimes> bySlice;
    for (const GpuDevice& device : trace.gpuDevices) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        forEachActivity(trace, device, kWholeTrace,
                        [&](uint32_t i, const Track&, ActivityKind kind) {
                            if (kind != ActivityKind::Kernel) return;
                            const Slice& s = trace.slices[i];
                            ScopeTimes& acc =
                                bySlice[innermostScope(trace, calls, enclosing, options.steps, i)];
                            ++acc.count;
                            acc.total += s.dur;
                            acc.byName[s.name] += s.dur;
                        });
    }
    std::map<std::string, ScopeTimes> byPath;
    for (auto& [slice, acc] : bySlice) {
        if (options.cancel && options.cancel->isCancelled()) return {};
        ScopeTimes& into = byPath[pathOf(trace, enclosing, options.steps, slice)];
        into.count += acc.count;
        into.total += acc.total;
        for (const auto& [name, total] : acc.byName)
            into.byName[name] += total;
    }
    std::vector<KernelScope> out;
    out.reserve(byPath.size());
    for (auto& [path, acc] : byPath) {
        KernelScope scope{path, acc.count, acc.total, {acc.byName.begin(), acc.byName.end()}};
        std::sort(scope.kernels.begin(), scope.kernels.end(), [&](const auto& a, const auto& b) {
            if (a.second != b.second) return a.second > b.second;
            return trace.str(a.first) < trace.str(b.first);
        });
        out.push_back(std::move(scope));
    }
    return out;
}

}  // namespace gapscope
