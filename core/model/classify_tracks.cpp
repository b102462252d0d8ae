// finish() stage 2a: which processes are GPUs (and which device each is),
// and what kind each track is (GPU stream, annotation line, other GPU line,
// CPU thread, async, instants).

#include <algorithm>
#include <charconv>

#include "model/builder_state.h"

namespace gapscope {

namespace {

// "<prefix><digits>..." -> digits, else -1.
int numberAfter(std::string_view s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return -1;
    s.remove_prefix(prefix.size());
    int n = -1;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), n);
    return r.ec == std::errc() ? n : -1;
}

bool hasActivity(const PendingTrack& tr) {
    return std::any_of(tr.slices.begin(), tr.slices.end(),
                       [](const Slice& s) { return s.flags & kSliceGpuActivity; });
}

}  // namespace

std::vector<bool> classifyProcesses(TraceBuilder::State& st) {
    const Trace& t = st.trace;
    auto& procs = st.processes;
    std::vector<bool> tfStyle(procs.size(), false);
    // By name: Kineto's process_labels "GPU N", or TensorFlow/JAX "/device:GPU:N".
    for (uint32_t p = 0; p < procs.size(); ++p) {
        Process& proc = procs[p];
        const std::string_view name = t.str(proc.name);
        int device = numberAfter(t.str(proc.labels), "GPU ");
        if (device < 0) device = numberAfter(name, "GPU ");
        if (device < 0) {
            device = numberAfter(name, "/device:GPU:");
            tfStyle[p] = device >= 0;
        }
        if (device >= 0) {
            proc.kind = ProcessKind::Gpu;
            proc.gpuDevice = device;
        }
    }
    // By activity: a process with kernels, memcpy or memset is a GPU; its
    // device is args.device, else the pid.
    for (PendingTrack& tr : st.tracks) {
        Process& proc = procs[tr.key.process];
        if (!hasActivity(tr)) continue;
        if (proc.kind != ProcessKind::Gpu) {
            proc.kind = ProcessKind::Gpu;
            proc.gpuDevice = tr.deviceFromArgs >= 0 ? tr.deviceFromArgs
                             : proc.pid.isText      ? -1
                                                    : static_cast<int>(proc.pid.number);
        }
    }
    int nextDevice = 0;
    for (const Process& proc : procs)
        nextDevice = std::max(nextDevice, proc.gpuDevice + 1);
    for (Process& proc : procs) {
        if (proc.kind == ProcessKind::Gpu && proc.gpuDevice < 0) proc.gpuDevice = nextDevice++;
    }
    return tfStyle;
}

std::vector<TrackKind> classifyTracks(TraceBuilder::State& st, const std::vector<bool>& tfStyle) {
    const Trace& t = st.trace;
    std::vector<TrackKind> kinds(st.tracks.size());
    for (uint32_t i = 0; i < st.tracks.size(); ++i) {
        PendingTrack& tr = st.tracks[i];
        const Process& proc = st.processes[tr.key.process];
        const std::string_view tname = trimSpaces(t.str(tr.threadName));
        switch (tr.key.sub) {
            case SubTrack::Async:
                kinds[i] = TrackKind::Async;
                break;
            case SubTrack::Instants:
                kinds[i] = TrackKind::Instants;
                break;
            case SubTrack::GpuAnnotation:
                kinds[i] = TrackKind::GpuAnnotation;
                break;
            case SubTrack::Thread:
                if (proc.kind != ProcessKind::Gpu) {
                    kinds[i] = TrackKind::CpuThread;
                } else if (tfStyle[tr.key.process] && tname.substr(0, 8) == "Stream #") {
                    // TensorFlow/JAX stream lines: every event is GPU activity.
                    kinds[i] = TrackKind::GpuStream;
                    for (Slice& s : tr.slices)
                        s.flags |= kSliceGpuActivity;
                } else if (hasActivity(tr) || tname.substr(0, 7) == "stream ") {
                    kinds[i] = TrackKind::GpuStream;
                } else {
                    kinds[i] = TrackKind::GpuOther;
                }
                break;
        }
    }
    return kinds;
}

}  // namespace gapscope
