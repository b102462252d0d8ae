#include "analysis/rank_comparison.h"

#include <algorithm>
#include <map>
#include <set>

namespace gapscope {

std::string rankSourceName(const std::string& file, const std::string& part) {
    return part.empty() ? file : file + " \u00b7 " + part;
}

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
        for (RankCollective& c : s.collectives) {
            c.enter += by;
            c.end += by;
            if (c.workBefore) shift(c.workBefore->span, by);
        }
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
        for (const RankCollective& c : s.collectives) {
            take({c.enter, c.end});
            if (c.workBefore) take(c.workBefore->span);
        }
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
        const std::optional<TimeNs> by = stepAlignmentShift(e.figures, e.span, number, reference);
        if (!by) {
            out.unaligned.push_back(e.rank);
            continue;
        }
        shift(e, *by);
    }
}

}  // namespace

std::optional<TimeNs> stepAlignmentShift(const RankFigures& figures, std::optional<Interval> span,
                                         int64_t number, std::optional<TimeNs>& reference) {
    const RankStep* s = stepNumbered(figures, number);
    if (!s) return std::nullopt;
    if (!reference) reference = s->span.start;
    Interval bounds = boundsOf(figures);
    if (span) bounds = {std::min(bounds.start, span->start), std::max(bounds.end, span->end)};
    return safeShift(*reference, s->span.start, bounds);
}

namespace {

// a - b, saturated: hostile traces can put entries 2^63 ns apart.
TimeNs saturatedDifference(TimeNs a, TimeNs b) {
    TimeNs d = 0;
    if (__builtin_sub_overflow(a, b, &d)) d = a < b ? INT64_MIN : INT64_MAX;
    return d;
}

// One rank's part in a step's collective: its entry, its step, and which of
// the step's collectives.
struct Member {
    size_t entry = 0;
    RankStep* step = nullptr;
    size_t collective = 0;
};

// The ranks' collectives in one step matched by name and occurrence (the
// k-th of that name in each rank's step), and how many of each name each
// rank ran there.
struct Matches {
    std::map<std::pair<std::string, size_t>, std::vector<Member>> byKey;
    std::map<std::string, std::set<size_t>> counts;
};

Matches matchCollectives(const std::vector<std::pair<size_t, RankStep*>>& withCollectives) {
    Matches m;
    for (const auto& [entry, step] : withCollectives) {
        std::map<std::string, size_t> seen;
        for (size_t c = 0; c < step->collectives.size(); ++c)
            m.byKey[{step->collectives[c].name, seen[step->collectives[c].name]++}].push_back(
                {entry, step, c});
        for (const auto& [name, n] : seen)
            m.counts[name].insert(n);
    }
    return m;
}

// The step's collective across the ranks: of the matched collectives, the step's is
// the match with two ranks or more whose total wait (the latest entry minus
// each entry) is the largest, the earlier latest entry on a tie. DDP's first
// collective (the buffer broadcast) has all ranks in step; the gradients'
// all-reduce is where they wait for the slowest.
std::vector<Member> stepsCollective(const Matches& matches) {
    const auto& matched = matches.byKey;
    const std::vector<Member>* best = nullptr;
    TimeNs bestWait = -1, bestLast = 0;
    for (const auto& [key, members] : matched) {
        if (members.size() < 2) continue;
        TimeNs last = INT64_MIN;
        for (const Member& m : members)
            last = std::max(last, m.step->collectives[m.collective].enter);
        TimeNs wait = 0;
        for (const Member& m : members)
            if (__builtin_add_overflow(
                    wait, saturatedDifference(last, m.step->collectives[m.collective].enter),
                    &wait))
                wait = INT64_MAX;
        if (!best || wait > bestWait || (wait == bestWait && last < bestLast)) {
            best = &members;
            bestWait = wait;
            bestLast = last;
        }
    }
    return best ? *best : std::vector<Member>{};
}

// The step's widest contradiction of one clock: of every collective matched
// on two ranks or more, the rank whose part ended first and the rank that
// entered last, when that entry is after that end.
std::optional<ClockDisagreement> clockDisagreement(int64_t step, const Matches& matches,
                                                   const std::vector<RankEntry>& ranks) {
    std::optional<ClockDisagreement> widest;
    for (const auto& [key, members] : matches.byKey) {
        // Where the ranks ran a name unequally often (one lost a record),
        // the k-th of one need not be the k-th of another: no evidence.
        if (members.size() < 2 || matches.counts.at(key.first).size() > 1) continue;
        const Member* ended = &members.front();
        const Member* entered = &members.front();
        for (const Member& m : members) {
            const RankCollective& c = m.step->collectives[m.collective];
            if (c.end < ended->step->collectives[ended->collective].end) ended = &m;
            if (c.enter > entered->step->collectives[entered->collective].enter) entered = &m;
        }
        ClockDisagreement d;
        d.step = step;
        d.collective = key.first;
        d.endedRank = ranks[ended->entry].rank;
        d.endedAt = ended->step->collectives[ended->collective].end;
        d.enteredRank = ranks[entered->entry].rank;
        d.enteredAt = entered->step->collectives[entered->collective].enter;
        if (d.enteredAt > d.endedAt && (!widest || d.by() > widest->by())) widest = d;
    }
    return widest;
}

}  // namespace

