#include "bench_ranks.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bench_common.h"
#include "bench_load.h"
#include "cache/index_cache.h"
#include "io/rank_files.h"
#include "loader/rank_view.h"

namespace gapscope::bench {

namespace {

struct ViewFigures {
    double wall = 0;
    long peakRssKb = 0;
    uint64_t slices = 0, modelBytes = 0;
    bool ok = false, mergedAsLoaded = false, fromCache = false;
    Trace::MemoryParts parts;
};

// The rank view in a child: its wall time and its own peak RSS; with a
// cache, reopened from it (or parsed and stored there).
ViewFigures viewInChild(const std::vector<std::string>& files, unsigned workers,
                        const IndexCache* cache = nullptr) {
    const auto r = inChild<ViewFigures>([&] {
        ViewFigures f;
        RankViewOptions options;
        options.load.workers = workers;
        options.load.load.cache = cache;
        const auto t0 = Clock::now();
        const RankView view = loadRankView(wholeFiles(files), "job", options);
        f.wall = seconds(t0, Clock::now());
        if (view.trace && view.failed.empty()) {
            f.ok = true;
            f.slices = view.trace->slices.size();
            f.modelBytes = view.trace->memoryBytes();
            f.parts = view.trace->memoryParts();
            f.mergedAsLoaded = view.mergedAsLoaded;
            f.fromCache = view.trace->fromCache;
        } else {
            std::fprintf(stderr, "gapscope-bench: %s\n",
                         view.failure          ? view.failure->message().c_str()
                         : view.failed.empty() ? "no trace"
                                               : view.failed.front().failure.message().c_str());
        }
        return f;
    });
    if (!r) return {};
    ViewFigures f = r->first;
    f.peakRssKb = r->second;
    return f;
}

}  // namespace

void printRanksTable(const std::vector<std::string>& files) {
    char cacheDir[] = "/tmp/gapscope-bench-ranks-XXXXXX";
    if (!mkdtemp(cacheDir)) return;
    const IndexCache cache(cacheDir);  // unused: every load parses
    double wallSum = 0;
    long rssSum = 0;
    uint64_t slices = 0;
    for (const std::string& f : files) {
        const LoadFigures l = loadInChild(f, CacheMode::None, cache, 1);
        if (!l.ok) {
            std::printf("%s: failed to load\n", f.c_str());
            return;
        }
        wallSum += l.wall;
        rssSum += l.peakRssKb;
        slices += l.slices;
    }
    std::printf(
        "\n| %zu ranks, %llu slices | load s | peak RSS MB | RSS / sum of the single loads "
        "|\n|---|---|---|---|\n",
        files.size(), static_cast<unsigned long long>(slices));
    std::printf("| each file alone, one after the other (sum) | %.2f | %.0f | 1.00 |\n", wallSum,
                static_cast<double>(rssSum) / 1024.0);
    for (const unsigned workers : {1u, 0u}) {
        const ViewFigures v = viewInChild(files, workers);
        if (!v.ok || v.slices != slices) {
            std::printf("| side by side, %s | failed |\n", workers == 1 ? "1 worker" : "all cores");
            continue;
        }
        std::printf("| side by side and merged, %s | %.2f | %.0f | %.2f |\n",
                    workers == 1 ? "one file at a time" : "files on all cores", v.wall,
                    static_cast<double>(v.peakRssKb) / 1024.0,
                    static_cast<double>(v.peakRssKb) / static_cast<double>(rssSum));
    }
    std::error_code ec;
    std::filesystem::remove_all(cacheDir, ec);
}

namespace {

uint64_t bytesOf(const std::vector<std::string>& files) {
    uint64_t bytes = 0;
    std::error_code ec;
    for (const std::string& f : files)
        bytes += std::filesystem::file_size(f, ec);
    return bytes;
}

struct Timed {
    std::string what;
    size_t files = 0;
    uint64_t bytes = 0, slices = 0, modelBytes = 0;
    double wall = 0;
    long peakRssKb = 0;
    Trace::MemoryParts parts;
    std::string note;
};

void printRow(const Timed& t, double oneRate) {
    const double mb = 1e6;
    const double rate = t.wall / (double(t.bytes) / 1e9);
    std::printf("| %s | %zu | %.0f | %llu | %.2f | %.2f | %.2f | %.0f | %.2f | %.0f |%s\n",
                t.what.c_str(), t.files, double(t.bytes) / mb,
                static_cast<unsigned long long>(t.slices), t.wall, rate, rate / oneRate,
                double(t.peakRssKb) * 1024 / mb, double(t.peakRssKb) * 1024 / double(t.bytes),
                double(t.modelBytes) / mb, t.note.c_str());
}

void printParts(const std::vector<Timed>& rows) {
    std::printf(
        "\n| model MB | slices | tracks (rows, indices) | strings | args | instants, "
        "flows | counters | devices |\n|---|---|---|---|---|---|---|---|\n");
    const double mb = 1e6;
    for (const Timed& t : rows) {
        const Trace::MemoryParts& p = t.parts;
        std::printf("| %s | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f | %.1f |\n", t.what.c_str(),
                    double(p.slices) / mb, double(p.tracks) / mb, double(p.strings) / mb,
                    double(p.args) / mb, double(p.instants) / mb, double(p.counters) / mb,
                    double(p.devices) / mb);
    }
}

}  // namespace

void printJobTable(const std::string& reference, std::vector<std::string> files) {
    // By the ranks the names state, as a folder lists them.
    std::sort(files.begin(), files.end(), [](const std::string& a, const std::string& b) {
        return naturalLess(std::filesystem::path(a).filename().string(),
                           std::filesystem::path(b).filename().string());
    });
    char cacheDir[] = "/tmp/gapscope-bench-job-XXXXXX";
    if (!mkdtemp(cacheDir)) return;
    const IndexCache cache(cacheDir, uint64_t{1} << 40);
    std::error_code ec;
    const uint64_t oneBytes = std::filesystem::file_size(reference, ec);
    std::vector<Timed> rows;
    bool failed = false;
    // A reopen is short and the machine noisy: the median of three.
    auto one = [&](const std::string& what, CacheMode mode) {
        std::vector<LoadFigures> runs;
        for (int i = mode == CacheMode::Read ? 3 : 1; i > 0; --i)
            runs.push_back(loadInChild(reference, mode, cache, 0));
        std::sort(runs.begin(), runs.end(),
                  [](const LoadFigures& a, const LoadFigures& b) { return a.wall < b.wall; });
        const LoadFigures l = runs[runs.size() / 2];
        failed = failed || !l.ok;
        rows.push_back(
            {what, 1, oneBytes, l.slices, l.modelBytes, l.wall, l.peakRssKb, l.parts, ""});
    };
    auto job = [&](const std::string& what, const std::vector<std::string>& ranks,
                   const IndexCache* from) {
        std::vector<ViewFigures> runs;
        for (int i = from ? 3 : 1; i > 0; --i)
            runs.push_back(viewInChild(ranks, 0, from));
        std::sort(runs.begin(), runs.end(),
                  [](const ViewFigures& a, const ViewFigures& b) { return a.wall < b.wall; });
        const ViewFigures v = runs[runs.size() / 2];
        failed = failed || !v.ok;
        // Reopened: from the job's own entry, else from each rank's.
        const char* note = v.fromCache        ? ""
                           : from             ? " from each rank's entry |"
                           : v.mergedAsLoaded ? ""
                                              : " loaded twice |";
        rows.push_back({what, ranks.size(), bytesOf(ranks), v.slices, v.modelBytes, v.wall,
                        v.peakRssKb, v.parts, note});
    };
    one("one file", CacheMode::None);
    job("the job, merged, all cores", files, nullptr);
    if (files.size() > 256)
        job("its first 256 ranks", {files.begin(), files.begin() + 256}, nullptr);
    // Reopened from the index cache: each stored by a parse first.
    loadInChild(reference, CacheMode::Write, cache, 0);
    viewInChild(files, 0, &cache);
    timeCommand("sync");
    one("one file, reopened", CacheMode::Read);
    job("the job, reopened", files, &cache);
    std::filesystem::remove_all(cacheDir, ec);
    if (failed) {
        std::printf("a load failed (see above)\n");
        return;
    }
    const double parseRate = rows[0].wall / (double(rows[0].bytes) / 1e9);
    const double reopenRate = rows[rows.size() - 2].wall / (double(oneBytes) / 1e9);
    std::printf(
        "\n| what | files | MB | slices | load s | s per GB | / one file's | peak RSS MB | RSS / "
        "files | model MB |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Timed& t : rows)
        printRow(t, t.what.find("reopened") == std::string::npos ? parseRate : reopenRate);
    printParts(rows);
}

}  // namespace gapscope::bench
