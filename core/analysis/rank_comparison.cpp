#include "analysis/rank_comparison.h"

#include <algorithm>
#include <map>

namespace gapscope {

namespace {

const RankStep* stepNumbered(const RankFigures& f, int64_t number) {
    for (const RankStep& s : f.steps)
        if (s.number == number) return &s;
    return nullptr;
}

void shift(Interval& i, TimeNs by) {
    i.start += by;
    i.end += by;
}

void shift(RankEntry& e, TimeNs by) {
    e.offset = by;
    for (RankStep& s : e.figures.steps) {
        shift(s.span, by);
        if (s.collectiveEnter) *s.collectiveEnter += by;
        if (s.collectiveEnd) *s.collectiveEnd += by;
        if (s.longestWorkBefore) shift(s.longestWorkBefore->span, by);
    }
}

// The earliest and latest time a rank's figures hold.
Interval boundsOf(const RankFigures& f) {
    Interval b{INT64_MAX, INT64_MIN};
    auto take = [&b](Interval i) {
        b.start = std::min(b.start, i.start);
        b.end = std::max(b.end, i.end);
    };
    for (const RankStep& s : f.steps) {
        take(s.span);
        if (s.collectiveEnter) take({*s.collectiveEnter, *s.collectiveEnter});
        if (s.collectiveEnd) take({*s.collectiveEnd, *s.collectiveEnd});
        if (s.longestWorkBefore) take(s.longestWorkBefore->span);
    }
    return b;
}

// A shift that keeps every time of the rank inside int64 (hostile traces
// can put times anywhere).
std::optional<TimeNs> safeShift(TimeNs reference, TimeNs start, Interval bounds) {
    TimeNs by = 0, lo = 0, hi = 0;
    if (__builtin_sub_overflow(reference, start, &by)) return std::nullopt;
    if (__builtin_add_overflow(bounds.start, by, &lo) ||
        __builtin_add_overflow(bounds.end, by, &hi))
        return std::nullopt;
    return by;
}

void align(std::vector<RankEntry>& ranks, int64_t number, RankComparison& out) {
    out.alignedOn = number;
    std::optional<TimeNs> reference;
    for (RankEntry& e : ranks) {
        const RankStep* s = stepNumbered(e.figures, number);
        if (s && !reference) reference = s->span.start;
        Interval bounds = boundsOf(e.figures);
        if (e.span)
            bounds = {std::min(bounds.start, e.span->start), std::max(bounds.end, e.span->end)};
        const std::optional<TimeNs> by =
            s ? safeShift(*reference, s->span.start, bounds) : std::nullopt;
        if (!by) {
            out.unaligned.push_back(e.rank);
            continue;
        }
        shift(e, *by);
    }
}

}  // namespace

RankComparison compareRanks(std::vector<RankEntry>& ranks, std::optional<int64_t> alignOnStep) {
    std::stable_sort(ranks.begin(), ranks.end(),
                     [](const RankEntry& a, const RankEntry& b) { return a.rank < b.rank; });
    RankComparison out;
    if (alignOnStep) align(ranks, *alignOnStep, out);
    // step number -> (entry index, its step) of the ranks that entered a collective
    std::map<int64_t, std::vector<std::pair<size_t, RankStep*>>> byStep;
    for (size_t i = 0; i < ranks.size(); ++i)
        for (RankStep& s : ranks[i].figures.steps)
            if (s.collectiveEnter) byStep[s.number].push_back({i, &s});
    for (auto& [number, entered] : byStep) {
        if (entered.size() < 2) continue;
        auto last = entered.begin();
        for (auto it = entered.begin(); it != entered.end(); ++it)
            if (*it->second->collectiveEnter > *last->second->collectiveEnter) last = it;
        StepStraggler st;
        st.step = number;
        st.entry = last->first;
        st.rank = ranks[last->first].rank;
        st.name = last->second->name;
        st.enteredAt = *last->second->collectiveEnter;
        st.instead = last->second->longestWorkBefore;
        for (auto& [index, step] : entered) {
            // Saturated: hostile traces can put entries 2^63 ns apart.
            TimeNs wait = 0;
            if (__builtin_sub_overflow(st.enteredAt, *step->collectiveEnter, &wait))
                wait = INT64_MAX;
            step->wait = wait;
            TimeNs transfer = 0;
            if (step->collectiveEnd &&
                __builtin_sub_overflow(*step->collectiveEnd, st.enteredAt, &transfer))
                transfer = *step->collectiveEnd < st.enteredAt ? 0 : INT64_MAX;
            step->transfer = std::max<TimeNs>(0, transfer);
            if (index == st.entry) continue;
            if (__builtin_add_overflow(st.othersWait, wait, &st.othersWait))
                st.othersWait = INT64_MAX;
            ++st.waitingRanks;
            if (*step->wait > st.longestWait || st.waitingRanks == 1) {
                st.longestWait = *step->wait;
                st.longestWaitRank = ranks[index].rank;
            }
        }
        out.stragglers.push_back(std::move(st));
    }
    return out;
}

}  // namespace gapscope
