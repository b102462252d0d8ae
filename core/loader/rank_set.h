#pragma once
// A distributed job's traces, one per rank, loaded side by side: `gapscope
// DIR`, `gapscope FILE...`, `gapscope-cli ranks`. Each file is opened by
// loadTrace (its own index cache entry), several at once on the machine's
// cores (in the order of the ranks their names, else the heads of their
// traces, state: a hint, io/rank_hint.h), so the peak memory is the sum of
// the single-file loads unless afterLoad or settled free them; a file that
// fails is reported and the others open.
//
// The rank of a file: its trace's distributedInfo.rank (Kineto), else the
// rank its file name states (io/rank_files.h), else its place in the list.
// A file of several ranks' processes (loader/trace_parts.h) is one source
// per process, each ranked by its place among them.
// Two files of one rank: the later one gets the next free rank, and a
// warning says so. The host: an XSpace file's name (as TensorBoard names
// hosts), else the trace's "hostname".

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "analysis/rank_comparison.h"  // rankSourceName
#include "loader/loader.h"

namespace gapscope {

// The trace files `paths` name: files as given; a folder's trace files
// (io/rank_files.h), or, in a folder of TensorBoard profile runs, the host
// files of the run `run` (the newest by default); a file named twice once.
// Empty with `error` set when there is none.
struct RankFileList {
    std::vector<std::string> files;
    std::string error;
    std::string run;  // the profile run, when a folder held runs
};
RankFileList rankFilesOf(const std::vector<std::string>& paths, const std::string& run = {});

// One rank's input: a file, or the part of a file that is one rank's process.
struct RankSource {
    std::string file;
    TracePart part;  // whole by default
    // What tables and messages call it: the file, then the part's label.
    std::string name() const;
};

std::vector<RankSource> wholeFiles(const std::vector<std::string>& files);

enum class RankOrigin : uint8_t { Trace, FileName, Order, Process };
// "trace", "file name", "order", "process" (its place among the file's processes)
const char* rankOriginName(RankOrigin o);

// What one file says of its rank and host, alone: the trace's rank, else
// its file name's, else `order`. `trace` may be null (a file that failed).
struct RankIdentity {
    int64_t rank = 0;
    RankOrigin origin = RankOrigin::Order;
    std::string host;
};
RankIdentity rankIdentity(const Trace* trace, const std::string& file, size_t order);

struct RankLoad {
    std::string file;
    std::string part;  // the part's label; "" for a whole file
    std::string name() const { return rankSourceName(file, part); }
    size_t order = 0;  // its source's place in the list given
    size_t turn = 0;   // its place in the loading order (by the ranks names state)
    int64_t rank = 0;
    RankOrigin origin = RankOrigin::Order;
    std::string host;
    LoadResult result;  // result.trace may be dropped by afterLoad
};

struct RankLoadOptions {
    // For every file; its progress gets the bytes of all files, and its
    // memory limit is shared: each of the files loading at once gets its part.
    LoadOptions load;
    unsigned workers = 0;  // files at once; 0 = the machine's cores
    // Called on the loading thread of each file that loaded, with its rank
    // identity still provisional (collisions are resolved after all loads):
    // what to keep of it (analyses; reset result.trace to free it).
    std::function<void(RankLoad&)> afterLoad;
    // Called on the loading thread of every source once it is done with
    // (after afterLoad; loaded, failed or cancelled): what the loads hand on
    // as they finish (rank_view merges them). What it throws is dropped.
    std::function<void(RankLoad&)> settled;
};

struct RankSetLoad {
    std::vector<RankLoad> ranks;        // by rank; failed files included (result.failure)
    std::vector<std::string> warnings;  // rank collisions
    bool cancelled = false;
    size_t failedCount() const;
};

RankSetLoad loadRanks(const std::vector<RankSource>& sources, const RankLoadOptions& options);
inline RankSetLoad loadRanks(const std::vector<std::string>& files,
                             const RankLoadOptions& options) {
    return loadRanks(wholeFiles(files), options);
}

}  // namespace gapscope
