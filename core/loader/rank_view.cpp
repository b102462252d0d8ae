#include "loader/rank_view.h"

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>

#include "analysis/analysis_index.h"
#include "cache/index_cache.h"
#include "format/import_report.h"
#include "model/merge_traces.h"
#include "util/open_files.h"

namespace gapscope {

std::string commonFolder(const std::vector<std::string>& files) {
    namespace fs = std::filesystem;
    std::optional<fs::path> common;
    for (const std::string& f : files) {
        const fs::path dir = fs::absolute(f).lexically_normal().parent_path();
        if (!common) {
            common = dir;
            continue;
        }
        fs::path shared;
        for (auto a = common->begin(), b = dir.begin();
             a != common->end() && b != dir.end() && *a == *b; ++a, ++b)
            shared /= *a;
        common = shared;
    }
    return common && !common->empty() ? common->string() : std::string("/");
}

namespace {

// Files open beside the ranks' own while a job loads, at least: each
// loading thread's source and its copies, the index cache's entries, the
// viewer's own (past this, the soft limit is raised to the hard one).
constexpr size_t kFilesBesideRanks = 256;

// What a failed merge says (a limit of the model, or memory).
LoadFailure mergeFailure(const std::string& path, const std::exception& e) {
    if (dynamic_cast<const std::bad_alloc*>(&e))
        return LoadFailure{path, "memory", "out of memory while merging the ranks"};
    return LoadFailure{path, "ranks", e.what()};
}

// What a rank was merged as.
struct MergedAs {
    size_t order = 0;  // its place in the loading order (RankLoad::turn)
    int64_t rank = 0;
    std::string host;
    TimeNs offset = 0;
};

// The ranks merged as they load, so that only the ranks in flight are held
// beside the merged trace: in their loading order (by the ranks the file
// names or heads state), as long as that is their rank order (the usual
// case). A rank out of that order and every rank after it are held to be
// merged at the end; whether the ranks merged early got the number, host
// and alignment that all the loads settle on is checked then.
class StreamingMerge {
  public:
    // `sources`: how many turns there are; `ahead`: how many ranks may wait
    // for the merge before the workers that loaded them wait too.
    StreamingMerge(const std::string& path, uint64_t bytes, std::optional<int64_t> alignOn,
                   size_t sources, size_t ahead)
        : path_(path),
          maxWaiting_(std::max<size_t>(ahead, 1)),
          slots_(sources),
          merger_(path, bytes),
          alignOn_(alignOn) {}

    // On the loading thread of each source: queued, then merged by whichever
    // thread finds the next source in order at hand (one at a time). Never
    // throws and never loses a turn (a rank it could not keep has the ranks
    // merged again at the end), so the merge cannot stall.
    void settle(RankLoad& load, const RankFigures* figures, std::optional<Interval> span) noexcept {
        Slot slot;
        slot.arrived = true;
        try {
            if (load.result.trace) {
                slot.waiting.loaded = true;
                slot.waiting.part = {load.rank,
                                     load.host,
                                     load.file,
                                     0,
                                     std::const_pointer_cast<Trace>(std::move(load.result.trace)),
                                     load.part};
                slot.waiting.figures = figures;
                slot.waiting.span = span;
            }
        } catch (...) {  // (out of memory copying its names)
            slot.waiting = Waiting{};
            slot.waiting.lost = true;
        }
        std::unique_lock lock(mutex_);
        if (load.turn >= slots_.size()) return;
        slots_[load.turn] = std::move(slot);
        ++waiting_;
        if (!merging_) {
            merging_ = true;
            while (next_ < slots_.size() && slots_[next_].arrived) {
                Waiting next = std::move(slots_[next_].waiting);
                slots_[next_].waiting = Waiting{};  // (its trace is the merge's now)
                const size_t order = next_++;
                --waiting_;
                lock.unlock();
                take(order, std::move(next));
                lock.lock();
                advanced_.notify_all();
            }
            merging_ = false;
        }
        // A worker far ahead of the merge waits for it, so that the ranks
        // held stay a few whatever the files' speeds. The rank the merge
        // waits for is being loaded by a worker that is not waiting here
        // (ranks are taken in turn, and a worker waits only once its rank
        // is in), so the merge always comes.
        advanced_.wait(lock, [&] { return waiting_ < maxWaiting_; });
    }

