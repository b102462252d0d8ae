#include "analysis/critical_path_graph.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <tuple>

#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"
#include "util/executor.h"
#include "util/flatten.h"
#include "util/radix_sort.h"

namespace gapscope {

const char* pathEdgeKindName(PathEdgeKind kind) {
    switch (kind) {
        case PathEdgeKind::Operator:
            return "critical_path_operator";
        case PathEdgeKind::Dependency:
            return "critical_path_dependency";
        case PathEdgeKind::KernelLaunch:
            return "critical_path_kernel_launch_delay";
        case PathEdgeKind::KernelKernel:
            return "critical_path_kernel_kernel_delay";
        case PathEdgeKind::Sync:
            return "critical_path_sync_dependency";
        case PathEdgeKind::PeerWait:
            return "peer_rank_wait";  // ours: HTA follows one rank
    }
    return "?";
}

namespace {

// Traces smaller than this build the graph's two parts in turn: a task
// costs more than the GPU's part of a step.
constexpr size_t kSlicesWorthTwoParts = size_t{1} << 16;

class Builder {
  public:
    Builder(const Trace& t, const LaunchCalls& calls, const PathGraphOptions& o)
        : t_(t), calls_(calls), o_(o) {
        g_.window = o.window;
        // Room for the window's share of the trace (2 nodes and about 3
        // edges a slice): growing copies what is there each time, and a
        // whole trace's graph is hundreds of MB. (Untouched room costs no
        // memory.)
        const Interval span{t.spanStart, t.spanEnd};
        const double share =
            span.length() <= 0
                ? 1
                : std::clamp(static_cast<double>(std::min(o.window.end, span.end) -
                                                 std::max(o.window.start, span.start)) /
                                 static_cast<double>(span.length()),
                             0.0, 1.0);
        const auto expected = static_cast<size_t>(share * static_cast<double>(t.slices.size()));
        steps_ = o.steps;
        std::sort(steps_.begin(), steps_.end());
        // A graph of most of a big trace of Kineto's: the GPU's part is
        // built on a second core beside the threads' (its waits are
        // Kineto's records, which need nothing the threads' part finds),
        // each slice's nodes at twice its index (so each part names the
        // other's nodes without waiting for it; the few slices without
        // nodes leave holes, named by no edge). Below 2^30 slices, node
        // numbers stay clear of kNone with the hubs of ranks' collectives
        // after them.
        bySlice_ = o.twoCores && kinetoWaits() && steps_.empty() && share >= 0.5 &&
                   t.slices.size() >= kSlicesWorthTwoParts && t.slices.size() < (size_t{1} << 30) &&
                   mostSlicesHaveNodes();
        g_.bySlice = bySlice_;
        folding_ = bySlice_ && o.queues;
        if (bySlice_) {
            g_.slices = t.slices.data();
            g_.sliceCount = static_cast<uint32_t>(t.slices.size());
            g_.made.assign(t.slices.size(), 0);
        } else {
            g_.startOf.assign(t.slices.size(), kNone);
            g_.stored.reserve(2 * expected + 64);
        }
        g_.edges.reserve(3 * expected + 64);
        if (folding_) g_.folds.reserve(expected + 64);
        if (t.ranks.size() > 1)
            for (const uint32_t step : steps_)
                stepOfGroup_.emplace(groupOf(step), step);
    }

    PathGraph run() {
        if (bySlice_) {
            HugeVector<PathEdge> gpuEdges;
            gpuOut_ = &gpuEdges;
            threadOrder();
            auto gpuPart = sharedExecutor(Priority::Analyses).submit([this] {
                chainsAhead();
                gpu();
            });
            threads();
            joinThreads();
            if (folding_) g_.foldedEdges = static_cast<uint32_t>(g_.edges.size());
            gpuPart.get();
            // (A call the GPU's part named that the queues do not say has
            // work: its node may be inside a fold. Walked one by one.)
            if (foldBroken_) {
                HugeVector<PathFold>().swap(g_.folds);
                g_.foldedEdges = 0;
            }
            gpuOut_ = &g_.edges;
            // (Cancelled, the GPU's edges may name calls the threads' part
            // never reached: a graph no one reads.)
            if (cancelled() || gpuCancelled_) {
                g_.cancelled = true;
                return std::move(g_);
            }
            // The GPU's edges after the threads' (the order is networkx's
            // tie rule).
            g_.edges.insert(g_.edges.end(), gpuEdges.begin(), gpuEdges.end());
        } else {
            threadOrder();
            threads();
            if (cancelled()) return std::move(g_);
            joinThreads();
            for (const uint32_t step : o_.steps)
                if (const uint32_t start = g_.startNode(step); start != kNone)
                    g_.endNodes.push_back(start + 1);
            gpu();
        }
        g_.cancelled = g_.cancelled || gpuCancelled_;
        if (!cancelled() && t_.ranks.size() > 1) peers();
        return std::move(g_);
    }

