// finish() stage 2b: with processes and tracks classified
// (classify_tracks.cpp), name everything readably, order it (GPUs first),
// then lay out and index each track's slices.

#include <algorithm>
#include <cctype>
#include <string>

#include "model/builder_state.h"
#include "model/slice_layout.h"
#include "model/vocabulary/vocabulary.h"

namespace gapscope {

namespace {

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
    const std::string_view name = trimSpaces(t.str(tr.threadName));
    if (name.empty()) return tr.key.tid.isText ? tid : "thread " + tid;  // a text tid names itself
    // Kineto writes "thread 1102 (pt_main_thread)": show "pt_main_thread 1102".
    if (name.substr(0, 7) == "thread " && name.back() == ')') {
        const size_t open = name.find(" (");
        if (open != std::string_view::npos) {
            return std::string(name.substr(open + 2, name.size() - open - 3)) + " " + tid;
        }
    }
    // A negative tid is no OS thread's but a producer's own line id (the
    // derived lines of an XSpace, "Steps" -559038737): the name is enough.
    if (!tr.key.tid.isText && tr.key.tid.number < 0) return std::string(name);
    if (containsWord(name, tid)) return std::string(name);
    return std::string(name) + " " + tid;
}

// "stream 7": the thread name, or the tid (old Kineto writes "stream 7" as the tid).
std::string streamName(const Trace& t, const PendingTrack& tr) {
    if (tr.hasThreadName) return std::string(trimSpaces(t.str(tr.threadName)));
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

// Processes in display order: GPUs by device, then the rest by sort index and pid.
std::vector<uint32_t> processOrder(const TraceBuilder::State& st) {
    const Trace& t = st.trace;
    const auto& procs = st.processes;
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

    return procOrder;
}

// Tracks of each process: threads by sort index then tid; each stream's
// annotation line right after it; async and instants last. Appends the
// pending ids to trackOrder and returns the processes that have tracks or
// counters, in order, with their display names.
std::vector<Process> orderTracks(TraceBuilder::State& st, const std::vector<uint32_t>& procOrder,
                                 std::vector<uint32_t>& trackOrder) {
    Trace& t = st.trace;
    const auto& procs = st.processes;
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
        const std::string_view name = trimSpaces(t.str(proc.name));
        // A plane's pid is a reader's own number (XSpace, TensorFlow's
        // JSON): the plane's name says it all.
        const bool plane = vocabulary::planeNameAt(name) != std::string_view::npos;
        if (proc.kind == ProcessKind::Gpu) {
            proc.displayName = "GPU " + std::to_string(proc.gpuDevice);
        } else if (proc.name) {
            proc.displayName = std::string(name);
            if (!plane) proc.displayName.append(1, ' ').append(idText(t, proc.pid));
        } else {
            proc.displayName = proc.pid.isText ? idText(t, proc.pid)  // a text pid names itself
                                               : "process " + idText(t, proc.pid);
        }
        // A host's GPU in a profile run's folder: "10.0.0.1_6009 /device:GPU:1"
        // reads "10.0.0.1_6009 · GPU 1", as the host numbers it (its
        // device index, unique in the run, may be 8).
        if (plane && proc.kind == ProcessKind::Gpu) {
            const size_t at = name.find(" /device:GPU:");
            if (at != std::string_view::npos) {
                proc.displayName = std::string(name.substr(0, at));
                proc.displayName.append(" \u00b7 GPU ").append(name.substr(at + 13));
            }
        }
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
    return ordered;
}

// The final tracks, in order, with their kinds and readable names.
void makeTracks(TraceBuilder::State& st, std::vector<Process>& ordered,
                const std::vector<TrackKind>& kinds) {
    Trace& t = st.trace;
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
}

}  // namespace

void classifyAndOrder(TraceBuilder::State& st, std::vector<uint32_t>& trackOrder) {
    const std::vector<bool> tfStyle = classifyProcesses(st);
    const std::vector<TrackKind> kinds = classifyTracks(st, tfStyle);
    trackOrder.clear();
    std::vector<Process> ordered = orderTracks(st, processOrder(st), trackOrder);
    makeTracks(st, ordered, kinds);
    st.trace.processes = std::move(ordered);
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
        if (tr.wantsFinalIndex) tr.finalIndex.resize(tr.slices.size());
        LayoutResult laid = layoutSlices(tr.slices, tr.seq, tr.group, t.slices.data() + base,
                                         tr.wantsFinalIndex ? tr.finalIndex.data() : nullptr);
        for (uint32_t& i : tr.finalIndex)
            i += base;
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
