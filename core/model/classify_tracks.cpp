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
    Trace& t = st.trace;
    auto& procs = st.processes;
    std::vector<bool> tfStyle(procs.size(), false);
    // TensorFlow/JAX "/device:GPU:N", perhaps after a host ("10.0.0.1_6009
    // /device:GPU:0", one host file of a profile run): the hosts in order
    // of appearance, the largest N of each.
    std::vector<std::pair<std::string_view, int>> hosts;  // prefix, largest N
    std::vector<size_t> hostOf(procs.size(), 0);
    for (uint32_t p = 0; p < procs.size(); ++p) {
        const std::string_view name = t.str(procs[p].name);
        const size_t at = name.find("/device:GPU:");
        const int n =
            at == std::string_view::npos ? -1 : numberAfter(name.substr(at), "/device:GPU:");
        if (n < 0) continue;
        tfStyle[p] = true;
        const std::string_view prefix = name.substr(0, at);
        auto h = std::find_if(hosts.begin(), hosts.end(),
                              [&](const auto& e) { return e.first == prefix; });
        if (h == hosts.end()) h = hosts.insert(hosts.end(), {prefix, n});
        h->second = std::max(h->second, n);
        hostOf[p] = static_cast<size_t>(h - hosts.begin());
    }
    // Devices of several hosts are numbered one host after the other
    // (host 0's GPU N stays N), so no two hosts share a device. Absurd
    // numbers (a hostile name) fall back to numbering by activity below.
    std::vector<int64_t> hostBase(hosts.size(), 0);
    for (size_t h = 1; h < hosts.size(); ++h)
        hostBase[h] = hostBase[h - 1] + hosts[h - 1].second + 1;
    // By name: Kineto's process_labels "GPU N", or the TensorFlow/JAX name.
    for (uint32_t p = 0; p < procs.size(); ++p) {
        Process& proc = procs[p];
        const std::string_view name = t.str(proc.name);
        int device = numberAfter(t.str(proc.labels), "GPU ");
        if (device < 0) device = numberAfter(name, "GPU ");
        if (device >= 0) {
            tfStyle[p] = false;
        } else if (tfStyle[p]) {
            const int64_t n = hostBase[hostOf[p]] +
                              numberAfter(name.substr(name.find("/device:GPU:")), "/device:GPU:");
            device = n <= int64_t{1} << 24 ? static_cast<int>(n) : -1;
        }
        if (device >= 0) {
            proc.kind = ProcessKind::Gpu;
            proc.gpuDevice = device;
        }
    }
    // A host's memory curves name its own GPUs ("GPU_1_bfc" is its GPU 1):
    // they follow their host's numbering, found by the process's host prefix.
    if (hosts.size() > 1) {
        for (CounterSeries& cs : st.trace.counters) {
            if (cs.memory == MemoryCurve::None || cs.memoryDevice < 0 || cs.process >= procs.size())
                continue;
            const std::string_view owner = t.str(procs[cs.process].name);
            for (size_t h = 0; h < hosts.size(); ++h) {
                if (hosts[h].first.empty() ||
                    owner.substr(0, hosts[h].first.size()) != hosts[h].first)
                    continue;
                const int64_t device = hostBase[h] + cs.memoryDevice;
                if (device > int64_t{1} << 24) break;
                const std::string oldName = "GPU " + std::to_string(cs.memoryDevice);
                const std::string_view name = t.str(cs.name);
                if (name.substr(0, oldName.size()) == oldName)
                    cs.name = st.trace.strings.intern("GPU " + std::to_string(device) +
                                                      std::string(name.substr(oldName.size())));
                cs.memoryDevice = static_cast<int32_t>(device);
                break;
            }
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