  private:
    bool cancelled() {
        if (o_.cancel && o_.cancel->isCancelled()) g_.cancelled = true;
        return g_.cancelled;
    }
    // The GPU's part's own (it may run beside the threads' part).
    bool gpuCancelled() {
        if (o_.cancel && o_.cancel->isCancelled()) gpuCancelled_ = true;
        return gpuCancelled_;
    }

    const Slice& slice(uint32_t i) const { return t_.slices[i]; }
    std::string_view name(uint32_t i) const { return t_.str(t_.slices[i].name); }

    uint32_t addNodes(uint32_t s) {
        if (bySlice_) {
            g_.made[s] = 1;
            return 2 * s;
        }
        const uint32_t index = g_.addNode({s, false, false, slice(s).start});
        g_.addNode({s, true, false, slice(s).end()});
        g_.startOf[s] = index;
        return index;
    }
    // A node's time (bySlice, its slice's start or end, without a look at
    // whether the slice has nodes: it does where an edge names it).
    TimeNs atOf(uint32_t v) const {
        if (bySlice_ && v < 2 * g_.sliceCount)
            return (v & 1) ? slice(v / 2).end() : slice(v / 2).start;
        return g_.node(v).at;
    }
    // Whether most slices (every 256th looked at) would have nodes: in a
    // trace of Python frames (with_stack) most of a graph bySlice would be
    // holes, each taking room in every table by node.
    bool mostSlicesHaveNodes() const {
        size_t seen = 0, with = 0;
        for (uint32_t i = 0; i < t_.slices.size(); i += 256) {
            ++seen;
            with += (slice(i).flags & kSliceGpuActivity) || hasCpuNodes(i);
        }
        return with * 4 >= seen * 3;
    }
    // The start node of a slice given its nodes.
    uint32_t nodeOf(uint32_t s) const { return bySlice_ ? 2 * s : g_.startOf[s]; }
    // A CPU slice's start node, as the GPU's part asks for it: beside the
    // threads' part (which writes those nodes), from the slice itself.
    uint32_t cpuNode(uint32_t s) const {
        if (!bySlice_) return g_.startNode(s);
        return t_.tracks[t_.trackOfSlice(s)].kind == TrackKind::CpuThread && hasCpuNodes(s) ? 2 * s
                                                                                            : kNone;
    }

    void addEdgeTo(HugeVector<PathEdge>& out, uint32_t from, uint32_t to, PathEdgeKind kind,
                   bool zeroWeight, uint32_t attributed) {
        const bool free =
            zeroWeight || kind == PathEdgeKind::Dependency || kind == PathEdgeKind::Sync;
        // (A child that ends after its parent, a kernel before its launch's
        // end: an order, never negative time.)
        const TimeNs w = free ? 0 : std::max<TimeNs>(0, atOf(to) - atOf(from));
        out.push_back({from, to, w, kind, attributed});
    }
    void addEdge(uint32_t from, uint32_t to, PathEdgeKind kind, bool zeroWeight = false,
                 uint32_t attributed = kNone) {
        addEdgeTo(g_.edges, from, to, kind, zeroWeight, attributed);
    }
    // (Where the GPU's part is built beside the threads', its edges go to
    // a list of their own, placed after the threads' when both are done.)
    void addGpuEdge(uint32_t from, uint32_t to, PathEdgeKind kind, bool zeroWeight = false,
                    uint32_t attributed = kNone) {
        addEdgeTo(*gpuOut_, from, to, kind, zeroWeight, attributed);
    }

    // CPU ops and runtime calls that start in the window and last, the
    // waits for input and the step's own slice: the other annotations and
    // the Python frames carry no nodes.
    // With steps, each rank's within its own step (the hull of the ranks'
    // steps holds another step of a rank that ran ahead).
    bool hasCpuNodes(uint32_t i) const {
        const Slice& s = slice(i);
        const SliceKind k = sliceKind(s);
        if (!(k == SliceKind::CpuOp || isRuntimeKind(k) || hostRole(s) == HostRole::InputWait ||
              std::binary_search(steps_.begin(), steps_.end(), i)) ||
            s.dur <= 0 || s.start < o_.window.start || s.start > o_.window.end)
            return false;
        if (stepOfGroup_.empty()) return true;
        const auto frame = stepOfGroup_.find(groupOf(i));
        return frame == stepOfGroup_.end() ||
               (s.start >= slice(frame->second).start && s.start <= slice(frame->second).end());
    }
    uint32_t groupOf(uint32_t i) const {
        return t_.processes[t_.tracks[t_.trackOfSlice(i)].process].group;
    }

