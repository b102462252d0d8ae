#include "loader/rank_set.h"

#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>

#include "io/rank_files.h"
#include "io/rank_hint.h"
#include "loader/profile_folder.h"
#include "model/distributed_info.h"

namespace gapscope {

namespace {

bool isFolder(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

uint64_t sizeOf(const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

std::string fileNameOf(const std::string& path) {
    return std::filesystem::path(path).filename().string();
}

// Progress over all files: each file's bytes read, then its later phases
// counted as done; calls are serialised.
class SharedProgress {
  public:
    SharedProgress(const ProgressCallback& to, const std::vector<RankSource>& sources)
        : to_(to), done_(sources.size(), 0), sizes_(sources.size()) {
        for (size_t i = 0; i < sources.size(); ++i) {
            sizes_[i] = std::max<uint64_t>(sizeOf(sources[i].file), 1);
            total_ += sizes_[i];
        }
    }
    ProgressCallback forFile(size_t i) {
        if (!to_) return {};
        return [this, i](LoadPhase phase, uint64_t done, uint64_t total) {
            uint64_t at = sizes_[i];
            if (phase == LoadPhase::Reading && total > 0)
                at = std::min(sizes_[i], done * sizes_[i] / std::max<uint64_t>(total, 1));
            const std::lock_guard lock(mutex_);
            sum_ += at - std::min(at, done_[i]);
            done_[i] = std::max(done_[i], at);
            to_(LoadPhase::Reading, sum_, total_);
        };
    }

  private:
    const ProgressCallback& to_;
    std::mutex mutex_;
    std::vector<uint64_t> done_, sizes_;
    uint64_t sum_ = 0, total_ = 0;
};

// Ranks the files stated, then those from names, then the rest by order;
// a rank taken already goes to the next free one. Files that failed come
// last, so that they change no loaded file's rank (the fleet tool, which
// never sees them, numbers the same way).
void numberRanks(std::vector<RankLoad>& loads, std::vector<std::optional<int64_t>>& stated,
                 const std::vector<int64_t>& partOrder, std::vector<std::string>& warnings) {
    std::set<int64_t> taken;
    std::vector<bool> placed(loads.size(), false);
    auto claim = [&](size_t i, int64_t rank, RankOrigin origin) {
        loads[i].origin = origin;
        if (taken.insert(rank).second) {
            loads[i].rank = rank;
        } else {
            // The next free rank after the largest (from 0 when that is INT64_MAX).
            int64_t next = 0;
            if (*taken.rbegin() < INT64_MAX) {
                next = *taken.rbegin() + 1;
            } else {
                while (taken.count(next))
                    ++next;
            }
            taken.insert(next);
            warnings.push_back(fileNameOf(loads[i].file) +
                               (loads[i].part.empty() ? "" : " " + loads[i].part) + " says rank " +
                               std::to_string(rank) + ", which another file has: shown as rank " +
                               std::to_string(next));
            loads[i].rank = next;
        }
        placed[i] = true;
    };
    for (const bool loaded : {true, false}) {
        auto mine = [&](size_t i) { return !placed[i] && (!loads[i].result.failure || !loaded); };
        for (size_t i = 0; i < loads.size(); ++i)
            if (mine(i) && stated[i]) claim(i, *stated[i], RankOrigin::Trace);
        // The processes of one file by their place among them; a file
        // name's rank is the whole file's, so none of theirs.
        for (size_t i = 0; i < loads.size(); ++i)
            if (mine(i) && !loads[i].part.empty()) claim(i, partOrder[i], RankOrigin::Process);
        for (size_t i = 0; i < loads.size(); ++i)
            if (mine(i))
                if (const auto r = rankOfFileName(fileNameOf(loads[i].file)))
                    claim(i, *r, RankOrigin::FileName);
        for (size_t i = 0; i < loads.size(); ++i)
            if (mine(i)) claim(i, static_cast<int64_t>(i), RankOrigin::Order);
    }
}

}  // namespace

const char* rankOriginName(RankOrigin o) {
    switch (o) {
        case RankOrigin::Trace:
            return "trace";
        case RankOrigin::FileName:
            return "file name";
        case RankOrigin::Order:
            return "order";
        case RankOrigin::Process:
            return "process";
    }
    return "order";
}

RankIdentity rankIdentity(const Trace* trace, const std::string& file, size_t order) {
    RankIdentity id;
    const std::string name = fileNameOf(file);
    id.host = hostOfFileName(name);
    id.rank = static_cast<int64_t>(order);
    if (const auto r = rankOfFileName(name)) {
        id.rank = *r;
        id.origin = RankOrigin::FileName;
    }
    if (!trace) return id;
    const DistributedInfo info = distributedInfo(*trace);
    if (id.host.empty()) id.host = info.host;
    if (info.rank) {
        id.rank = *info.rank;
        id.origin = RankOrigin::Trace;
    }
    return id;
}

size_t RankSetLoad::failedCount() const {
    return static_cast<size_t>(std::count_if(ranks.begin(), ranks.end(),
                                             [](const RankLoad& r) { return r.result.failure; }));
}

RankFileList rankFilesOf(const std::vector<std::string>& paths, const std::string& run) {
    RankFileList out;
    for (const std::string& path : paths) {
        if (!isFolder(path)) {
            out.files.push_back(path);
            continue;
        }
        std::string error;
        std::vector<std::string> files = traceFilesIn(path, error);
        bool hasRuns = false;
        if (files.empty()) {
            const ProfileRuns runs = findProfileRuns(path);
            hasRuns = !runs.runs.empty();
            if (const ProfileRun* chosen = chooseRun(runs, run, error)) {
                files = chosen->files;
                out.run = chosen->name;
            }
        }
        if (files.empty()) {
            out.error = path + ": " +
                        (hasRuns ? error
                                 : "holds no trace files (*.json, *.json.gz, *.json.zst, "
                                   "*.xplane.pb) nor TensorBoard profile runs");
            out.files.clear();
            return out;
        }
        out.files.insert(out.files.end(), files.begin(), files.end());
    }
    // A file given twice (a folder and a file in it) is one rank.
    std::set<std::string> seen;
    std::vector<std::string> unique;
    for (std::string& f : out.files) {
        std::error_code ec;
        const std::string key = std::filesystem::weakly_canonical(f, ec).string();
        if (seen.insert(ec ? f : key).second) unique.push_back(std::move(f));
    }
    out.files = std::move(unique);
    if (out.files.empty()) out.error = "no trace files given";
    return out;
}

std::string RankSource::name() const {
    return rankSourceName(file, part.label);
}

std::vector<RankSource> wholeFiles(const std::vector<std::string>& files) {
    std::vector<RankSource> sources;
    for (const std::string& f : files)
        sources.push_back({f, {}});
    return sources;
}

RankSetLoad loadRanks(const std::vector<RankSource>& sources, const RankLoadOptions& options) {
    RankSetLoad out;
    const size_t n = sources.size();
    out.ranks.resize(n);
    std::vector<std::optional<int64_t>> stated(n);
    // Each part's place among the parts of its file.
    std::vector<int64_t> partOrder(n, 0);
    std::map<std::string, int64_t> partsSeen;
    for (size_t i = 0; i < n; ++i)
        if (!sources[i].part.whole()) partOrder[i] = partsSeen[sources[i].file]++;
    SharedProgress progress(options.load.progress, sources);
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned workers =
        static_cast<unsigned>(std::min<size_t>(options.workers ? options.workers : cores, n));
    const uint64_t memoryLimit =
        options.load.memoryLimitBytes ? options.load.memoryLimitBytes : defaultMemoryLimit();
    const uint64_t memoryPerLoad = std::max<uint64_t>(memoryLimit / std::max(1u, workers), 1);
    // The loading order: by the rank a file's name states, else the one the
    // head of a Kineto trace states (PyTorch names files by host and pid),
    // so that the ranks finish in about their order whatever order the
    // files came in (a shell's glob puts rank10 before rank2); the others
    // after, as given. Only a hint: the ranks are numbered once all loaded.
    std::vector<size_t> schedule(n);
    for (size_t i = 0; i < n; ++i)
        schedule[i] = i;
    {
        std::vector<std::optional<int64_t>> named(n);
        for (size_t i = 0; i < n; ++i) {
            if (!sources[i].part.whole()) continue;
            named[i] = rankOfFileName(fileNameOf(sources[i].file));
            if (!named[i]) named[i] = rankInFileHead(sources[i].file);
        }
        std::stable_sort(schedule.begin(), schedule.end(), [&](size_t a, size_t b) {
            if (named[a] && named[b]) return *named[a] < *named[b];
            return named[a].has_value() && !named[b].has_value();
        });
    }
    std::atomic<size_t> next{0};
    auto settle = [&](RankLoad& load) {
        try {
            options.settled(load);
        } catch (const std::exception&) {  // never out of a worker thread; the
        }                                  // caller finds the source missing
    };
    auto work = [&] {
        for (size_t turn = next++; turn < n; turn = next++) {
            const size_t i = schedule[turn];
            RankLoad& load = out.ranks[i];
            load.file = sources[i].file;
            load.part = sources[i].part.label;
            load.order = i;
            load.turn = turn;
            if (options.load.cancel && options.load.cancel->isCancelled()) {
                load.result.cancelled = true;
                if (options.settled) settle(load);
                continue;
            }
            LoadOptions lo = options.load;
            lo.progress = progress.forFile(i);
            // Files share the cores (each reads on one) and the memory limit.
            if (workers > 1) lo.mode = ReadingMode::OneThread;
            lo.memoryLimitBytes = memoryPerLoad;
            lo.part = sources[i].part;
            auto identify = [&](const Trace* trace) {
                const RankIdentity id = rankIdentity(trace, load.file, i);
                load.rank = id.rank;
                load.origin = id.origin;
                load.host = id.host;
                if (id.origin == RankOrigin::Trace) stated[i] = id.rank;
            };
            identify(nullptr);
            try {
                load.result = loadTrace(load.file, lo);
                if (load.result.trace) {
                    identify(load.result.trace.get());
                    if (options.afterLoad) options.afterLoad(load);
                }
            } catch (const std::exception& e) {  // never out of a worker thread
                load.result = {};
                load.result.failure = LoadFailure{load.file, "load", e.what()};
            }
            if (options.settled) settle(load);
        }
    };
    // A thread per other worker, not tasks of the shared pool: each runs
    // whole loads for as long as files are left. (As pool tasks,
    // ThreadSanitizer reported races on this frame in a test binary that had
    // forked, to run a Python reference, while the pool's threads lived; the
    // same pattern without a fork is clean (tst_executor). TSan does not
    // follow synchronization across such a fork, so the threads stay.)
    std::vector<std::thread> threads;
    for (unsigned w = 1; w < workers; ++w)
        threads.emplace_back(work);
    work();
    for (std::thread& t : threads)
        t.join();
    for (RankLoad& r : out.ranks)
        out.cancelled = out.cancelled || r.result.cancelled;
    numberRanks(out.ranks, stated, partOrder, out.warnings);
    std::stable_sort(out.ranks.begin(), out.ranks.end(),
                     [](const RankLoad& a, const RankLoad& b) { return a.rank < b.rank; });
    return out;
}

}  // namespace gapscope
