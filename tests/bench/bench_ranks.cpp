#include "bench_ranks.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>

#include "bench_common.h"
#include "bench_load.h"
#include "cache/index_cache.h"
#include "loader/rank_view.h"

namespace gapscope::bench {

namespace {

struct ViewFigures {
    double wall = 0;
    long peakRssKb = 0;
    uint64_t slices = 0, modelBytes = 0;
    bool ok = false;
};

// The rank view in a child: its wall time and its own peak RSS.
ViewFigures viewInChild(const std::vector<std::string>& files, unsigned workers) {
    const auto r = inChild<ViewFigures>([&] {
        ViewFigures f;
        RankViewOptions options;
        options.load.workers = workers;
        const auto t0 = Clock::now();
        const RankView view = loadRankView(wholeFiles(files), "job", options);
        f.wall = seconds(t0, Clock::now());
        if (view.trace && view.failed.empty()) {
            f.ok = true;
            f.slices = view.trace->slices.size();
            f.modelBytes = view.trace->memoryBytes();
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

void printJobTable(const std::string& reference, const std::vector<std::string>& files) {
    char cacheDir[] = "/tmp/gapscope-bench-job-XXXXXX";
    if (!mkdtemp(cacheDir)) return;
    const IndexCache cache(cacheDir);  // unused: every load parses
    uint64_t jobBytes = 0;
    std::error_code ec;
    for (const std::string& f : files)
        jobBytes += std::filesystem::file_size(f, ec);
    const uint64_t oneBytes = std::filesystem::file_size(reference, ec);
    const LoadFigures one = loadInChild(reference, CacheMode::None, cache, 0);
    const ViewFigures job = viewInChild(files, 0);
    std::filesystem::remove_all(cacheDir, ec);
    if (!one.ok || !job.ok) {
        std::printf("%s failed to load\n", one.ok ? "the job" : reference.c_str());
        return;
    }
    const double mb = 1e6;
    // Per GB, so that a reference a little larger or smaller still compares.
    const double oneRate = one.wall / (double(oneBytes) / 1e9);
    const double jobRate = job.wall / (double(jobBytes) / 1e9);
    std::printf(
        "\n| what | files | MB | slices | load s | s per GB | / one file's | peak RSS MB | RSS / "
        "files | model MB |\n|---|---|---|---|---|---|---|---|---|---|\n");
    std::printf("| one file | 1 | %.0f | %llu | %.2f | %.2f | 1.00 | %.0f | %.2f | %.0f |\n",
                double(oneBytes) / mb, static_cast<unsigned long long>(one.slices), one.wall,
                oneRate, double(one.peakRssKb) * 1024 / mb,
                double(one.peakRssKb) * 1024 / double(oneBytes), double(one.modelBytes) / mb);
    std::printf(
        "| the job, merged, all cores | %zu | %.0f | %llu | %.2f | %.2f | %.2f | %.0f | %.2f | "
        "%.0f "
        "|\n",
        files.size(), double(jobBytes) / mb, static_cast<unsigned long long>(job.slices), job.wall,
        jobRate, jobRate / oneRate, double(job.peakRssKb) * 1024 / mb,
        double(job.peakRssKb) * 1024 / double(jobBytes), double(job.modelBytes) / mb);
}

}  // namespace gapscope::bench