    // The track's slices with nodes by start; at one time the longer (the
    // parent) first, then the shallower. Each row is by start already:
    // its rows merged (a few cursors), not the track sorted.
    void inOrder(const Track& track, std::vector<uint32_t>& out,
                 std::vector<std::pair<uint32_t, uint32_t>>& cursors) const {
        out.clear();
        auto before = [&](uint32_t a, uint32_t b) {
            const Slice& x = slice(a);
            const Slice& y = slice(b);
            if (x.start != y.start) return x.start < y.start;
            if (x.end() != y.end()) return x.end() > y.end();
            if (x.depth != y.depth) return x.depth < y.depth;
            return a < b;
        };
        // (next, end) of each row, past the slices without nodes.
        auto advance = [&](uint32_t at, uint32_t end) {
            while (at < end && !hasCpuNodes(at))
                ++at;
            // (Each row is read in order, a few rows at once: ask for the
            // slices a few lines ahead of each.)
            if (at + 16 < end) __builtin_prefetch(&t_.slices[at + 16]);
            return at;
        };
        cursors.clear();
        for (const Row& row : track.rows)
            if (const uint32_t at = advance(row.begin, row.end); at < row.end)
                cursors.emplace_back(at, row.end);
        // A heap whose top is the first in order.
        auto later = [&](const std::pair<uint32_t, uint32_t>& a,
                         const std::pair<uint32_t, uint32_t>& b) {
            return before(b.first, a.first);
        };
        std::make_heap(cursors.begin(), cursors.end(), later);
        while (!cursors.empty()) {
            std::pop_heap(cursors.begin(), cursors.end(), later);
            auto& [at, end] = cursors.back();
            out.push_back(at);
            at = advance(at + 1, end);
            if (at < end)
                std::push_heap(cursors.begin(), cursors.end(), later);
            else
                cursors.pop_back();
        }
    }

    // The CPU threads in (pid, tid) order, as HTA walks them.
    void threadOrder() {
        for (uint32_t i = 0; i < t_.tracks.size(); ++i)
            if (t_.tracks[i].kind == TrackKind::CpuThread) order_.push_back(i);
        auto key = [&](uint32_t i) {
            const Track& tr = t_.tracks[i];
            const IdKey& pid = t_.processes[tr.process].pid;
            return std::tuple(pid.isText, pid.number, pid.text, tr.tid.isText, tr.tid.number,
                              tr.tid.text);
        };
        std::sort(order_.begin(), order_.end(),
                  [&](uint32_t a, uint32_t b) { return key(a) < key(b); });
        ahead_ = std::vector<Ahead>(order_.size());
    }

    // The second core's share of the threads' part, before the GPU's part:
    // each thread's chain order from the last thread back, until the
    // threads' part reaches one first. (A trace's work is mostly on two
    // threads, the training loop's and autograd's: the second's order is
    // ready when the first core gets there.)
    GAPSCOPE_FLATTEN void chainsAhead() {
        std::vector<std::pair<uint32_t, uint32_t>> cursors;
        for (size_t i = order_.size(); i-- > 0;) {
            Ahead& a = ahead_[i];
            uint8_t expected = Ahead::kFree;
            if (gpuCancelled() || !a.state.compare_exchange_strong(expected, Ahead::kMaking))
                return;
            try {
                inOrder(t_.tracks[order_[i]], a.slices, cursors);
            } catch (...) {  // (out of memory: the first core must not wait for it)
                a.state.store(Ahead::kFree, std::memory_order_release);
                a.state.notify_one();
                throw;
            }
            a.state.store(Ahead::kMade, std::memory_order_release);
            a.state.notify_one();
        }
    }
    // The i-th thread's chain order: made ahead, or made here.
    const std::vector<uint32_t>& chainOf(size_t i, std::vector<uint32_t>& mine) {
        Ahead& a = ahead_[i];
        for (;;) {
            uint8_t state = a.state.load(std::memory_order_acquire);
            if (state == Ahead::kMade) return a.slices;
            if (state == Ahead::kMaking) {
                a.state.wait(Ahead::kMaking, std::memory_order_acquire);
            } else if (a.state.compare_exchange_strong(state, Ahead::kTaken)) {
                inOrder(t_.tracks[order_[i]], mine, cursors_);
                return mine;
            }
        }
    }

