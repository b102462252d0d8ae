// finish() stage 2a: which processes are GPUs (and which device each is),
// and what kind each track is (GPU stream, annotation line, other GPU line,
// CPU thread, async, instants).

#include <algorithm>
#include <charconv>

#include "model/builder_state.h"
#include "model/vocabulary/vocabulary.h"

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

// Per process: whether its threads hold GPU activity, and whether they hold
// host work (Kineto's CPU ops, runtime calls, annotations, Python functions).
struct Holdings {
    std::vector<bool> activity, hostWork;
};

Holdings holdings(const TraceBuilder::State& st) {
    const Trace& t = st.trace;
    Holdings h{std::vector<bool>(st.processes.size()), std::vector<bool>(st.processes.size())};
    std::vector<int8_t> hostCategory(t.categories.size(), -1);  // memo per category
    auto isHost = [&](uint16_t c) {
        if (c >= hostCategory.size()) return false;
        if (hostCategory[c] < 0)
            hostCategory[c] = vocabulary::kinetoHostCategory(t.str(t.categories[c]));
        return hostCategory[c] > 0;
    };
    for (const PendingTrack& tr : st.tracks) {
        if (tr.key.sub != SubTrack::Thread) continue;
        for (const Slice& s : tr.slices) {
            if (s.flags & kSliceGpuActivity)
                h.activity[tr.key.process] = true;
            else if (isHost(s.category))
                h.hostWork[tr.key.process] = true;
        }
    }
    return h;
}

}  // namespace

std::vector<bool> classifyProcesses(TraceBuilder::State& st) {
    Trace& t = st.trace;
    auto& procs = st.processes;
    std::vector<bool> tfStyle(procs.size(), false);
    // XSpace of several hosts (a profile run): the reader names each
    // process "HOST PLANE" ("10.0.0.1_6009 /device:GPU:0"; see
    // vocabulary::planeNameAt). The hosts in order of appearance, each with
    // the largest GPU number it uses (its GPU planes and memory curves).
    std::vector<std::string_view> hosts;
    std::vector<int64_t> largest;
    std::vector<size_t> hostOf(procs.size(), 0);
    auto hostIndex = [&](std::string_view prefix) {
        const auto it = std::find(hosts.begin(), hosts.end(), prefix);
        if (it != hosts.end()) return static_cast<size_t>(it - hosts.begin());
        hosts.push_back(prefix);
        largest.push_back(-1);
        return hosts.size() - 1;
    };
    hostIndex({});                                // host 0: a single file's, or any JSON trace's
    std::vector<int> planeGpu(procs.size(), -1);  // N of "/device:GPU:N"
    for (uint32_t p = 0; p < procs.size(); ++p) {
        const std::string_view name = t.str(procs[p].name);
        const size_t plane = vocabulary::planeNameAt(name);
        const size_t at = plane == std::string_view::npos ? 0 : plane;
        hostOf[p] = hostIndex(name.substr(0, at));
        planeGpu[p] = numberAfter(name.substr(at), "/device:GPU:");
        if (planeGpu[p] < 0) continue;
        tfStyle[p] = true;
        largest[hostOf[p]] = std::max<int64_t>(largest[hostOf[p]], planeGpu[p]);
    }
    for (const CounterSeries& cs : t.counters)
        if (cs.memory != MemoryCurve::None && cs.memoryDevice >= 0 && cs.process < procs.size())
            largest[hostOf[cs.process]] =
                std::max<int64_t>(largest[hostOf[cs.process]], cs.memoryDevice);
    // Devices of several hosts are numbered one host after the other
    // (host 0's GPU N stays N), so no two hosts share a device. Absurd
    // numbers (a hostile name) fall back to numbering by activity below.
    std::vector<int64_t> hostBase(hosts.size(), 0);
    for (size_t h = 1; h < hosts.size(); ++h)
        hostBase[h] = hostBase[h - 1] + largest[h - 1] + 1;
    constexpr int64_t kMaxDevice = int64_t{1} << 24;
    // By name: Kineto's process_labels "GPU N", or the TensorFlow/JAX name.
    // A process is a GPU by what it holds, not by a label alone: one
    // labelled "GPU N" whose threads hold host work and no GPU activity (a
    // ROCm trace's Python process) stays a CPU process; Trace Health says
    // its label and its work disagree.
    const Holdings held = holdings(st);
    for (uint32_t p = 0; p < procs.size(); ++p) {
        Process& proc = procs[p];
        const std::string_view name = t.str(proc.name);
        int device = vocabulary::kinetoGpuNumber(t.str(proc.labels));
        if (device < 0) device = vocabulary::kinetoGpuNumber(name);
        if (device >= 0 && held.hostWork[p] && !held.activity[p]) device = -1;
        if (device >= 0) {
            tfStyle[p] = false;
        } else if (tfStyle[p]) {
            const int64_t n = hostBase[hostOf[p]] + planeGpu[p];
            device = n <= kMaxDevice ? static_cast<int>(n) : -1;
        }
        if (device >= 0) {
            proc.kind = ProcessKind::Gpu;
            proc.gpuDevice = device;
        }
    }
    // A host's memory curves name its own GPUs ("GPU_1_bfc" is its GPU 1):
    // they follow their host's numbering.
    for (CounterSeries& cs : t.counters) {
        if (hosts.size() < 2 || cs.memory == MemoryCurve::None || cs.memoryDevice < 0 ||
            cs.process >= procs.size())
            continue;
        const int64_t device = hostBase[hostOf[cs.process]] + cs.memoryDevice;
        if (device == cs.memoryDevice || device > kMaxDevice) continue;
        std::string oldName = "GPU ";
        oldName.append(std::to_string(cs.memoryDevice));
        const std::string_view name = t.str(cs.name);
        if (name.substr(0, oldName.size()) == oldName) {
            std::string renamed = "GPU ";
            renamed.append(std::to_string(device)).append(name.substr(oldName.size()));
            cs.name = t.strings.intern(renamed);
        }
        cs.memoryDevice = static_cast<int32_t>(device);
    }
    // And so do its allocator's events.
    for (MemoryEvent& m : st.memoryEvents) {
        if (hosts.size() < 2 || m.deviceType == 0 || m.deviceId < 0) continue;
        const uint32_t p = st.tracks[m.track].key.process;
        if (p >= procs.size()) continue;
        const int64_t device = hostBase[hostOf[p]] + m.deviceId;
        if (device <= kMaxDevice) m.deviceId = static_cast<int32_t>(device);
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
