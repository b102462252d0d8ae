#include "analysis/gpu_activity.h"

#include <algorithm>
#include <optional>
#include <unordered_map>

#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

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
    // Kineto names a copy by its direction ("Memcpy HtoD (Pageable -> Device)");
    // XSpace names its copy stream so.
    for (const std::string_view text : {trace.str(slice.name), trace.str(track.threadName)}) {
        for (size_t d = 0; d + 1 < kCopyDirectionCount; ++d) {
            if (text.find(copyDirectionName(CopyDirection(d))) != std::string_view::npos)
                return CopyDirection(d);
        }
    }
    return CopyDirection::Other;
}

ActivityKind activityKind(const Slice& slice) {
    switch (sliceKind(slice)) {
        case SliceKind::Memcpy:
            return ActivityKind::Memcpy;
        case SliceKind::Memset:
            return ActivityKind::Memset;
        default:
            return ActivityKind::Kernel;
    }
}

ActivityClass activityClass(const Slice& slice) {
    switch (sliceKind(slice)) {
        case SliceKind::Memcpy:
            return ActivityClass::Memcpy;
        case SliceKind::CommKernel:
            return ActivityClass::Communication;
        default:
            return ActivityClass::Compute;
    }
}

DeviceActivity deviceActivity(const Trace& trace, const GpuDevice& device, Interval window) {
    DeviceActivity out;
    out.device = device.index;
    forEachActivity(trace, device, window, [&](uint32_t i, const Track& track, ActivityKind) {
        const Slice& s = trace.slices[i];
        const Interval clipped{std::max(s.start, window.start), std::min(s.end(), window.end)};
        switch (activityClass(s)) {
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