    // Each thread's top-level ops, each a chain through its descendants'
    // nodes in time order.
    // (The parts' loops are flattened, every call in them inlined: called
    // out of line, the small steps each of millions of slices takes (an
    // edge's push, a node's time) cost a fifth of the graph. Optimised
    // builds only: util/flatten.h.)
    GAPSCOPE_FLATTEN void threads() {
        std::vector<uint32_t> ownChain, stack;
        for (size_t i = 0; i < order_.size(); ++i) {
            if (cancelled()) return;
            const uint32_t tr = order_[i];
            const std::vector<uint32_t>& mine = chainOf(i, ownChain);
            uint32_t previousTop = kNone, previous = kNone;
            stack.clear();
            const bool framed = !steps_.empty();
            auto isFrame = [&](uint32_t s) {
                return framed && std::binary_search(steps_.begin(), steps_.end(), s);
            };
            auto leave = [&]() {
                const uint32_t s = stack.back();
                stack.pop_back();
                const uint32_t end = nodeOf(s) + 1;
                // A call that blocks until the GPU is done adds nothing for
                // its tail: the GPU's chain into its end stands for it.
                // (Without Kineto's records, only once a wait is drawn: gpu().)
                const bool htaBlocks = vocabulary::blocksUntilGpuDone(name(s));
                addEdge(previous, end, PathEdgeKind::Operator, htaBlocks && kinetoWaits(), s);
                chained();
                if (!kinetoWaits() && (htaBlocks || vocabulary::synchronizesDevice(name(s)) ||
                                       vocabulary::synchronizesStream(name(s))))
                    tailOf_.emplace(s, lastEdge());
                if (isFrame(s)) stepGaps_.push_back({tr, s, lastEdge()});
                if (framed && stack.empty()) tops_[tr].push_back({nodeOf(s), end});
                previous = end;
                if (stack.empty()) {
                    previousTop = end;
                    previous = kNone;
                }
            };
            for (size_t at = 0; at < mine.size(); ++at) {
                const uint32_t s = mine[at];
                // (The chain goes through the thread's rows in turn: its
                // slices are asked for a few ahead, and what the queues say
                // of their calls.)
                if (at + 8 < mine.size()) {
                    __builtin_prefetch(&t_.slices[mine[at + 8]]);
                    if (folding_) o_.queues->prefetchWorkOfCall(mine[at + 8]);
                }
                while (!stack.empty() && slice(stack.back()).end() <= slice(s).start)
                    leave();
                const uint32_t start = addNodes(s);
                if (!kinetoWaits()) withNodes_.push_back(s);
                if (stack.empty()) {
                    if (previousTop != kNone) {
                        addEdge(previousTop, start, PathEdgeKind::Dependency);
                        chained();
                    }
                } else {
                    // From the previous node of the chain: its slice's time
                    // for a start, the enclosing op's between siblings.
                    const PathNode p = g_.node(previous);
                    const uint32_t whose = p.end ? stack.back() : p.slice;
                    addEdge(previous, start, PathEdgeKind::Operator, false, whose);
                    chained();
                    // The step's own time between its ops: where another
                    // thread worked then, the step may have waited for it.
                    if (stack.size() == 1 && isFrame(whose))
                        stepGaps_.push_back({tr, whose, lastEdge()});
                }
                previous = start;
                stack.push_back(s);
            }
            while (!stack.empty())
                leave();
            closeFold();
        }
    }

    // A chain's node that no other edge names: not the start of a call
    // that launched GPU work (its launch edges leave it), nor the end of
    // one that waited (the waits arrive there).
    bool onlyChained(uint32_t v) const {
        const uint8_t work = o_.queues->workOfCall(v / 2);
        return !(work & ((v & 1) ? LaunchQueues::kCallWaits : LaunchQueues::kCallLaunches));
    }
    // The thread's chain edge just added, into the fold being made (bySlice).
    void chained() {
        if (!folding_) return;
        const uint32_t e = lastEdge();
        const PathEdge& edge = g_.edges[e];
        // (A chain's edges follow each other; the first test only guards it.)
        if (fold_.count > 0 && (g_.edges[e - 1].to != edge.from || !onlyChained(edge.from)))
            closeFold();
        if (fold_.count == 0) fold_.first = e;
        ++fold_.count;
        fold_.weight += edge.weight;
        if (edge.weight > 0) {
            fold_.timed = fold_.count;
            fold_.timedWeight = fold_.weight;
        }
    }
    // The fold ends on its last edge of time, so that no inner node can be
    // where the path ends (one after that edge would be as far as the
    // fold's end and nearer the start); the free edges after it go one by
    // one.
    void closeFold() {
        uint32_t e = fold_.first;
        const uint32_t end = fold_.first + fold_.count;
        if (fold_.timed >= 2) {
            g_.folds.push_back({g_.edges[e].from, g_.edges[e + fold_.timed - 1].to,
                                fold_.timedWeight, e, fold_.timed});
            e += fold_.timed;
        }
        for (; e < end; ++e)
            g_.folds.push_back({g_.edges[e].from, g_.edges[e].to, g_.edges[e].weight, e, 1});
        fold_ = {};
    }

    uint32_t lastEdge() const { return static_cast<uint32_t>(g_.edges.size() - 1); }

    // A synchronize call's end after the GPU work it waited for: a
    // device's (its streams only: another GPU's, another rank's, are not
    // its), or a stream's last activity.
    // Whether it drew a wait. A wait no record says happened (`guessed`)
    // is drawn only from work that ended before the call returned (an
    // asynchronous copy's call returns at once).
    template <class WaitsFor>
    bool waitOn(vocabulary::CudaSyncRecord kind, StreamKey stream, uint32_t call,
                const std::vector<std::pair<StreamKey, uint32_t>>& lastNode,
                const WaitsFor& waitsFor, bool guessed = false) {
        const uint32_t callEnd = cpuNode(call) + 1;
        namedByGpu(call, LaunchQueues::kCallWaits);
        bool drawn = false;
        for (const auto& [on, node] : lastNode) {
            const bool waited = kind == vocabulary::CudaSyncRecord::Context
                                    ? on.first == stream.first
                                    : on == stream;
            if (guessed && atOf(node) > atOf(callEnd)) continue;
            if (waited && waitsFor(node, call)) {
                addGpuEdge(node, callEnd, PathEdgeKind::Sync);
                drawn = true;
            }
        }
        return drawn;
    }