TimeNs ClockDisagreement::by() const {
    return saturatedDifference(enteredAt, endedAt);
}

std::string ClockDisagreement::sentence() const {
    return "in step " + std::to_string(step) + ", " + collective + " ended on rank " +
           std::to_string(endedRank) + " (at " + std::to_string(endedAt) + " ns) " +
           std::to_string(by()) + " ns before rank " + std::to_string(enteredRank) +
           " entered it (at " + std::to_string(enteredAt) + " ns)";
}

RankComparison compareRanks(std::vector<RankEntry>& ranks, std::optional<int64_t> alignOnStep) {
    std::stable_sort(ranks.begin(), ranks.end(),
                     [](const RankEntry& a, const RankEntry& b) { return a.rank < b.rank; });
    RankComparison out;
    if (alignOnStep) align(ranks, *alignOnStep, out);
    // step number -> (entry index, its step) of the ranks with collectives in it
    std::map<int64_t, std::vector<std::pair<size_t, RankStep*>>> byStep;
    for (size_t i = 0; i < ranks.size(); ++i)
        for (RankStep& s : ranks[i].figures.steps)
            if (!s.collectives.empty()) byStep[s.number].push_back({i, &s});
    for (auto& [number, withCollectives] : byStep) {
        const Matches matches = matchCollectives(withCollectives);
        if (auto d = clockDisagreement(number, matches, ranks))
            out.clockDisagreements.push_back(std::move(*d));
        const std::vector<Member> entered = stepsCollective(matches);
        if (entered.size() < 2) continue;
        const Member* last = &entered.front();  // in rank order: the lower rank on a tie
        for (const Member& m : entered)
            if (m.step->collectives[m.collective].enter >
                last->step->collectives[last->collective].enter)
                last = &m;
        StepStraggler st;
        st.step = number;
        st.entry = last->entry;
        st.rank = ranks[last->entry].rank;
        st.name = last->step->name;
        st.enteredAt = last->step->collectives[last->collective].enter;
        st.collective = last->step->collectives[last->collective].name;
        st.instead = last->step->collectives[last->collective].workBefore;
        for (const Member& m : entered) {
            RankStep* step = m.step;
            step->pickCollective(m.collective);
            step->wait = saturatedDifference(st.enteredAt, *step->collectiveEnter);
            step->transfer =
                std::max<TimeNs>(0, saturatedDifference(*step->collectiveEnd, st.enteredAt));
            if (m.entry == st.entry) continue;
            if (__builtin_add_overflow(st.othersWait, *step->wait, &st.othersWait))
                st.othersWait = INT64_MAX;
            ++st.waitingRanks;
            if (*step->wait > st.longestWait || st.waitingRanks == 1) {
                st.longestWait = *step->wait;
                st.longestWaitRank = ranks[m.entry].rank;
            }
        }
        out.stragglers.push_back(std::move(st));
    }
    return out;
}

}  // namespace gapscope
