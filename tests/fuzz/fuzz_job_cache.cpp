// libFuzzer target for a job's index-cache entry (loader/job_cache.h): the
// input is the entry's body (the merged trace of two ranks, one plain and
// one gzip-compressed, each rank's part of the args store, and the record
// of the ranks' figures beside it), put behind the header of the real entry
// with the body's length and checksum recomputed. The job is then opened as
// the viewer opens it: a hit must give a merged trace every query can walk
// (exercise.h) whose ranks are the record's; a miss says why and opens the
// ranks from their files.

#include <fcntl.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "cache/index_cache.h"
#include "cache_entry.h"
#include "exercise.h"
#include "io/compress.h"
#include "loader/job_cache.h"
#include "loader/rank_view.h"
#include "scratch_folder.h"

namespace {

using namespace gapscope;

std::string rankTrace(int rank) {
    const std::string r = std::to_string(rank);
    return R"({"distributedInfo":{"rank":)" + r +
           R"(,"world_size":2},"traceEvents":[)"
           R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":1,"dur":90},)"
           R"({"ph":"X","cat":"cpu_op","name":"aten::mm","pid":1,"tid":1,"ts":2,"dur":9,"args":{"r":)" +
           r +
           R"(}},{"ph":"X","cat":"cuda_runtime","name":"cudaLaunchKernel","pid":1,"tid":1,"ts":3,"dur":1,"args":{"correlation":5}},)"
           R"({"ph":"X","cat":"kernel","name":"gemm","pid":0,"tid":7,"ts":5,"dur":20,"args":{"correlation":5,"device":0}},)"
           R"({"ph":"X","cat":"kernel","name":"ncclDevKernel_AllReduce","pid":0,"tid":7,"ts":)" +
           std::to_string(30 + 10 * rank) + R"(,"dur":20,"args":{"device":0}}]})";
}

// The working folder is `dir` while this lives.
class InScratch {
  public:
    explicit InScratch(const std::string& dir) : back_(::open(".", O_RDONLY | O_DIRECTORY)) {
        if (back_ < 0 || ::chdir(dir.c_str()) != 0) std::abort();
    }
    ~InScratch() {
        if (::fchdir(back_) != 0) std::abort();
        ::close(back_);
    }
    InScratch(const InScratch&) = delete;
    InScratch& operator=(const InScratch&) = delete;

  private:
    int back_;
};

// Two ranks' files, their job's entry, and how the harness opens the job.
struct Setup {
    fuzz::ScratchFolder scratch{"job-cache"};
    std::string folder = scratch.path();
    IndexCache cache{scratch.path() + "/cache"};
    std::vector<RankSource> sources;
    RankViewOptions options;
    std::string entryFile;
    std::optional<fuzz::EntryPrefix> entry;

    Setup() {
        // Files named from the scratch folder, so that the body (which
        // names them) is the same in every run: seeds reach a hit. (In it
        // only while the harness runs: the fuzzer's own paths are relative
        // to where it was started.)
        const InScratch in(folder);
        fuzz::writeAll("rank0.json", rankTrace(0));
        fuzz::writeAll("rank1.json.gz", gzipCompress(rankTrace(1)));
        sources = wholeFiles({"rank0.json", "rank1.json.gz"});
        options.load.load.cache = &cache;
        options.load.workers = 1;
        const RankView view = loadRankView(sources, folder, options);
        if (!view.trace || view.cacheNote.find("written") == std::string::npos) std::abort();
        // A miss below opens the files (their own entries) but writes nothing.
        options.storeJobInCache = false;
        const std::optional<JobCacheEntry> job = jobCacheEntry(sources, options);
        if (!job) std::abort();
        entryFile = cache.mergedEntryPath(folder, job->key);
        const std::string bytes = fuzz::readAll(entryFile);
        entry.emplace(bytes, fuzz::realPath(folder));
        // The real body, as a seed (docs/fuzzing.md).
        if (const char* seed = std::getenv("GAPSCOPE_FUZZ_SEED_OUT"))
            fuzz::writeAll(seed, std::string_view(bytes).substr(entry->bodyStart()));
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static Setup setup;
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    fuzz::writeAll(setup.entryFile, setup.entry->before(body), body);
    const InScratch in(setup.folder);
    const RankView view = loadRankView(setup.sources, setup.folder, setup.options);
    if (!view.trace || view.cacheNote.empty()) std::abort();  // the files open either way
    if (view.cacheNote == "hit") {
        if (!view.trace->fromCache || view.ranks.size() != view.trace->ranks.size()) std::abort();
        for (const TraceRank& r : view.trace->ranks)  // no other file is ever opened
            if (r.file != "rank0.json" && r.file != "rank1.json.gz") std::abort();
        fuzz::exercise(*view.trace);
    } else if (view.trace->fromCache || view.ranks.size() != 2) {
        std::abort();
    }
    return 0;
}