    // Kineto writes its synchronization records (when asked): HTA reads
    // only those, and so do we for its traces; other producers' waits are
    // the calls themselves (ownWaits_).
    bool kinetoWaits() const { return t_.producer == Producer::Kineto; }

    // A step's thread that has no op while another thread of its process
    // is in ops most of that time (PyTorch's backward runs on the autograd
    // engine's thread while the training loop waits in backward()): the
    // step may have waited for that thread. No trace records the hand-over, so the graph offers
    // both: a way through the other thread's ops (from where the step's
    // thread stopped to the first of them, the other thread's time between
    // them, from the last of them to where the step's thread goes on), and
    // the step's own time less those ops' (what it may have done itself).
    void joinThreads() {
        for (const StepGap& gap : stepGaps_) {
            const uint32_t from = g_.edges[gap.edge].from, to = g_.edges[gap.edge].to;
            const TimeNs a = atOf(from), b = atOf(to);
            if (b <= a) continue;
            const uint32_t process = t_.tracks[gap.track].process;
            // The thread in ops the most of the gap (the first of equals).
            struct Busiest {
                std::vector<Top>::const_iterator first, last;
                TimeNs covered = -1;
            } busiest;
            for (const uint32_t other : t_.processes[process].tracks) {
                const auto tops = tops_.find(other);
                if (other == gap.track || tops == tops_.end()) continue;
                const std::vector<Top>& ops = tops->second;  // by start
                auto first =
                    std::lower_bound(ops.begin(), ops.end(), a,
                                     [&](const Top& o, TimeNs t) { return atOf(o.start) < t; });
                auto last = first;
                while (last != ops.end() && atOf(last->end) <= b)
                    ++last;
                if (first == last) continue;
                TimeNs covered = 0;
                for (auto op = first; op != last; ++op)
                    covered += atOf(op->end) - atOf(op->start);
                if (covered > busiest.covered) busiest = {first, last, covered};
            }
            // A thread busy for less than half of it (a worker's few
            // launches) is no thread the step waited for.
            if (busiest.covered < 0 || busiest.covered * 2 < b - a) continue;
            const auto first = busiest.first, last = busiest.last;
            addEdge(from, first->start, PathEdgeKind::Operator, false, gap.step);
            // (Between its ops the other thread's chain has a free edge
            // already: this one, later, gives it the time and the step's
            // name, on any path through that thread.)
            for (auto op = first; op + 1 != last; ++op)
                addEdge(op->end, (op + 1)->start, PathEdgeKind::Operator, false, gap.step);
            // The step's own edge gives its place (first among the edges
            // into where the step goes on) to the way back, and keeps only
            // the time the other thread was in no op: what the step's
            // thread could have done itself, so that a faster backward op
            // shortens the step.
            PathEdge own = g_.edges[gap.edge];
            own.weight = std::max<TimeNs>(0, own.weight - busiest.covered);
            g_.edges[gap.edge] = {std::prev(last)->end, to,
                                  std::max<TimeNs>(0, b - atOf(std::prev(last)->end)),
                                  PathEdgeKind::Operator, gap.step};
            g_.edges.push_back(own);
        }
    }

    StreamKey streamOf(uint32_t s) const { return streamOfActivity(t_, s); }

    // The GPU's part names a call's node: one the threads' part may have
    // folded if the queues do not say the call has such work.
    void namedByGpu(uint32_t call, uint8_t work) {
        if (folding_ && !(o_.queues->workOfCall(call) & work)) foldBroken_ = true;
    }

    // The GPU's part's rows: an activity (at its start, with its call's
    // start node) or a wait (at its end).
    struct GpuRow {
        TimeNs at;
        uint32_t slice, callStart;
    };
    // Rows in time order, equal times by slice: by the keys they keep (a
    // sort that reads the slices at each comparison waits on memory), in
    // a radix sort's passes.
    static void sortByTime(std::vector<GpuRow>& rows) {
        // (From the first: the key's bits are the span's, not a time's.)
        TimeNs first = std::numeric_limits<TimeNs>::max();
        for (const GpuRow& r : rows)
            first = std::min(first, r.at);
        radixSort(rows, [first](const GpuRow& r) {
            return static_cast<uint64_t>(r.at) - static_cast<uint64_t>(first);
        });
        for (size_t i = 0; i < rows.size();) {
            size_t j = i + 1;
            while (j < rows.size() && rows[j].at == rows[i].at)
                ++j;
            if (j - i > 1)
                std::sort(rows.begin() + static_cast<ptrdiff_t>(i),
                          rows.begin() + static_cast<ptrdiff_t>(j),
                          [](const GpuRow& x, const GpuRow& y) { return x.slice < y.slice; });
            i = j;
        }
    }

