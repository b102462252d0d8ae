// finish() stage 2: decide which processes are GPUs and which tracks are
// streams, name everything readably, order it (GPUs first), then lay out
// and index each track's slices.

#include <algorithm>
#include <cctype>
#include <charconv>
#include <string>

#include "model/builder_state.h"
#include "model/slice_layout.h"

namespace gapscope {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
        s.remove_suffix(1);
    return s;
}

// "<prefix><digits>..." -> digits, else -1.
int numberAfter(std::string_view s, std::string_view prefix) {
    if (s.substr(0, prefix.size()) != prefix) return -1;
    s.remove_prefix(prefix.size());
    int n = -1;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), n);
    return r.ec == std::errc() ? n : -1;
}

std::string idText(const Trace& t, const IdKey& id) {
    return id.isText ? std::string(t.str(id.text)) : std::to_string(id.number);
}

bool idLess(const Trace& t, const IdKey& a, const IdKey& b) {
    if (a.isText != b.isText) return !a.isText;  // numbers first
    if (!a.isText) return a.number < b.number;
    return t.str(a.text) < t.str(b.text);
}

// `word` occurs in `text` not glued to other letters or digits.
bool containsWord(std::string_view text, std::string_view word) {
    auto isAlnum = [](char ch) { return std::isalnum(static_cast<unsigned char>(ch)) != 0; };
    for (size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
        const bool left = at == 0 || !isAlnum(text[at - 1]);
        const bool right = at + word.size() == text.size() || !isAlnum(text[at + word.size()]);
        if (left && right) return true;
    }
    return false;
}

std::string threadDisplayName(const Trace& t, const PendingTrack& tr) {
    const std::string tid = idText(t, tr.key.tid);
    const std::string_view name = trim(t.str(tr.threadName));
    if (name.empty()) return tr.key.tid.isText ? tid : "thread " + tid;  // a text tid names itself
    // Kineto writes "thread 1102 (pt_main_thread)": show "pt_main_thread 1102".
    if (name.substr(0, 7) == "thread " && name.back() == ')') {
        const size_t open = name.find(" (");
        if (open != std::string_view::npos) {
            return std::string(name.substr(open + 2, name.size() - open - 3)) + " " + tid;
        }
    }
    if (containsWord(name, tid)) return std::string(name);
    return std::string(name) + " " + tid;
}

// "stream 7": the thread name, or the tid (old Kineto writes "stream 7" as the tid).
std::string streamName(const Trace& t, const PendingTrack& tr) {
    if (tr.hasThreadName) return std::string(trim(t.str(tr.threadName)));
    return tr.key.tid.isText ? idText(t, tr.key.tid) : "stream " + idText(t, tr.key.tid);
}

int subTrackRank(SubTrack s) {
    switch (s) {
        case SubTrack::Thread:
            return 0;
        case SubTrack::GpuAnnotation:
            return 1;
        case SubTrack::Async:
            return 2;
        case SubTrack::Instants:
            return 3;
    }
    return 4;
}

bool hasActivity(const PendingTrack& tr) {
    return std::any_of(tr.slices.begin(), tr.slices.end(),
                       [](const Slice& s) { return s.flags & kSliceGpuActivity; });
}

}  // namespace