    // After every load: the merged trace, when the ranks in `final` (by
    // rank, with their settled numbers and offsets) are what was merged
    // early plus what was held; null when they are not (the ranks must be
    // merged again in their order), with `failure` set when the merge failed.
    std::shared_ptr<Trace> finish(const std::vector<MergedAs>& final,
                                  std::optional<LoadFailure>& failure) {
        if (failure_) {
            failure = failure_;
            return nullptr;
        }
        if (lost_ || merged_.size() + held_.size() != final.size()) return nullptr;
        for (size_t i = 0; i < merged_.size(); ++i) {
            const MergedAs& a = merged_[i];
            const MergedAs& b = final[i];
            if (a.order != b.order || a.rank != b.rank || a.host != b.host || a.offset != b.offset)
                return nullptr;
        }
        std::map<size_t, RankPart*> heldByOrder;
        for (auto& [order, part] : held_)
            heldByOrder[order] = &part;
        try {
            for (size_t i = merged_.size(); i < final.size(); ++i) {
                const auto it = heldByOrder.find(final[i].order);
                if (it == heldByOrder.end()) return nullptr;
                RankPart& part = *it->second;
                part.rank = final[i].rank;
                part.host = final[i].host;
                part.offset = final[i].offset;
                merger_.append(std::move(part));
            }
            return merger_.finish();
        } catch (const std::exception& e) {
            failure = mergeFailure(path_, e);
            return nullptr;
        }
    }

  private:
    struct Waiting {
        bool loaded = false;
        bool lost = false;  // loaded, but not kept: the ranks are merged again
        RankPart part;
        const RankFigures* figures = nullptr;
        std::optional<Interval> span;
    };
    struct Slot {
        bool arrived = false;
        Waiting waiting;
    };

    void take(size_t order, Waiting w) noexcept {
        try {
            takeOrThrow(order, std::move(w));
        } catch (const std::exception& e) {
            if (!failure_) failure_ = mergeFailure(path_, e);
        }
    }
    void takeOrThrow(size_t order, Waiting w) {
        lost_ = lost_ || w.lost;
        if (!w.loaded || failure_ || lost_) return;  // a failed file is ranked last, never merged
        if (!inOrder_ || (lastRank_ && w.part.rank <= *lastRank_)) {
            inOrder_ = false;
            held_.emplace_back(order, std::move(w.part));
            return;
        }
        lastRank_ = w.part.rank;
        if (w.part.trace.use_count() != 1) {
            failure_ =
                LoadFailure{w.part.file, "ranks", "its trace is shared and cannot be merged"};
            return;
        }
        if (alignOn_ && w.figures)
            w.part.offset =
                stepAlignmentShift(*w.figures, w.span, *alignOn_, reference_).value_or(0);
        merged_.push_back({order, w.part.rank, w.part.host, w.part.offset});
        merger_.append(std::move(w.part));
    }