    GAPSCOPE_FLATTEN void gpu() {
        std::optional<LaunchQueues> own;
        if (!o_.queues) own.emplace(t_, calls_, o_.cancel);
        const LaunchQueues& queues = o_.queues ? *o_.queues : *own;
        if (queues.cancelled() || gpuCancelled()) {
            gpuCancelled_ = true;
            return;
        }
        // The window's activities and sync records: those of its calls; and
        // every stream's wait, wherever it lies (HTA keeps them all).
        std::vector<GpuRow> rows;
        // An activity's row keeps its call's start node, read here in the
        // order of calls rather than in the order of time.
        auto addActivity = [&](uint32_t k, uint32_t call, uint32_t callStart) {
            addNodes(k);
            namedByGpu(call, LaunchQueues::kCallLaunches);
            rows.push_back({slice(k).start, k, callStart});
        };
        auto addWait = [&](uint32_t k) { rows.push_back({slice(k).end(), k, kNone}); };
        using R = vocabulary::CudaSyncRecord;
        // A profiler that writes no synchronization records of its own
        // (Nsight Systems' export, XSpace): a device's or a stream's
        // synchronize waits for what its thread last launched onto (the
        // device its thread works on, the stream it last used). Kineto
        // writes them when asked (HTA reads only those: so do we).
        const bool ownWaits = !kinetoWaits();
        std::unordered_map<uint32_t, StreamKey> lastLaunchOf;  // by thread
        // Kineto's: each call's work in one pass by call (its order is
        // the sort's below); the others' waits need each thread's calls
        // in time order.
        if (!ownWaits)
            for (const auto& [call, k] : queues.byCall()) {
                const uint32_t callStart = cpuNode(call);
                if (callStart == kNone) continue;  // (CPU nodes only, so far)
                if (slice(k).flags & kSliceGpuActivity) {
                    addActivity(k, call, callStart);
                } else if (const SyncRecord* r = queues.syncOf(k);
                           r && r->kind != R::StreamWaitEvent) {
                    addWait(k);
                }
            }
        for (const uint32_t call : withNodes_) {  // (without Kineto's records)
            bool recorded = false;
            std::optional<StreamKey> ownCopy;  // a blocking call's own work (cudaMemcpy)
            queues.forEachOfCall(call, [&](uint32_t k) {
                if (slice(k).flags & kSliceGpuActivity) {
                    addActivity(k, call, cpuNode(call));
                    if (ownWaits) {
                        ownCopy = streamOf(k);
                        lastLaunchOf[t_.trackOfSlice(call)] = *ownCopy;
                    }
                } else if (const SyncRecord* r = queues.syncOf(k)) {
                    recorded = true;
                    if (r->kind != R::StreamWaitEvent) addWait(k);
                }
            });
            if (!ownWaits || recorded || !tailOf_.count(call)) continue;
            // A device's synchronize: the device its thread last launched
            // onto; a stream's: that stream (the reader keeps no stream of
            // a synchronization row); a blocking copy: its own copy.
            const auto launched = lastLaunchOf.find(t_.trackOfSlice(call));
            if (ownCopy) {
                ownWaits_.emplace(call, std::pair(R::Stream, *ownCopy));
            } else if (launched != lastLaunchOf.end() &&
                       (vocabulary::synchronizesDevice(name(call)) ||
                        vocabulary::synchronizesStream(name(call)))) {
                ownWaits_.emplace(
                    call,
                    std::pair(vocabulary::synchronizesDevice(name(call)) ? R::Context : R::Stream,
                              launched->second));
            } else {
                continue;  // (an event's: no record names the event's work; its time stays)
            }
            addWait(call);
        }
        for (const SyncRecord& r : queues.syncs())
            if (r.kind == R::StreamWaitEvent && calls_.first(r.slice) != kNone) addWait(r.slice);
        if (gpuOut_ != &g_.edges) gpuOut_->reserve(3 * rows.size() + 64);

        // Activities by start, a sync record by its end (a Stream Sync
        // spans the copy it waits for); equal times by slice.
        sortByTime(rows);
        // The end node of each stream's last activity, streams in the order
        // they came (a Context Sync waits on them in that order, as HTA's).
        std::vector<std::pair<StreamKey, uint32_t>> lastNode;
        auto lastOn = [&](const StreamKey& stream) {
            return std::find_if(lastNode.begin(), lastNode.end(),
                                [&](const auto& e) { return e.first == stream; });
        };
        // A wait's end after GPU work launched before the wait was called:
        // work launched after it (a clock that disagrees puts it first on
        // the GPU) is no part of what it waited for, and would make a cycle.
        auto waitsFor = [&](uint32_t activityEnd, uint32_t waitCall) {
            const uint32_t launch = calls_.first(g_.node(activityEnd).slice);
            return launch == kNone || slice(launch).start <= slice(waitCall).start;
        };
        std::map<uint32_t, uint32_t> kernelWaitsFor;  // activity -> the kernel it waits on
        for (const auto& [at, k, rowCallStart] : rows) {
            if (gpuCancelled()) return;
            if (!(slice(k).flags & kSliceGpuActivity)) {
                if (const auto mine = ownWaits_.find(k); mine != ownWaits_.end()) {
                    const auto [kind, stream] = mine->second;
                    // Its tail is the GPU's then, as a Kineto record's is.
                    if (waitOn(kind, stream, k, lastNode, waitsFor, true))
                        g_.edges[tailOf_.at(k)].weight = 0;
                    continue;
                }
                const SyncRecord& r = *queues.syncOf(k);
                const uint32_t call = calls_.first(k);
                const uint32_t callStart = cpuNode(call);
                if (r.kind == R::Event || r.kind == R::StreamWaitEvent) {
                    const uint32_t source = queues.recordedActivity(r.recordCorrelation, calls_);
                    if (source == kNone) continue;
                    if (r.kind == R::StreamWaitEvent) {
                        const uint32_t dest = queues.nextLaunched(call, streamOf(k));
                        if (dest != kNone) kernelWaitsFor[dest] = source;
                    } else if (g_.startNode(source) != kNone && callStart != kNone &&
                               waitsFor(g_.startNode(source) + 1, call)) {
                        namedByGpu(call, LaunchQueues::kCallWaits);
                        addGpuEdge(g_.startNode(source) + 1, callStart + 1, PathEdgeKind::Sync);
                    }
                    continue;
                }
                if (callStart != kNone) waitOn(r.kind, streamOf(k), call, lastNode, waitsFor);
                continue;
            }
            const uint32_t start = g_.startNode(k), end = start + 1;
            addGpuEdge(start, end, PathEdgeKind::Operator, false, k);
            // A queued launch's record holds its call, the call's start and
            // the stream: one read in launch order, where the call's slice
            // and the activity's args lie all over memory.
            const uint32_t launch = queues.launchOf(k);
            const QueuedLaunch* queued = launch != kNone ? &queues.launches()[launch] : nullptr;
            const StreamKey stream = queued ? queued->stream : streamOf(k);
            uint32_t waitEnd = kNone;
            if (const auto w = kernelWaitsFor.find(k); w != kernelWaitsFor.end()) {
                if (const uint32_t source = g_.startNode(w->second); source != kNone) {
                    waitEnd = source + 1;
                    addGpuEdge(waitEnd, start, PathEdgeKind::Sync);
                }
                kernelWaitsFor.erase(w);
            }
            const uint32_t callStart = rowCallStart;
            const TimeNs launchedAt = queued ? queued->at : slice(calls_.first(k)).start;
            const auto last = lastOn(stream);
            bool launchEdge = false;
            if (queued && queued->queuedAtLaunch == 1 && queued->queuedAtStart == 0 &&
                (last == lastNode.end() || atOf(last->second) < launchedAt) &&
                (waitEnd == kNone || atOf(waitEnd) < launchedAt)) {
                // (The launch's time, as addEdge weighs it from the nodes.)
                gpuOut_->push_back({callStart, start, std::max<TimeNs>(0, atOf(start) - launchedAt),
                                    PathEdgeKind::KernelLaunch, kNone});
                launchEdge = true;
            } else if (last != lastNode.end() &&
                       (waitEnd == kNone || atOf(waitEnd) < atOf(last->second))) {
                addGpuEdge(last->second, start, PathEdgeKind::KernelKernel, false,
                           g_.node(last->second).slice);
            }
            if (!launchEdge && o_.zeroWeightLaunchEdges)
                addGpuEdge(callStart, start, PathEdgeKind::KernelLaunch, true);
            if (last != lastNode.end())
                last->second = end;
            else
                lastNode.emplace_back(stream, end);
        }
    }

