#include "analysis/gpu_activity.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

namespace gapscope {

namespace {

bool containsNoCase(std::string_view text, std::string_view word) {
    auto lower = [](char c) {
        return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    };
    if (word.size() > text.size()) return false;
    for (size_t i = 0; i + word.size() <= text.size(); ++i) {
        size_t k = 0;
        while (k < word.size() && lower(text[i + k]) == word[k])
            ++k;
        if (k == word.size()) return true;
    }
    return false;
}

}  // namespace

bool isCommunicationKernel(std::string_view name) {
    if (containsNoCase(name, "nccl") || containsNoCase(name, "rccl") ||
        containsNoCase(name, "cross_device_reduce"))
        return true;
    return name.substr(0, 4) == "hccl";  // Huawei's collectives: a case-sensitive prefix
}

const char* copyDirectionName(CopyDirection d) {
    switch (d) {
        case CopyDirection::HtoD:
            return "HtoD";
        case CopyDirection::DtoH:
            return "DtoH";
        case CopyDirection::DtoD:
            return "DtoD";
        case CopyDirection::PtoP:
            return "PtoP";
        case CopyDirection::Other:
            break;
    }
    return "other";
}

CopyDirection copyDirection(const Trace& trace, const Track& track, const Slice& slice) {
    const std::string_view cat = trace.categoryName(slice.category);
    const std::string_view text = cat == "gpu_memcpy" || cat == "Memcpy"
                                      ? trace.str(slice.name)
                                      : trace.str(track.threadName);
    for (size_t d = 0; d + 1 < kCopyDirectionCount; ++d) {
        if (text.find(copyDirectionName(CopyDirection(d))) != std::string_view::npos)
            return CopyDirection(d);
    }
    return CopyDirection::Other;
}

ActivityKind activityKind(const Trace& trace, const Track& track, const Slice& slice) {
    const std::string_view cat = trace.categoryName(slice.category);
    if (cat == "kernel" || cat == "Kernel") return ActivityKind::Kernel;
    if (cat == "gpu_memcpy" || cat == "Memcpy") return ActivityKind::Memcpy;
    if (cat == "gpu_memset" || cat == "Memset") return ActivityKind::Memset;
    // TensorFlow/JAX stream lines: copy streams carry memcpy, memsets are named.
    if (containsNoCase(trace.str(track.threadName), "memcpy")) return ActivityKind::Memcpy;
    if (containsNoCase(trace.str(slice.name), "memset")) return ActivityKind::Memset;
    return ActivityKind::Kernel;
}

ActivityClass activityClass(ActivityKind kind, bool communicationName) {
    switch (kind) {
        case ActivityKind::Memcpy:
            return ActivityClass::Memcpy;
        case ActivityKind::Memset:
            return ActivityClass::Compute;
        case ActivityKind::Kernel:
            break;
    }
    return communicationName ? ActivityClass::Communication : ActivityClass::Compute;
}

ActivityClass activityClass(ActivityKind kind, std::string_view name) {
    return activityClass(kind, kind == ActivityKind::Kernel && isCommunicationKernel(name));
}

DeviceActivity deviceActivity(const Trace& trace, const GpuDevice& device, Interval window) {
    DeviceActivity out;
    out.device = device.index;
    // Whether a kernel name is communication, once per name: names are long
    // and a trace has millions of kernels but few names.
    // (A map, not a table of every string: a window holds few names, and
    // this runs per step.)
    std::unordered_map<StringId, bool> communication;
    auto isComm = [&](StringId name) {
        const auto [it, fresh] = communication.try_emplace(name, false);
        if (fresh) it->second = isCommunicationKernel(trace.str(name));
        return it->second;
    };
    forEachActivity(trace, device, window, [&](uint32_t i, const Track& track, ActivityKind kind) {
        const Slice& s = trace.slices[i];
        const Interval clipped{std::max(s.start, window.start), std::min(s.end(), window.end)};
        switch (activityClass(kind, kind == ActivityKind::Kernel && isComm(s.name))) {
            case ActivityClass::Compute:
                out.compute.push_back(clipped);
                break;
            case ActivityClass::Communication:
                out.communication.push_back(clipped);
                break;
            case ActivityClass::Memcpy:
                out.memcpy.push_back(clipped);
                out.memcpyByDirection[static_cast<size_t>(copyDirection(trace, track, s))]
                    .push_back(clipped);
                break;
        }
    });
    mergeIntervals(out.compute);
    mergeIntervals(out.communication);
    mergeIntervals(out.memcpy);
    for (std::vector<Interval>& d : out.memcpyByDirection)
        mergeIntervals(d);
    return out;
}

}  // namespace gapscope