    const std::string path_;
    const size_t maxWaiting_;
    std::mutex mutex_;
    std::condition_variable advanced_;
    std::vector<Slot> slots_;  // by loading order (made whole first: never grows)
    size_t waiting_ = 0;       // arrived and not yet taken
    size_t next_ = 0;
    bool merging_ = false;
    // Only the merging thread touches these (the mutex hands them over).
    RankMerger merger_;
    std::optional<int64_t> alignOn_;
    std::optional<TimeNs> reference_;
    bool inOrder_ = true;
    std::optional<int64_t> lastRank_;
    std::vector<MergedAs> merged_;
    std::vector<std::pair<size_t, RankPart>> held_;
    bool lost_ = false;
    std::optional<LoadFailure> failure_;
};

uint64_t bytesOf(const std::vector<RankSource>& sources) {
    std::set<std::string> files;
    uint64_t bytes = 0;
    for (const RankSource& s : sources) {
        std::error_code ec;
        if (files.insert(s.file).second) bytes += std::filesystem::file_size(s.file, ec);
    }
    return bytes;
}

// Every rank loaded, compared and merged; with `stream`, merged as they load.
// `record`: what the job's cache entry is to keep of the ranks as loaded.
RankView loadView(const std::vector<RankSource>& sources, const std::string& path,
                  const RankViewOptions& options, bool stream, bool& mergeAgain,
                  std::string* record, const FileStamp& stamp) {
    mergeAgain = false;
    RankView view;
    std::mutex mutex;
    std::map<std::string, RankFigures> figures;
    RankLoadOptions lo = options.load;
    std::map<std::string, std::optional<Interval>> spans;
    std::optional<StreamingMerge> streaming;
    if (stream) {
        const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
        const size_t workers = options.load.workers ? options.load.workers : cores;
        streaming.emplace(path, bytesOf(sources), options.alignOnStep, sources.size(),
                          options.ranksAhead ? options.ranksAhead : 2 * workers + 2);
    }
    lo.afterLoad = [&](RankLoad& load) {
        RankFigureOptions fo = options.figures;
        const Trace& t = *load.result.trace;
        const AnalysisIndex index(t);
        if (!fo.stepRegex) fo.index = &index;
        RankFigures f = rankFigures(t, fo);
        const std::lock_guard lock(mutex);
        figures[load.name()] = std::move(f);
        if (t.hasSpan) spans[load.name()] = Interval{t.spanStart, t.spanEnd};
    };
    if (streaming) {
        lo.settled = [&](RankLoad& load) {
            const RankFigures* f = nullptr;
            std::optional<Interval> span;
            if (load.result.trace) {
                const std::lock_guard lock(mutex);
                const std::string name = load.name();
                // (A map's entries stay where they are.)
                if (const auto it = figures.find(name); it != figures.end()) f = &it->second;
                if (const auto it = spans.find(name); it != spans.end()) span = it->second;
            }
            streaming->settle(load, f, span);
        };
    }
    RankSetLoad loaded = loadRanks(sources, lo);
    view.warnings = loaded.warnings;
    if (loaded.cancelled) {
        view.cancelled = true;
        return view;
    }
    std::map<std::string, size_t> orders;
    for (RankLoad& r : loaded.ranks) {
        view.origins[r.name()] = r.origin;
        orders[r.name()] = r.turn;
        if (r.result.failure) {
            view.failed.push_back({r.rank, *r.result.failure, r.part});
            continue;
        }
        view.ranks.push_back(
            {r.rank, r.file, r.host, std::move(figures[r.name()]), 0, spans[r.name()], r.part});
    }
    if (view.ranks.empty()) {
        view.failure = view.failed.empty() ? LoadFailure{path, "folder", "no trace files"}
                                           : LoadFailure{path, "ranks",
                                                         "no rank could be read; the first: " +
                                                             view.failed.front().failure.message()};
        return view;
    }
    // (Before the comparison moves their times and fills their waits.)
    if (record) *record = encodeJobRecord({view.ranks, view.origins, view.warnings});
    view.comparison = compareRanks(view.ranks, options.alignOnStep);
    std::shared_ptr<Trace> merged;
    if (streaming) {
        std::vector<MergedAs> final;
        for (const RankEntry& e : view.ranks)
            final.push_back({orders[e.source()], e.rank, e.host, e.offset});
        merged = streaming->finish(final, view.failure);
        if (!merged) {
            mergeAgain = !view.failure;
            return view;
        }
    } else {
        std::map<std::string, TimeNs> offsets;
        for (const RankEntry& e : view.ranks)
            offsets[rankSourceName(e.file, e.part)] = e.offset;
        std::vector<RankPart> parts;
        for (RankLoad& r : loaded.ranks) {
            if (!r.result.trace) continue;
            // The load's own trace (parsed, or restored from the cache): this
            // is its only owner, so it may be taken apart.
            if (r.result.trace.use_count() != 1) {
                view.failure =
                    LoadFailure{r.file, "ranks", "its trace is shared and cannot be merged"};
                return view;
            }
            parts.push_back({r.rank, r.host, r.file, offsets[r.name()],
                             std::const_pointer_cast<Trace>(std::move(r.result.trace)), r.part});
        }
        try {
            merged = mergeRankTraces(std::move(parts), path);
        } catch (const std::exception& e) {
            view.failure = mergeFailure(path, e);
            return view;
        }
    }
    noteComparison(*merged, view.comparison);
    merged->fileStamp = stamp;  // (as a reopen from the job's entry has it)
    view.trace = std::move(merged);
    view.mergedAsLoaded = stream;
    return view;
}

}  // namespace

void noteComparison(Trace& merged, const RankComparison& comparison) {
    merged.alignedOnStep = comparison.alignedOn;
    // What the comparison found of the ranks' clocks is the merged trace's
    // import news (Trace Health's rank_clocks).
    merged.report.rankClockDisagreements = comparison.clockDisagreements.size();
    for (const ClockDisagreement& d : comparison.clockDisagreements)
        merged.report.warn(0, std::string(kRankClocksPrefix) + d.sentence());
}

namespace {

// The job restored from its entry: the merged trace, and the ranks compared
// again from their figures as loaded. None on a miss (`note` says why).
std::optional<RankView> restoreJob(const IndexCache& cache, const JobCacheEntry& entry,
                                   const std::vector<RankSource>& sources, const std::string& path,
                                   const RankViewOptions& options, std::string& note) {
    std::vector<std::string> files;
    for (const RankSource& s : sources)
        files.push_back(s.file);
    IndexCache::Lookup hit = cache.loadMerged(path, entry.key, entry.stamp, files);
    if (!hit.trace) {
        note = std::string(cacheOutcomeName(hit.outcome)) + " (" + hit.detail + ")";
        return std::nullopt;
    }
    RankView view;
    try {
        JobRecord record = decodeJobRecord(hit.attachment);
        view.ranks = std::move(record.ranks);
        view.origins = std::move(record.origins);
        view.warnings = std::move(record.warnings);
        view.comparison = compareRanks(view.ranks, options.alignOnStep);
    } catch (const std::exception& e) {
        note = std::string("corrupt (") + e.what() + ")";
        return std::nullopt;
    }
    // The ranks as compared must be those the trace merged.
    const std::vector<TraceRank>& merged = hit.trace->ranks;
    bool same = merged.size() == view.ranks.size();
    for (size_t i = 0; same && i < merged.size(); ++i) {
        const RankEntry& e = view.ranks[i];
        const TraceRank& m = merged[i];
        same = e.rank == m.rank && e.file == m.file && e.host == m.host && e.part == m.part &&
               e.offset == m.offset;
    }
    if (!same) {
        note = "corrupt (its ranks are not its trace's)";
        return std::nullopt;
    }
    view.trace = std::move(hit.trace);
    view.cacheNote = "hit";
    return view;
}

}  // namespace

std::string storeJob(const IndexCache& cache, const Trace& merged, const JobCacheEntry& entry) {
    return cache.storeMerged(merged, entry.key, entry.stamp, entry.record);
}

RankView loadRankView(const std::vector<RankSource>& sources, const std::string& path,
                      const RankViewOptions& options) {
    // Each rank's file stays open (its args are read back from it): room
    // for all of them, beside what the loading threads and the cache open.
    makeRoomForOpenFiles(sources.size() + kFilesBesideRanks);
    const IndexCache* cache = options.load.load.cache;
    std::optional<JobCacheEntry> entry = jobCacheEntry(sources, options);
    std::string note;
    if (cache && entry)
        if (std::optional<RankView> restored =
                restoreJob(*cache, *entry, sources, path, options, note))
            return std::move(*restored);
    std::string* record = entry ? &entry->record : nullptr;
    const FileStamp stamp = entry ? entry->stamp : FileStamp{};
    bool mergeAgain = false;
    RankView view = loadView(sources, path, options, /*stream=*/true, mergeAgain, record, stamp);
    // The ranks' order was not their sources' (rare): loaded again (from the
    // index cache, as a rule) and merged once all are at hand.
    if (mergeAgain)
        view = loadView(sources, path, options, /*stream=*/false, mergeAgain, record, stamp);
    if (!cache) return view;
    if (!entry) {
        view.cacheNote =
            "not used (the job's files could not be stamped, or steps are found by a regex)";
    } else if (!view.trace || !view.failed.empty()) {
        view.cacheNote = note + "; not written: " +
                         (view.trace ? "a rank failed to load" : "the job did not load");
    } else {
        view.cacheNote = note;
        if (options.storeJobInCache) {
            const std::string error = storeJob(*cache, *view.trace, *entry);
            view.cacheNote += error.empty() ? "; written" : "; not written: " + error;
        }
        view.cacheEntry = std::move(entry);
    }
    return view;
}

}  // namespace gapscope