    // Ranks merged into one trace: the k-th run of a collective of one name
    // (and recorded collective) on each rank is one collective. Where it
    // started last is when the last rank entered it; a point then (the
    // hub) follows every rank's entry, and each rank's run is split there:
    // its wait for the last rank, then the transfer.
    void peers() {
        std::map<uint32_t, uint32_t> runEdge;  // a collective's own run's edge
        for (uint32_t e = 0; e < g_.edges.size(); ++e) {
            const PathEdge& edge = g_.edges[e];
            if (edge.kind == PathEdgeKind::Operator && edge.attributed != kNone &&
                sliceKind(slice(edge.attributed)) == SliceKind::CommKernel &&
                !vocabulary::isPointToPointKernelName(name(edge.attributed)) &&
                g_.node(edge.from).slice == edge.attributed && !g_.node(edge.from).end)
                runEdge.emplace(edge.attributed, e);
        }
        // (kernel name, recorded collective) -> rank -> its runs, by start
        std::map<std::pair<StringId, StringId>, std::map<uint32_t, std::vector<uint32_t>>> runs;
        for (const auto& [k, e] : runEdge) {
            const CollectiveArgs* c = t_.collectiveOf(slice(k).args);
            runs[{slice(k).name, c ? c->name : 0}][groupOf(k)].push_back(k);
        }
        for (auto& [key, byRank] : runs) {
            if (cancelled()) return;
            const size_t count = byRank.begin()->second.size();
            size_t most = 0;
            bool paired = byRank.size() > 1;
            for (auto& [rank, ks] : byRank) {
                std::sort(ks.begin(), ks.end(), [&](uint32_t a, uint32_t b) {
                    return std::pair(slice(a).start, a) < std::pair(slice(b).start, b);
                });
                most = std::max(most, ks.size());
                paired &= ks.size() == count;
                // A group smaller than the ranks that ran it: subgroups,
                // whose members no record here names.
                for (const uint32_t k : ks)
                    if (const CollectiveArgs* c = t_.collectiveOf(slice(k).args);
                        c && c->groupSize > 0 && static_cast<size_t>(c->groupSize) != byRank.size())
                        paired = false;
            }
            if (!paired) {
                if (byRank.size() > 1) g_.unmatchedCollectives += most;
                continue;
            }
            std::vector<uint32_t> runs1;
            for (size_t i = 0; i < count; ++i) {
                runs1.clear();
                uint32_t last = kNone;
                for (const auto& [rank, ks] : byRank)
                    if (last == kNone || slice(ks[i]).start > slice(last).start) last = ks[i];
                const TimeNs entered = slice(last).start;
                // (A clock that puts the entry after a rank's end: that
                // rank's run is left whole.)
                for (const auto& [rank, ks] : byRank)
                    if (entered < slice(ks[i]).end()) runs1.push_back(ks[i]);
                std::stable_partition(runs1.begin(), runs1.end(),
                                      [&](uint32_t k) { return k == last; });
                const uint32_t hub = g_.addNode({last, false, true, entered});
                // The last rank's entry first: it wins a tie at the hub.
                for (const uint32_t k : runs1)
                    addEdge(g_.startNode(k), hub, PathEdgeKind::Sync);
                for (const uint32_t k : runs1) {
                    const uint32_t in = g_.addNode({k, false, true, entered});
                    // The run's edge becomes the hub's: first among the
                    // point's edges, it wins a tie (the late rank's chain
                    // explains the wait; a rank's own wait is on the path
                    // only where its chain to it is longer).
                    PathEdge& run = g_.edges[runEdge.at(k)];
                    const uint32_t start = run.from, end = run.to;
                    run = {hub, in, 0, PathEdgeKind::Sync, kNone};
                    g_.peerWaits.emplace_back(static_cast<uint32_t>(g_.edges.size()), hub);
                    g_.edges.push_back(
                        {start, in, entered - slice(k).start, PathEdgeKind::PeerWait, k});
                    addEdge(in, end, PathEdgeKind::Operator, false, k);
                }
            }
        }
    }

