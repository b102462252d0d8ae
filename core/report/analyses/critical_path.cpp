// What bounded a step or a range: the critical path through what ran
// (analysis/critical_path.h), its composition and the slices on it.

#include "analysis/critical_path.h"

#include <algorithm>
#include <map>

#include "analysis/analysis_index.h"
#include "analysis/critical_path_what_if.h"
#include "analysis/slice_queries.h"
#include "report/analyses/builtin_analyses.h"
#include "report/analysis_tables.h"

namespace gapscope {

namespace {

// The window a scope asks about: step N's own range (its ProfilerStep
// annotation; within --range where both are given), else --range, else
// the whole trace; and the step's slice where its thread is a CPU's (the
// path's frame and end).
void setPathWindow(const Trace& t, const Scope& scope, PathGraphOptions& options) {
    options.window = scope.range.value_or(kWholeTrace);
    if (!scope.step) return;
    // The step on every rank (ranks merged into one trace): their hull.
    std::optional<Interval> hull;
    for (const Step& s : scope.steps(t)) {
        if (s.number != *scope.step) continue;
        hull = hull ? Interval{std::min(hull->start, s.span.start), std::max(hull->end, s.span.end)}
                    : s.span;
        if (s.slice != kNone && t.tracks[t.trackOfSlice(s.slice)].kind == TrackKind::CpuThread)
            options.steps.push_back(s.slice);
    }
    if (!hull) return;
    Interval& w = options.window;  // with --range too: their intersection
    w = {std::max(w.start, hull->start), std::min(w.end, hull->end)};
}

// What people read for each part of the path.
const char* boundByTitle(BoundBy b) {
    switch (b) {
        case BoundBy::Cpu:
            return "CPU (ops, calls, input wait, Python)";
        case BoundBy::GpuCompute:
            return "GPU compute (kernels, copies)";
        case BoundBy::GpuCommunication:
            return "GPU communication";
        case BoundBy::LaunchOverhead:
            return "Launch overhead";
        case BoundBy::KernelGap:
            return "Gap between kernels";
        case BoundBy::None:
            break;
    }
    return "";
}

// A part's share of the path (none for a path of no length), and the
// column it goes in.
ResultCell shareOfPath(TimeNs ns, const CriticalPath& p) {
    return p.lengthNs > 0 ? ResultCell(static_cast<double>(ns) / static_cast<double>(p.lengthNs))
                          : ResultCell();
}
ResultColumn shareColumn() {
    ResultColumn share{"share", "Of the path", Unit::Share};
    share.of = "path_ns";
    return share;
}

ResultTable compositionTable(const CriticalPath& p, const std::optional<Projection>& projected) {
    ResultTable table;
    table.id = "composition";
    table.title = "Time on the path by what it was";
    ResultColumn bound{"bound_by", "Bound by", Unit::Text};
    for (size_t b = 0; b < kBoundByCount; ++b)
        if (static_cast<BoundBy>(b) != BoundBy::None)
            bound.labels.emplace_back(boundByName(static_cast<BoundBy>(b)),
                                      boundByTitle(static_cast<BoundBy>(b)));
    ResultColumn then{"projected_ns", "With the what-ifs", Unit::Duration};
    then.sparse = true;
    table.columns = {bound, {"ns", "Time", Unit::Duration}, shareColumn(), then};
    for (size_t b = 0; b < kBoundByCount; ++b) {
        if (static_cast<BoundBy>(b) == BoundBy::None) continue;
        ResultRow r;
        r.cells = {std::string(boundByName(static_cast<BoundBy>(b))), p.byBound[b],
                   shareOfPath(p.byBound[b], p),
                   projected ? ResultCell(projected->byBound[b]) : ResultCell()};
        table.rows.push_back(std::move(r));
    }
    return table;
}

// What people read for each finer kind.
const char* pathKindTitle(PathKind k) {
    switch (k) {
        case PathKind::CpuOp:
            return "CPU ops";
        case PathKind::RuntimeCall:
            return "Runtime calls (launches, copies, syncs)";
        case PathKind::InputWait:
            return "Waiting for input (and CPU work in it)";
        case PathKind::Host:
            return "The step's thread in no op (Python, other threads, untraced)";
        case PathKind::Kernel:
            return "Kernels";
        case PathKind::Memcpy:
            return "Copies";
        case PathKind::Memset:
            return "Memsets";
        case PathKind::Communication:
            return "Collectives";
        case PathKind::PeerWait:
            return "Waiting for a peer rank (in a collective)";
        case PathKind::LaunchOverhead:
            return "Launch overhead";
        case PathKind::KernelGap:
            return "Gaps between kernels";
        case PathKind::None:
            break;
    }
    return "";
}

ResultTable kindsTable(const CriticalPath& p) {
    ResultTable table;
    table.id = "kinds";
    table.title = "Time on the path by kind";
    ResultColumn kind{"kind", "Kind", Unit::Text};
    for (size_t k = 0; k < kPathKindCount; ++k)
        if (static_cast<PathKind>(k) != PathKind::None)
            kind.labels.emplace_back(pathKindName(static_cast<PathKind>(k)),
                                     pathKindTitle(static_cast<PathKind>(k)));
    table.columns = {kind, {"ns", "Time", Unit::Duration}, shareColumn()};
    for (size_t k = 0; k < kPathKindCount; ++k) {
        if (static_cast<PathKind>(k) == PathKind::None) continue;
        ResultRow r;
        r.cells = {std::string(pathKindName(static_cast<PathKind>(k))), p.byKind[k],
                   shareOfPath(p.byKind[k], p)};
        table.rows.push_back(std::move(r));
    }
    return table;
}

// Per name (and what bounded it): the path's time that is its slices' own,
// most first; `top` rows at most.
ResultTable contributorsTable(const Trace& t, const CriticalPath& p, size_t top) {
    struct Row {
        TimeNs ns = 0;
        int64_t slices = 0;
        uint32_t longest = kNone;  // its slice with the most time on the path
        TimeNs longestNs = 0;
    };
    // (A stream's gap is the earlier kernel's by HTA's attribution, but no
    // time of its run: each slice's time by what the edge was.)
    std::map<std::pair<uint32_t, BoundBy>, TimeNs> bySlice;
    for (const uint32_t e : p.edges) {
        const PathEdge& edge = p.graph.edges[e];
        if (edge.attributed != kNone && edge.weight > 0 &&
            (edge.kind == PathEdgeKind::Operator || edge.kind == PathEdgeKind::KernelKernel))
            bySlice[{edge.attributed, boundByOf(t, edge)}] += edge.weight;
    }
    std::map<std::pair<StringId, BoundBy>, Row> byName;
    for (const auto& [key, ns] : bySlice) {
        const uint32_t slice = key.first;
        Row& r = byName[{t.slices[slice].name, key.second}];
        r.ns += ns;
        ++r.slices;
        if (ns > r.longestNs) {
            r.longestNs = ns;
            r.longest = slice;
        }
    }
    std::vector<std::pair<std::pair<StringId, BoundBy>, Row>> rows(byName.begin(), byName.end());
    std::stable_sort(rows.begin(), rows.end(),
                     [](const auto& a, const auto& b) { return a.second.ns > b.second.ns; });
    if (rows.size() > top) rows.resize(top);
    ResultTable table;
    table.id = "contributors";
    table.title = "What contributes most";
    table.columns = {symbolColumn("name", "Name"),
                     {"bound_by", "Bound by", Unit::Text},
                     {"ns", "On the path", Unit::Duration},
                     shareColumn(),
                     {"slices", "Slices", Unit::Count}};
    for (const auto& [key, row] : rows) {
        ResultRow r;
        r.cells = {std::string(t.str(key.first)), std::string(boundByName(key.second)), row.ns,
                   shareOfPath(row.ns, p), row.slices};
        r.ref.kind = ResultRef::Kind::Slice;
        r.ref.slice = row.longest;
        table.rows.push_back(std::move(r));
    }
    return table;
}

// Every slice with a node on the path, in time order (what a timeline
// outlines), as a search's list; empty unless asked for.
ResultTable slicesTable(const Trace& t, const CriticalPath& p, bool wanted) {
    std::vector<uint32_t> slices = wanted ? p.slices : std::vector<uint32_t>{};
    std::stable_sort(slices.begin(), slices.end(),
                     [&](uint32_t a, uint32_t b) { return t.slices[a].start < t.slices[b].start; });
    ResultTable table = sliceTable(t, slices, slices.size());
    table.id = "path_slices";
    table.title = "Slices on the path";
    return table;
}

// What people read for each kind of edge.
const char* pathEdgeKindTitle(PathEdgeKind k) {
    switch (k) {
        case PathEdgeKind::Operator:
            return "its own time";
        case PathEdgeKind::Dependency:
            return "program order";
        case PathEdgeKind::KernelLaunch:
            return "a launch";
        case PathEdgeKind::KernelKernel:
            return "the stream's order";
        case PathEdgeKind::Sync:
            return "a wait";
        case PathEdgeKind::PeerWait:
            return "a wait for the last rank";
    }
    return "";
}

// The path itself, node by node from first to last: where it was (a
// slice's start or end), and the edge that reached it (what it was, its
// time). What a timeline draws as the path's edges; empty unless asked for.
ResultTable pathTable(const Trace& t, const CriticalPath& p, bool wanted) {
    ResultTable table;
    table.id = "path";
    table.title = "The path, node by node";
    ResultColumn point{"point", "Point", Unit::Text};
    point.labels = {{"start", "start"}, {"end", "end"}, {"last_rank_in", "the last rank in"}};
    ResultColumn via{"via", "Reached by", Unit::Text};
    for (size_t k = 0; k < kPathEdgeKindCount; ++k)
        via.labels.emplace_back(pathEdgeKindName(static_cast<PathEdgeKind>(k)),
                                pathEdgeKindTitle(static_cast<PathEdgeKind>(k)));
    via.sparse = true;
    ResultColumn ns{"ns", "Edge's time", Unit::Duration};
    ns.sparse = true;
    ResultColumn bound{"bound_by", "Bound by", Unit::Text};
    bound.sparse = true;
    table.columns = {{"at_ns", "At", Unit::Time},
                     symbolColumn("name", "Name"),
                     {"track", "Track", Unit::Text},
                     point,
                     via,
                     ns,
                     bound};
    if (!wanted) return table;
    table.rows.reserve(p.nodes.size());
    for (size_t i = 0; i < p.nodes.size(); ++i) {
        const PathNode node = p.graph.node(p.nodes[i]);
        ResultRow r;
        r.cells = {node.at,
                   std::string(t.str(t.slices[node.slice].name)),
                   trackLabel(t, t.trackOfSlice(node.slice)),
                   std::string(node.end          ? "end"
                               : node.lastRankIn ? "last_rank_in"
                                                 : "start"),
                   ResultCell(),
                   ResultCell(),
                   ResultCell()};
        if (i > 0) {
            const PathEdge& edge = p.graph.edges[p.edges[i - 1]];
            r.cells[4] = std::string(pathEdgeKindName(edge.kind));
            r.cells[5] = edge.weight;
            if (const BoundBy b = boundByOf(t, edge); b != BoundBy::None)
                r.cells[6] = std::string(boundByName(b));
        }
        r.ref.kind = ResultRef::Kind::Slice;
        r.ref.slice = node.slice;
        table.rows.push_back(std::move(r));
    }
    return table;
}

}  // namespace

Analysis criticalPathAnalysis() {
    Analysis a;
    a.id = "critical-path";
    a.title = "Critical path";
    a.what = "the longest chain of dependent work: what bounded the step";
    a.help =
        "Critical path: the longest chain through the dependency graph of what ran\n"
        "in the step (--step N: its ProfilerStep range; the path ends at the\n"
        "step's end), the range, or the whole trace: each thread's ops in order\n"
        "and their nesting, the waits for input, each launch to its GPU work, each\n"
        "stream's order, and the waits (a synchronize call for the work it waited\n"
        "on, a stream for another's event), built as Holistic Trace Analysis\n"
        "builds it. The path's time by what it was (CPU, GPU compute,\n"
        "communication, launch overhead, gaps between kernels) and by kind, the\n"
        "slices that contribute most, and every slice and node on the path.";
    a.options = {{"top", OptionSpec::Kind::Count, "the N names that contribute most", 20},
                 {"slices", OptionSpec::Kind::Flag,
                  "list every slice on the path, and the path node by node"},
                 {"what-if", OptionSpec::Kind::Texts,
                  "scale a part and find the path again (repeatable; see What-if)", std::nullopt,
                  "PART=F", [](const std::string& text) {
                      std::string error;
                      return parseWhatIf(text, error) ? std::string() : error;
                  }}};
    a.helpNotes = "What-if:\n" + whatIfGrammar();
    a.takesStepRegex = true;
    a.acrossRanks = true;  // a job's ranks: collectives wait for the last rank
    a.arguments = "TRACE|DIR";
    a.primaryTable = "composition";
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions& o) {
        PathGraphOptions options;
        setPathWindow(t, scope, options);
        options.cancel = scope.cancel;
        // The index's launch table and queues where there is one.
        std::optional<LaunchCalls> ownCalls;
        std::shared_ptr<const LaunchQueues> queues;
        if (scope.index) {
            queues = scope.index->launchQueues(scope.cancel);
            options.queues = queues.get();
        } else {
            ownCalls.emplace(t);
        }
        const CriticalPath p =
            criticalPath(t, scope.index ? scope.index->launches() : *ownCalls, options);
        std::vector<WhatIf> whatIfs;
        std::vector<std::string> whatIfTexts;  // of those that parse, in order
        for (const std::string& text : o.texts("what-if")) {
            std::string error;
            if (const auto w = parseWhatIf(text, error)) {
                whatIfs.push_back(*w);
                whatIfTexts.push_back(text);
            }
        }
        std::optional<Projection> projected;
        if (!whatIfs.empty() && !p.cancelled) projected = projectPath(t, p, whatIfs);
        AnalysisResult r;
        const bool whole = options.window.start == kWholeTrace.start;
        r.addFigure({"window_ns", "Window", Unit::Duration},
                    whole ? ResultCell() : ResultCell(options.window.length()));
        r.addFigure({"path_ns", "Critical path", Unit::Duration}, p.lengthNs);
        ResultColumn then{"projected_ns", "Critical path with the what-ifs (all else unchanged)",
                          Unit::Duration};
        then.sparse = true;
        r.addFigure(then, projected ? ResultCell(projected->lengthNs) : ResultCell());
        // What-ifs that scale nothing are said, not silently projected.
        std::string unmatched;
        if (projected)
            for (const size_t i : projected->unmatched)
                unmatched += (unmatched.empty() ? "" : ", ") + whatIfTexts[i];
        ResultColumn none{"what_ifs_unmatched", "What-ifs that match nothing in the window",
                          Unit::Text};
        none.sparse = true;
        r.addFigure(none, unmatched.empty() ? ResultCell() : ResultCell(unmatched));
        for (size_t b = 0; b < kBoundByCount; ++b) {
            if (static_cast<BoundBy>(b) == BoundBy::None) continue;
            ResultColumn c{std::string(boundByName(static_cast<BoundBy>(b))) + "_ns",
                           boundByTitle(static_cast<BoundBy>(b)), Unit::Duration};
            r.addFigure(c, p.byBound[b]);
        }
        r.addFigure({"slices_on_path", "Slices on the path", Unit::Count},
                    static_cast<int64_t>(p.slices.size()));
        // Clocks that disagree can tie the graph in a loop: its nodes are
        // left out (the path is of the rest), and said.
        ResultColumn loop{"nodes_left_out", "Nodes left out (on a loop of the graph)", Unit::Count};
        loop.sparse = true;
        r.addFigure(
            loop, p.nodesLeftOut ? ResultCell(static_cast<int64_t>(p.nodesLeftOut)) : ResultCell());
        ResultColumn unpaired{"collectives_unmatched",
                              "Collectives not paired across ranks (no peer wait drawn)",
                              Unit::Count};
        unpaired.sparse = true;
        r.addFigure(unpaired, p.graph.unmatchedCollectives
                                  ? ResultCell(static_cast<int64_t>(p.graph.unmatchedCollectives))
                                  : ResultCell());
        r.tables.push_back(compositionTable(p, projected));
        r.tables.push_back(kindsTable(p));
        r.tables.push_back(
            contributorsTable(t, p, static_cast<size_t>(o.value("top").value_or(20))));
        r.tables.push_back(slicesTable(t, p, o.flag("slices")));
        r.tables.push_back(pathTable(t, p, o.flag("slices")));
        if (p.edges.empty()) r.empty = scope.nothing("dependent CPU and GPU work");
        return r;
    };
    return a;
}

}  // namespace gapscope
