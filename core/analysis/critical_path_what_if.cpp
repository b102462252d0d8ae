#include "analysis/critical_path_what_if.h"

#include <charconv>
#include <cmath>
#include <map>
#include <optional>
#include <set>

#include "model/slice_kind.h"

namespace gapscope {

bool matchesWildcard(std::string_view pattern, std::string_view name) {
    // Greedy with one backtrack point: linear for the `*a*b*` patterns
    // people type.
    size_t p = 0, n = 0, star = std::string_view::npos, resume = 0;
    while (n < name.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            star = p++;
            resume = n;
        } else if (p < pattern.size() && pattern[p] == name[n]) {
            ++p;
            ++n;
        } else if (star != std::string_view::npos) {
            p = star + 1;
            n = ++resume;
        } else {
            return false;
        }
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

std::string whatIfGrammar() {
    return "  kernel:PATTERN=F  GPU work whose name matches PATTERN (* any text) takes F of\n"
           "                    its time (0.5: twice as fast)\n"
           "  op:PATTERN=F      CPU ops and runtime calls of that name: their own time\n"
           "  input=F           the training loop's wait for input (and the CPU work in it)\n"
           "  launch=F          every launch overhead (0: as if CUDA graphs)\n"
           "  comm=F            every collective kernel\n"
           "  rank:N=F          all the work of rank N (ranks of a job opened together);\n"
           "  rank:N=median     as fast as the median rank (each rank's own longest chain,\n"
           "                    as if it never waited for another)\n"
           "The path is found again on the scaled graph; everything else is assumed\n"
           "unchanged.\n";
}

std::optional<WhatIf> parseWhatIf(std::string_view text, std::string& error) {
    const size_t eq = text.rfind('=');
    if (eq == std::string_view::npos) {
        error = "\"" + std::string(text) + "\" is not PART=FACTOR (e.g. kernel:*gemm*=0.5)";
        return std::nullopt;
    }
    WhatIf w;
    const std::string_view factor = text.substr(eq + 1);
    const std::string_view part = text.substr(0, eq);
    const size_t colon = part.find(':');
    const std::string_view kind = part.substr(0, colon);
    w.median = kind == "rank" && factor == "median";
    const auto [end, ec] = std::from_chars(factor.data(), factor.data() + factor.size(), w.factor);
    if (!w.median && (ec != std::errc() || end != factor.data() + factor.size() ||
                      !std::isfinite(w.factor) || w.factor < 0 || w.factor > kMostWhatIfFactor)) {
        error = "\"" + std::string(factor) + "\" is no factor (a number from 0 to 1000" +
                (kind == "rank" ? ", or median)" : ")");
        return std::nullopt;
    }
    if (w.median) w.factor = 1;
    if (kind == "rank") {
        const std::string_view number =
            colon == std::string_view::npos ? std::string_view() : part.substr(colon + 1);
        const auto [at, bad] =
            std::from_chars(number.data(), number.data() + number.size(), w.rank);
        if (number.empty() || bad != std::errc() || at != number.data() + number.size() ||
            w.rank < 0) {
            error = "\"" + std::string(part) +
                    "\" needs a rank's number: rank:N=FACTOR or rank:N=median";
            return std::nullopt;
        }
        w.part = WhatIf::Part::Rank;
        return w;
    }
    const bool named = kind == "kernel" || kind == "op";
    if (named != (colon != std::string_view::npos)) {
        error = named ? "\"" + std::string(kind) + "\" needs a name: " + std::string(kind) +
                            ":PATTERN=FACTOR"
                      : "\"" + std::string(part) + "\" takes no name";
        return std::nullopt;
    }
    if (named) {
        w.pattern = std::string(part.substr(colon + 1));
        if (w.pattern.empty()) {
            error = "an empty name in \"" + std::string(text) + "\"";
            return std::nullopt;
        }
        w.part = kind == "kernel" ? WhatIf::Part::Kernel : WhatIf::Part::Op;
    } else if (kind == "input") {
        w.part = WhatIf::Part::Input;
    } else if (kind == "launch") {
        w.part = WhatIf::Part::Launch;
    } else if (kind == "comm") {
        w.part = WhatIf::Part::Communication;
    } else {
        error = "\"" + std::string(kind) + "\" is not kernel, op, input, launch, comm or rank";
        return std::nullopt;
    }
    return w;
}

namespace {

// The rank number of a slice's process (ranks merged into one trace); -1
// in a trace of one rank.
int64_t rankOf(const Trace& t, uint32_t slice) {
    const uint32_t group = t.processes[t.tracks[t.trackOfSlice(slice)].process].group;
    return group < t.ranks.size() && t.ranks.size() > 1 ? t.ranks[group].rank : -1;
}

// Each rank's duration as if it never waited for another: the longest
// path through its own part of the graph (its waits for a peer of no
// weight), ending where the path may; and the median of them. One pass
// over the graph in all: each rank's part is its own graph.
struct RankDurations {
    std::map<int64_t, TimeNs> byRank;
    double median = 0;
};
RankDurations rankDurations(const Trace& t, const PathGraph& g) {
    RankDurations out;
    std::vector<int64_t> nodeRank(g.nodeCount());
    std::map<int64_t, PathGraph> parts;
    std::vector<uint32_t> local(g.nodeCount(), kNone);
    for (uint32_t v = 0; v < g.nodeCount(); ++v) {
        const PathNode node = g.node(v);
        nodeRank[v] = node.slice == kNone ? -1 : rankOf(t, node.slice);
        if (nodeRank[v] < 0) continue;
        PathGraph& part = parts[nodeRank[v]];
        local[v] = part.addNode(node);
    }
    for (const PathEdge& e : g.edges) {
        const int64_t r = nodeRank[e.from];
        if (r < 0 || nodeRank[e.to] != r) continue;
        PathEdge mine = e;
        mine.from = local[e.from];
        mine.to = local[e.to];
        if (e.kind == PathEdgeKind::PeerWait) mine.weight = 0;
        parts[r].edges.push_back(mine);
    }
    for (const uint32_t end : g.endNodes)
        if (nodeRank[end] >= 0) parts[nodeRank[end]].endNodes.push_back(local[end]);
    std::vector<TimeNs> weights;
    for (const auto& [r, part] : parts) {
        weights.resize(part.edges.size());
        for (size_t i = 0; i < part.edges.size(); ++i)
            weights[i] = part.edges[i].weight;
        out.byRank[r] = longestPath(part, weights).lengthNs;
    }
    std::vector<TimeNs> d;
    for (const auto& [r, ns] : out.byRank)
        d.push_back(ns);
    std::sort(d.begin(), d.end());
    const size_t h = d.size() / 2;
    if (!d.empty())
        out.median = d.size() % 2 ? static_cast<double>(d[h])
                                  : (static_cast<double>(d[h - 1]) + static_cast<double>(d[h])) / 2;
    return out;
}

}  // namespace

Projection projectPath(const Trace& t, const CriticalPath& path,
                       const std::vector<WhatIf>& whatIfs) {
    const PathGraph& g = path.graph;
    std::vector<TimeNs> weights(g.edges.size());
    // A rank's factor: as given, or the median's duration over its own.
    std::map<int64_t, double> rankFactor;
    std::optional<RankDurations> durations;
    for (const WhatIf& w : whatIfs) {
        if (w.part != WhatIf::Part::Rank) continue;
        double f = w.factor;
        if (w.median) {
            if (!durations) durations = rankDurations(t, g);
            const auto it = durations->byRank.find(w.rank);
            f = it == durations->byRank.end() || it->second <= 0
                    ? 1
                    : std::min(1.0, durations->median / static_cast<double>(it->second));
        }
        auto [it, fresh] = rankFactor.try_emplace(w.rank, 1.0);
        it->second *= f;
    }
    std::unordered_map<uint32_t, bool> inputWait;  // by slice, decided once
    std::vector<bool> matched(whatIfs.size(), false);
    std::set<int64_t> ranksSeen;
    for (size_t i = 0; i < g.edges.size(); ++i) {
        const PathEdge& e = g.edges[i];
        double factor = 1;
        for (size_t wi = 0; wi < whatIfs.size(); ++wi) {
            const WhatIf& w = whatIfs[wi];
            bool applies = false;
            const bool own = e.kind == PathEdgeKind::Operator && e.attributed != kNone;
            const Slice* s = own ? &t.slices[e.attributed] : nullptr;
            const bool gpu = s && (s->flags & kSliceGpuActivity);
            switch (w.part) {
                case WhatIf::Part::Kernel:
                    applies = gpu && matchesWildcard(w.pattern, t.str(s->name));
                    break;
                case WhatIf::Part::Op:
                    applies = s && !gpu && matchesWildcard(w.pattern, t.str(s->name));
                    break;
                case WhatIf::Part::Input:
                    if (s && !gpu) {
                        auto [it, added] = inputWait.try_emplace(e.attributed, false);
                        if (added) it->second = insideInputWait(t, e.attributed);
                        applies = it->second;
                    }
                    break;
                case WhatIf::Part::Launch:
                    applies = e.kind == PathEdgeKind::KernelLaunch;
                    break;
                case WhatIf::Part::Communication:
                    applies = gpu && sliceKind(*s) == SliceKind::CommKernel;
                    break;
                case WhatIf::Part::Rank:
                    break;  // below, once per rank
            }
            if (applies) {
                factor *= w.factor;
                matched[wi] = true;
            }
        }
        // A rank's own work: its ops, calls, GPU runs, launch overheads and
        // stream gaps (not its wait for another rank: what it would save).
        if (!rankFactor.empty() &&
            (e.kind == PathEdgeKind::Operator || e.kind == PathEdgeKind::KernelLaunch ||
             e.kind == PathEdgeKind::KernelKernel)) {
            const int64_t rank = rankOf(t, g.node(e.from).slice);
            ranksSeen.insert(rank);
            if (const auto it = rankFactor.find(rank); it != rankFactor.end()) factor *= it->second;
        }
        const double scaled = static_cast<double>(e.weight) * factor;
        weights[i] = factor == 1      ? e.weight
                     : scaled >= 9e18 ? TimeNs{INT64_MAX / 2}
                                      : static_cast<TimeNs>(std::llround(scaled));
    }
    // (A rank's wait for the last one ends as much sooner as the last
    // entry comes sooner: longestPath's `measured`.)
    const std::vector<TimeNs>* measured = path.distance.empty() ? nullptr : &path.distance;
    const LongestPath p = longestPath(g, weights, measured);
    const std::unordered_map<uint32_t, uint32_t> hubOf(g.peerWaits.begin(), g.peerWaits.end());
    Projection out;
    for (size_t wi = 0; wi < whatIfs.size(); ++wi)
        if (whatIfs[wi].part == WhatIf::Part::Rank ? !ranksSeen.count(whatIfs[wi].rank)
                                                   : !matched[wi])
            out.unmatched.push_back(wi);
    out.lengthNs = p.lengthNs;
    for (const uint32_t e : p.edges) {
        TimeNs w = weights[e];
        if (const auto hub = hubOf.find(e); measured && hub != hubOf.end())
            w = shortenedWait(w, (*measured)[hub->second], p.distance[hub->second]);
        out.byBound[static_cast<size_t>(boundByOf(t, g.edges[e]))] += w;
    }
    return out;
}

}  // namespace gapscope