    struct Top {
        uint32_t start, end;  // nodes of a thread's top-level op
    };
    std::unordered_map<uint32_t, std::vector<Top>> tops_;  // by track, by start (with steps)
    struct StepGap {
        uint32_t track, step, edge;  // the step's own edge between two of its points
    };
    std::vector<StepGap> stepGaps_;
    // Synchronize calls without a record (not Kineto's): what each waited
    // for, and the edge of each blocking call's tail (zeroed once a wait
    // stands for it).
    std::unordered_map<uint32_t, std::pair<vocabulary::CudaSyncRecord, StreamKey>> ownWaits_;
    std::unordered_map<uint32_t, uint32_t> tailOf_;
    std::vector<std::pair<uint32_t, uint32_t>> cursors_;  // inOrder's rows
    std::vector<uint32_t> order_;                         // the CPU threads, in HTA's order
    // A thread's chain order made on the second core (chainsAhead), or
    // taken by the first.
    struct Ahead {
        static constexpr uint8_t kFree = 0, kMaking = 1, kMade = 2, kTaken = 3;
        std::atomic<uint8_t> state{kFree};
        std::vector<uint32_t> slices;
    };
    std::vector<Ahead> ahead_;                            // by order_
    std::vector<uint32_t> steps_;                         // o_.steps, sorted
    std::unordered_map<uint32_t, uint32_t> stepOfGroup_;  // a rank's step (ranks merged)
    const Trace& t_;
    const LaunchCalls& calls_;
    const PathGraphOptions& o_;
    PathGraph g_;
    bool bySlice_ = false;  // each slice's nodes at twice its index, the parts on two cores
    HugeVector<PathEdge>* gpuOut_ = &g_.edges;  // where the GPU's part puts its edges
    bool gpuCancelled_ = false;
    // Each thread's chain folded (PathGraph::folds): a graph bySlice built
    // with the trace's queues (which say which calls' nodes the GPU's part
    // names, before it runs).
    bool folding_ = false;
    struct Fold {
        uint32_t first = 0, count = 0;
        uint32_t timed = 0;  // its edges up to its last of time
        TimeNs weight = 0, timedWeight = 0;
    } fold_;                   // the thread's chain being folded
    bool foldBroken_ = false;  // (the GPU's part's: read once it is done)
    // The window's CPU slices with nodes, each thread's in time order
    // (without Kineto's records: their waits follow each thread's launches).
    std::vector<uint32_t> withNodes_;
};

}  // namespace

PathGraph buildPathGraph(const Trace& trace, const LaunchCalls& calls,
                         const PathGraphOptions& options) {
    return Builder(trace, calls, options).run();
}

}  // namespace gapscope
