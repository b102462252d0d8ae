#pragma once
// What each GPU activity slice is, and one way to walk the activity of a
// device inside a time window: the shared iterator of the per-device
// analyses (time breakdown, kernel statistics, gaps).
//
// Classes (per device, all its streams):
//  - compute: kernels that are not communication, and memsets (as TraceLens);
//  - communication: kernels named like nccl|rccl|cross_device_reduce
//    (case-insensitive) or starting with "hccl";
//  - memcpy: Kineto gpu_memcpy / Memcpy, and TensorFlow copy streams.
// Never activity: Kineto's gpu_user_annotation, TensorFlow's derived lines
// (they are not flagged kSliceGpuActivity by the builder).

#include <array>
#include <string_view>
#include <vector>

#include "index/interval_set.h"
#include "model/trace.h"

namespace gapscope {

enum class ActivityKind : uint8_t { Kernel, Memcpy, Memset };
enum class ActivityClass : uint8_t { Compute, Communication, Memcpy };

// The direction of a copy: from its name (Kineto's "Memcpy HtoD (Pinned ->
// Device)"), else its stream's (TensorFlow's "Stream #13(MemcpyHtoD)"),
// the first of HtoD, DtoH, DtoD, PtoP found; else Other.
enum class CopyDirection : uint8_t { HtoD, DtoH, DtoD, PtoP, Other };
inline constexpr size_t kCopyDirectionCount = 5;
const char* copyDirectionName(CopyDirection d);  // "HtoD", ..., "other"
CopyDirection copyDirection(const Trace& trace, const Track& track, const Slice& slice);

// The kind of a slice flagged kSliceGpuActivity, from its slice kind.
ActivityKind activityKind(const Slice& slice);
// Compute, communication (a comm_kernel) or memcpy; memsets are compute.
ActivityClass activityClass(const Slice& slice);

// The device a GPU activity slice belongs to: its own args.device when the
// profiler wrote one, else its track's (as the busy union counts it).
inline int deviceOfSlice(const Trace& trace, const Track& track, const Slice& slice) {
    const int32_t own = trace.deviceOf(slice.args);
    return own >= 0 ? own : track.gpuDevice;
}

// The whole trace as a window.
inline constexpr Interval kWholeTrace{INT64_MIN / 2, INT64_MAX / 2};

// Calls f(sliceIndex, track, kind) for every GPU activity slice of `device`
// (an entry of trace.gpuDevices) that overlaps [window.start, window.end),
// zero-duration ones (which ran) included when they start inside it.
// O(rows · log n + k); no copy of the slices.
template <class F>
void forEachActivity(const Trace& trace, const GpuDevice& device, Interval window, F&& f) {
    for (const uint32_t tr : device.tracks) {
        const Track& track = trace.tracks[tr];
        for (const Row& row : track.rows) {
            const auto [lo, hi] = trace.visibleInRow(row, window.start, window.end);
            for (uint32_t i = lo; i < hi; ++i) {
                const Slice& s = trace.slices[i];
                if (!(s.flags & kSliceGpuActivity) || (s.flags & kSliceNegativeDuration))
                    continue;  // malformed: kept, never activity
                // Half-open: a zero-duration slice is inside when it starts inside.
                if (s.start >= window.end ||
                    (s.dur > 0 ? s.end() <= window.start : s.start < window.start))
                    continue;
                if (deviceOfSlice(trace, track, s) != device.index) continue;
                f(i, track, activityKind(s));
            }
        }
    }
}

// The merged unions of each class of one device, clipped to a window.
struct DeviceActivity {
    int device = 0;
    std::vector<Interval> compute, communication, memcpy;
    std::array<std::vector<Interval>, kCopyDirectionCount> memcpyByDirection;
};

DeviceActivity deviceActivity(const Trace& trace, const GpuDevice& device, Interval window);

}  // namespace gapscope
