#include "bench_load.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <vector>

#include "bench_common.h"
#include "cache/index_cache.h"
#include "loader/loader.h"

namespace gapscope::bench {

LoadFigures loadInChild(const std::string& path, CacheMode mode, const IndexCache& cache,
                        int threads) {
    const auto child = inChild<LoadFigures>([&] {
        LoadFigures f;
        LoadOptions options;
        options.mode = threads == 0   ? ReadingMode::Auto
                       : threads == 1 ? ReadingMode::OneThread
                                      : ReadingMode::Pipelined;
        if (mode == CacheMode::Read) options.cache = &cache;
        const auto t0 = Clock::now();
        const LoadResult r = loadTrace(path, options);
        f.wall = seconds(t0, Clock::now());
        if (r.trace) {
            f.ok = true;
            f.fromCache = r.trace->fromCache;
            f.events = r.trace->report.events;
            f.eventsParsedAhead = r.trace->report.eventsParsedAhead;
            f.slices = r.trace->slices.size();
            f.jsonBytes = r.trace->decompressedSize;
            f.modelBytes = r.trace->memoryBytes();
            f.parts = r.trace->memoryParts();
            if (mode == CacheMode::Write) {
                const auto t1 = Clock::now();
                f.ok = cache.store(*r.trace).empty();
                f.storeWall = seconds(t1, Clock::now());
            }
        }
        return f;
    });
    if (!child) return {};
    LoadFigures f = child->first;
    f.peakRssKb = child->second;
    return f;
}

namespace {

// A compressed file's load against its plain twin's, both medians of three
// timed in this run (the goal: within 1.2x).
void printTwins(const std::map<std::string, double>& loads,
                const std::map<std::string, double>& reopens) {
    bool header = false;
    for (const auto& [file, wall] : loads) {
        std::string plain;
        for (const char* suffix : {".zst", ".gz"}) {
            const std::string s = suffix;
            if (file.size() > s.size() && file.compare(file.size() - s.size(), s.size(), s) == 0)
                plain = file.substr(0, file.size() - s.size());
        }
        const auto twin = loads.find(plain);
        if (plain.empty() || twin == loads.end() || twin->second <= 0) continue;
        if (!header) {
            std::printf(
                "\n| compressed | its plain twin | load s | twin's load s | / twin's | reopen / "
                "twin's |\n|---|---|---|---|---|---|\n");
            header = true;
        }
        const double reopen = reopens.at(file), twinReopen = reopens.at(plain);
        std::printf("| %s | %s | %.2f | %.2f | %.2f | %.2f |\n", file.c_str(), plain.c_str(), wall,
                    twin->second, wall / twin->second, twinReopen > 0 ? reopen / twinReopen : 0.0);
    }
}

}  // namespace

void printLoadTable(const std::vector<std::string>& files) {
    // A private index cache folder, removed at the end.
    char cacheDir[] = "/tmp/gapscope-bench-XXXXXX";
    if (!mkdtemp(cacheDir)) return;
    const IndexCache cache(cacheDir);
    std::map<std::string, double> medians, reopenMedians;
    std::printf(
        "| file | file MB | JSON MB | events | cat s | decompress s | load s | load s min–max | "
        "JSON MB/s | load / "
        "cat | load / decompress | parsed ahead | peak RSS MB | RSS / JSON | model B/slice | "
        "cache write s | cache MB | reopen s (median of 3) | reopen RSS MB |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const std::string& f : files) {
        std::ifstream in(f, std::ios::binary | std::ios::ate);
        const double fileMb = static_cast<double>(in.tellg()) / 1e6;
        // Three of each, alternating, and the medians: on a shared machine
        // one run of anything can be 20-40 % off.
        std::string decompressCommand;
        if (f.size() > 4 && f.substr(f.size() - 4) == ".zst") decompressCommand = "zstd -dc ";
        if (f.size() > 3 && f.substr(f.size() - 3) == ".gz") decompressCommand = "gzip -dc ";
        std::vector<double> cats, decompressions;
        std::vector<LoadFigures> loads;
        for (int i = 0; i < 3; ++i) {
            cats.push_back(timeCommand("cat " + quote(f)));
            if (!decompressCommand.empty())
                decompressions.push_back(timeCommand(decompressCommand + quote(f)));
            loads.push_back(loadInChild(f, CacheMode::None, cache));
        }
        auto median = [](std::vector<double> v) {
            std::sort(v.begin(), v.end());
            return v.empty() ? -1.0 : v[v.size() / 2];
        };
        const double cat = median(cats);
        const double decompress = median(decompressions);
        std::sort(loads.begin(), loads.end(),
                  [](const LoadFigures& a, const LoadFigures& b) { return a.wall < b.wall; });
        const LoadFigures l = loads[1];
        const LoadFigures stored = loadInChild(f, CacheMode::Write, cache);
        // The entry has just been written: let writeback settle, then take
        // the median of three reopens.
        timeCommand("sync");
        std::vector<LoadFigures> reopens;
        for (int i = 0; i < 3; ++i)
            reopens.push_back(loadInChild(f, CacheMode::Read, cache));
        std::sort(reopens.begin(), reopens.end(),
                  [](const LoadFigures& a, const LoadFigures& b) { return a.wall < b.wall; });
        const LoadFigures reopened = reopens[1];
        if (!loads.front().ok || !l.ok || !loads.back().ok || !stored.ok || !reopened.ok ||
            !reopened.fromCache) {
            std::printf("| %s | failed to load (or to cache) |\n", f.c_str());
            continue;
        }
        std::ifstream entry(cache.entryPath(f), std::ios::binary | std::ios::ate);
        const double cacheMb = static_cast<double>(entry.tellg()) / 1e6;
        const double jsonMb = static_cast<double>(l.jsonBytes) / 1e6;
        // MB (10^6 bytes) throughout, so RSS / JSON is a ratio of bytes.
        const double rssMb = static_cast<double>(l.peakRssKb) * 1024.0 / 1e6;
        char dec[32] = "-", decRatio[32] = "-";
        if (decompress > 0) {
            std::snprintf(dec, sizeof dec, "%.2f", decompress);
            std::snprintf(decRatio, sizeof decRatio, "%.1f", l.wall / decompress);
        }
        std::printf(
            "| %s | %.1f | %.1f | %llu | %.3f | %s | %.2f | %.2f–%.2f | %.0f | %.1f | %s | %.0f %% "
            "| "
            "%.0f | %.2f | %.1f | %.2f | %.0f | %.3f | %.0f |\n",
            f.c_str(), fileMb, jsonMb, static_cast<unsigned long long>(l.events), cat, dec, l.wall,
            loads.front().wall, loads.back().wall, jsonMb / l.wall, l.wall / std::max(cat, 1e-6),
            decRatio,
            l.events
                ? 100.0 * static_cast<double>(l.eventsParsedAhead) / static_cast<double>(l.events)
                : 0.0,
            rssMb, rssMb / std::max(jsonMb, 1e-9),
            l.slices ? static_cast<double>(l.modelBytes) / static_cast<double>(l.slices) : 0.0,
            stored.storeWall, cacheMb, reopened.wall,
            static_cast<double>(reopened.peakRssKb) * 1024.0 / 1e6);
        std::fflush(stdout);
        medians[f] = l.wall;
        reopenMedians[f] = reopened.wall;
    }
    printTwins(medians, reopenMedians);
    std::error_code ec;
    std::filesystem::remove_all(cacheDir, ec);
}

}  // namespace gapscope::bench
