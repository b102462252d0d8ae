#include "loader/rank_view.h"

#include <filesystem>
#include <mutex>
#include <stdexcept>

#include "analysis/analysis_index.h"
#include "format/import_report.h"
#include "model/merge_traces.h"

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

RankView loadRankView(const std::vector<RankSource>& sources, const std::string& path,
                      const RankViewOptions& options) {
    RankView view;
    std::mutex mutex;
    std::map<std::string, RankFigures> figures;
    RankLoadOptions lo = options.load;
    std::map<std::string, std::optional<Interval>> spans;
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
    RankSetLoad loaded = loadRanks(sources, lo);
    view.warnings = loaded.warnings;
    if (loaded.cancelled) {
        view.cancelled = true;
        return view;
    }
    for (RankLoad& r : loaded.ranks) {
        view.origins[r.name()] = r.origin;
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
    view.comparison = compareRanks(view.ranks, options.alignOnStep);
    std::map<std::string, TimeNs> offsets;
    for (const RankEntry& e : view.ranks)
        offsets[rankSourceName(e.file, e.part)] = e.offset;
    std::vector<RankPart> parts;
    for (RankLoad& r : loaded.ranks) {
        if (!r.result.trace) continue;
        // The load's own trace (parsed, or restored from the cache): this is
        // its only owner, so it may be taken apart.
        if (r.result.trace.use_count() != 1) {
            view.failure = LoadFailure{r.file, "ranks", "its trace is shared and cannot be merged"};
            return view;
        }
        parts.push_back({r.rank, r.host, r.file, offsets[r.name()],
                         std::const_pointer_cast<Trace>(std::move(r.result.trace)), r.part});
    }
    try {
        std::shared_ptr<Trace> merged = mergeRankTraces(std::move(parts), path);
        merged->alignedOnStep = view.comparison.alignedOn;
        // What the comparison found of the ranks' clocks is the merged
        // trace's import news (Trace Health's rank_clocks).
        merged->report.rankClockDisagreements = view.comparison.clockDisagreements.size();
        for (const ClockDisagreement& d : view.comparison.clockDisagreements)
            merged->report.warn(0, std::string(kRankClocksPrefix) + d.sentence());
        view.trace = std::move(merged);
    } catch (const std::length_error& e) {
        view.failure = LoadFailure{path, "ranks", e.what()};
    } catch (const std::bad_alloc&) {
        view.failure = LoadFailure{path, "memory", "out of memory while merging the ranks"};
    }
    return view;
}

}  // namespace gapscope