void classifyAndOrder(TraceBuilder::State& st, std::vector<uint32_t>& trackOrder) {
    Trace& t = st.trace;
    auto& procs = st.processes;
    std::vector<bool> tfStyle(procs.size(), false);  // "/device:GPU:N" processes

    // 1. Which processes are GPUs, and which device each is.
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

    // 2. Track kinds, and TensorFlow/JAX stream lines as GPU activity.
    std::vector<TrackKind> kinds(st.tracks.size());
    for (uint32_t i = 0; i < st.tracks.size(); ++i) {
        PendingTrack& tr = st.tracks[i];
        const Process& proc = procs[tr.key.process];
        const std::string_view tname = trim(t.str(tr.threadName));
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

    // 3. Order processes: GPUs by device, then the rest by sort index and pid.
    std::vector<uint32_t> procOrder;
    for (uint32_t p = 0; p < procs.size(); ++p)
        procOrder.push_back(p);
    // A missing sort index counts as 0, as in Chrome's viewer and Perfetto.
    auto sortKey = [&](const Process& p) { return p.hasSortIndex ? p.sortIndex : int64_t{0}; };
    std::stable_sort(procOrder.begin(), procOrder.end(), [&](uint32_t a, uint32_t b) {
        const Process& x = procs[a];
        const Process& y = procs[b];
        if (x.kind != y.kind) return x.kind == ProcessKind::Gpu;
        if (x.kind == ProcessKind::Gpu && x.gpuDevice != y.gpuDevice)
            return x.gpuDevice < y.gpuDevice;
        if (sortKey(x) != sortKey(y)) return sortKey(x) < sortKey(y);
        return idLess(t, x.pid, y.pid);
    });

    // 4. Tracks of each process: threads by sort index then tid; each
    // stream's annotation line right after it; async and instants last.
    std::vector<std::vector<uint32_t>> tracksOf(procs.size());
    for (uint32_t i = 0; i < st.tracks.size(); ++i) {
        const PendingTrack& tr = st.tracks[i];
        if (tr.slices.empty() && tr.instants.empty()) continue;  // metadata only
        tracksOf[tr.key.process].push_back(i);
    }
    auto threadKey = [&](const PendingTrack& tr) -> int64_t {
        if (tr.hasSortIndex) return tr.sortIndex;
        // The annotation line shares its stream's sort index.
        auto it = st.trackByKey.find({tr.key.process, tr.key.tid, SubTrack::Thread, 0});
        if (it != st.trackByKey.end() && st.tracks[it->second].hasSortIndex) {
            return st.tracks[it->second].sortIndex;
        }
        return 0;  // missing sort index = 0; ties go by tid
    };
    trackOrder.clear();
    std::vector<Process> ordered;
    for (uint32_t p : procOrder) {
        auto& list = tracksOf[p];
        bool hasCounters = std::any_of(t.counters.begin(), t.counters.end(),
                                       [&](const CounterSeries& c) { return c.process == p; });
        if (list.empty() && !hasCounters) continue;
        std::stable_sort(list.begin(), list.end(), [&](uint32_t a, uint32_t b) {
            const PendingTrack& x = st.tracks[a];
            const PendingTrack& y = st.tracks[b];
            const int rx = subTrackRank(x.key.sub) >= 2 ? 1 : 0;
            const int ry = subTrackRank(y.key.sub) >= 2 ? 1 : 0;
            if (rx != ry) return rx < ry;
            if (rx == 1) return subTrackRank(x.key.sub) < subTrackRank(y.key.sub);
            if (threadKey(x) != threadKey(y)) return threadKey(x) < threadKey(y);
            if (!(x.key.tid == y.key.tid)) return idLess(t, x.key.tid, y.key.tid);
            return subTrackRank(x.key.sub) < subTrackRank(y.key.sub);
        });
        Process proc = procs[p];
        proc.displayName = proc.kind == ProcessKind::Gpu ? "GPU " + std::to_string(proc.gpuDevice)
                           : proc.name
                               ? std::string(trim(t.str(proc.name))) + " " + idText(t, proc.pid)
                           : proc.pid.isText ? idText(t, proc.pid)  // a text pid names itself
                                             : "process " + idText(t, proc.pid);
        proc.tracks.clear();
        for (uint32_t i : list) {
            proc.tracks.push_back(i);  // pending ids for now; layoutTracks maps them
            trackOrder.push_back(i);
        }
        ordered.push_back(std::move(proc));
        // Counters keep pointing at the process by its new position.
        for (CounterSeries& c : t.counters) {
            if (c.process == p) c.process = static_cast<uint32_t>(ordered.size() - 1) | 0x80000000u;
        }
    }
    for (CounterSeries& c : t.counters)
        c.process &= 0x7fffffffu;
    // Remember each pending track's kind and display name for layoutTracks.
    for (Process& proc : ordered) {
        for (uint32_t i : proc.tracks) {
            PendingTrack& tr = st.tracks[i];
            Track out;
            out.kind = kinds[i];
            out.tid = tr.key.tid;
            out.threadName = tr.threadName;
            out.sortIndex = tr.sortIndex;
            out.hasSortIndex = tr.hasSortIndex;
            if (proc.kind == ProcessKind::Gpu) out.gpuDevice = proc.gpuDevice;
            switch (out.kind) {
                case TrackKind::GpuStream:
                    out.displayName = streamName(t, tr);
                    break;
                case TrackKind::GpuAnnotation: {
                    auto it = st.trackByKey.find({tr.key.process, tr.key.tid, SubTrack::Thread, 0});
                    out.displayName =
                        (it != st.trackByKey.end() ? streamName(t, st.tracks[it->second])
                                                   : streamName(t, tr)) +
                        " annotations";
                    break;
                }
                case TrackKind::Async:
                    out.displayName = std::string(t.str(tr.key.asyncName));
                    break;
                case TrackKind::Instants:
                    out.displayName = "instants";
                    break;
                default:
                    out.displayName = threadDisplayName(t, tr);
                    break;
            }
            st.trace.tracks.push_back(std::move(out));  // final index = position in trackOrder
        }
    }
    t.processes = std::move(ordered);
}

void layoutTracks(TraceBuilder::State& st, const std::vector<uint32_t>& trackOrder,
                  std::vector<uint32_t>& finalTrackOfPending) {
    Trace& t = st.trace;
    finalTrackOfPending.assign(st.tracks.size(), kNone);
    for (uint32_t f = 0; f < trackOrder.size(); ++f)
        finalTrackOfPending[trackOrder[f]] = f;
    for (uint32_t p = 0; p < t.processes.size(); ++p) {
        for (uint32_t& id : t.processes[p].tracks) {
            id = finalTrackOfPending[id];
            t.tracks[id].process = p;
        }
    }
    size_t total = 0, totalInstants = 0;
    for (const PendingTrack& tr : st.tracks) {
        total += tr.slices.size();
        totalInstants += tr.instants.size();
    }
    t.slices.reserve(total);
    t.instants.reserve(totalInstants);

    uint32_t base = 0;
    for (uint32_t f = 0; f < trackOrder.size(); ++f) {
        PendingTrack& tr = st.tracks[trackOrder[f]];
        Track& out = t.tracks[f];
        // Laid out straight into the trace's array (no copy of the track);
        // the array grows track by track as the pending copies are freed.
        t.slices.resize(base + tr.slices.size());
        LayoutResult laid = layoutSlices(tr.slices, tr.seq, tr.group, t.slices.data() + base);
        t.report.overlapsMovedToLanes += laid.movedToLanes;
        if (laid.clamped)
            t.report.warn(0, "track \"" + out.displayName +
                                 "\" has more than 65535 rows; the deepest were merged");
        out.sliceBegin = base;
        out.sliceEnd = base + static_cast<uint32_t>(tr.slices.size());
        base = out.sliceEnd;
        out.rows = std::move(laid.rows);
        for (Row& r : out.rows) {
            r.begin += out.sliceBegin;
            r.end += out.sliceBegin;
        }
        out.laneCount = laid.laneCount;
        HugeVector<uint32_t> ids(out.sliceCount());
        for (uint32_t i = 0; i < ids.size(); ++i)
            ids[i] = out.sliceBegin + i;
        out.index.build(t.slices, std::move(ids));

        std::stable_sort(tr.instants.begin(), tr.instants.end(),
                         [](const Instant& a, const Instant& b) { return a.ts < b.ts; });
        out.instantBegin = static_cast<uint32_t>(t.instants.size());
        for (Instant in : tr.instants) {
            in.track = f;
            t.instants.push_back(in);
        }
        out.instantEnd = static_cast<uint32_t>(t.instants.size());
        // Free as we go: peak memory is the pending copy of one track.
        HugeVector<Slice>().swap(tr.slices);
        HugeVector<uint32_t>().swap(tr.seq);
        std::vector<uint32_t>().swap(tr.group);
        HugeVector<Instant>().swap(tr.instants);
    }
}

}  // namespace gapscope
