// finish() stage 1: B/E pairs and async begin/end pairs become slices.

#include <algorithm>
#include <unordered_map>

#include "model/builder_state.h"

namespace gapscope {

void buildBeginEndSlices(TraceBuilder::State& st) {
    Trace& t = st.trace;
    for (PendingTrack& tr : st.tracks) {
        if (tr.beginEnds.empty()) continue;
        auto& events = tr.beginEnds;
        // Ties keep file order (B then E at the same ts is a zero-length slice).
        std::stable_sort(events.begin(), events.end(),
                         [](const BeginEnd& a, const BeginEnd& b) { return a.ts < b.ts; });
        // Each "B" makes one slice, closed or not: room for all at once.
        const auto begins = static_cast<size_t>(
            std::count_if(events.begin(), events.end(), [](const BeginEnd& e) { return e.begin; }));
        tr.slices.reserve(tr.slices.size() + begins);
        tr.seq.reserve(tr.seq.size() + begins);
        std::vector<const BeginEnd*> open;
        for (const BeginEnd& e : events) {
            if (e.begin) {
                open.push_back(&e);
                continue;
            }
            if (open.empty()) {
                ++t.report.unmatchedEnds;
                t.report.warn(e.offset, "an \"E\" event closes nothing on its thread; ignored");
                continue;
            }
            const BeginEnd& b = *open.back();
            open.pop_back();
            Slice s;
            s.start = b.ts;
            s.dur = e.ts - b.ts;
            s.name = b.name;
            s.category = b.category;
            s.args = b.args;
            s.flags = kSliceFromBeginEnd;
            tr.slices.push_back(s);
            tr.seq.push_back(b.seq);
        }
        for (const BeginEnd* b : open) {
            ++t.report.unclosedBegins;
            t.report.warn(b->offset,
                          "a \"B\" event is never closed; it ends at the end of the trace");
            Slice s;
            s.start = b->ts;
            s.dur = std::max<TimeNs>(0, t.spanEnd - b->ts);
            s.name = b->name;
            s.category = b->category;
            s.args = b->args;
            s.flags = kSliceFromBeginEnd | kSliceUnclosed;
            tr.slices.push_back(s);
            tr.seq.push_back(b->seq);
        }
        events.clear();
        events.shrink_to_fit();
    }
}

void buildAsyncSlices(TraceBuilder::State& st) {
    Trace& t = st.trace;
    auto& points = st.asyncPoints;
    if (points.empty()) return;
    std::unordered_map<MatchKey, std::vector<uint32_t>, MatchKeyHash> byKey;
    for (uint32_t i = 0; i < points.size(); ++i)
        byKey[points[i].key].push_back(i);

    struct Open {
        uint32_t point;
        StringId trackName;
    };
    uint32_t groupId = 0;
    auto emit = [&](const AsyncPoint& b, StringId trackName, TimeNs end, bool unclosed) {
        const uint32_t tr = st.track({b.process, IdKey::fromNumber(0), SubTrack::Async, trackName});
        st.tracks[tr].threadName = trackName;
        Slice s;
        s.start = b.ts;
        s.dur = std::max<TimeNs>(0, end - b.ts);
        s.name = b.name;
        s.category = b.category;
        s.args = b.args;
        if (unclosed) s.flags |= kSliceUnclosed;
        st.tracks[tr].slices.push_back(s);
        st.tracks[tr].seq.push_back(b.seq);
        st.tracks[tr].group.push_back(groupId);
    };
    // Deterministic: keys in order of their first event.
    std::vector<const std::vector<uint32_t>*> groups;
    groups.reserve(byKey.size());
    for (auto& [key, idx] : byKey)
        groups.push_back(&idx);
    std::sort(groups.begin(), groups.end(),
              [](auto* a, auto* b) { return a->front() < b->front(); });

    for (const auto* group : groups) {
        ++groupId;
        std::vector<uint32_t> idx = *group;
        std::stable_sort(idx.begin(), idx.end(),
                         [&](uint32_t a, uint32_t b) { return points[a].ts < points[b].ts; });
        std::vector<Open> open;
        for (uint32_t i : idx) {
            const AsyncPoint& p = points[i];
            if (p.phase == 'b' || p.phase == 'S') {
                // Nested begins share the outermost one's track so they nest visually.
                open.push_back({i, open.empty() ? p.name : open.front().trackName});
            } else if (p.phase == 'e' || p.phase == 'F') {
                if (open.empty()) {
                    ++t.report.unmatchedEnds;
                    t.report.warn(p.offset, "an async end closes nothing with its id; ignored");
                    continue;
                }
                // Prefer the innermost open begin with the same name.
                auto it = std::find_if(open.rbegin(), open.rend(), [&](const Open& o) {
                    return points[o.point].name == p.name;
                });
                const auto pos =
                    it == open.rend() ? open.size() - 1 : static_cast<size_t>(open.rend() - it) - 1;
                emit(points[open[pos].point], open[pos].trackName, p.ts, false);
                open.erase(open.begin() + static_cast<ptrdiff_t>(pos));
            }
            // 'T' (legacy async step) is counted but not modelled.
        }
        for (const Open& o : open) {
            ++t.report.unclosedBegins;
            t.report.warn(points[o.point].offset,
                          "an async begin is never closed; it ends at the end of the trace");
            emit(points[o.point], o.trackName, t.spanEnd, true);
        }
    }
    points.clear();
    points.shrink_to_fit();
}

}  // namespace gapscope
