#pragma once
// The on-disk index cache: reopening an unchanged trace restores the built
// model (slices, interval indexes, strings, args references) instead of
// parsing the JSON again. One entry per trace path in the user's cache folder
// ($XDG_CACHE_HOME/gapscope, else ~/.cache/gapscope), keyed by the file's
// size, mtime and a hash of its head and tail, versioned, checksummed, written
// atomically (temporary file + rename) and pruned oldest-first past a size
// cap. A missing, stale, corrupt or other-version entry is a miss, never an
// error: the trace is parsed and the entry rewritten.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace gapscope {
struct StoredExtras;
}

namespace gapscope {

class IndexCache {
  public:
    static constexpr uint64_t kDefaultMaxBytes = uint64_t{8} << 30;
    // Bump when the model's meaning or layout changes: old entries are then
    // ignored and rebuilt. (Tests pass other values to simulate that.)
    static constexpr uint32_t kFormatVersion = 19;  // 3: memory curves marked
    // 4: the input format (JSON or XSpace) is kept
    // 5: XSpace processes named without pids; several hosts' GPUs apart
    // 6: zero-duration GPU activity kept (GpuDevice::instants)
    // 7: mangled slice names demangled
    // 8: a host's GPU named "HOST · GPU N" as the host numbers it
    // 9: slice and flow kinds decided at import
    // 10: records written field by field from the trace's schema
    // 11: an XSpace's args kept in its file; TensorFlow JSON's correlation and details read
    // 12: the trace's producer and the steps' numbers decided at import
    // 13: the first slices of flow steps without a start kept
    // 14: ops' recorded shapes and FLOPs kept (Trace::opShapes)
    // 15: signatures in Kineto's spacing; collectives' records kept (Trace::collectives)
    // 16: HLO ops' recorded bytes and result shapes kept (OpShapes::bytes)
    // 17: the memory allocator's events kept (Trace::memoryEvents)
    // 18: XSpace's allocator events among them, with the op that made each
    // 19: a job's ranks merged into one trace kept as one entry

    explicit IndexCache(std::string dir, uint64_t maxBytes = kDefaultMaxBytes,
                        uint32_t formatVersion = kFormatVersion);

    // $XDG_CACHE_HOME/gapscope or $HOME/.cache/gapscope; "" when neither is set.
    static std::string defaultDir();

    const std::string& dir() const { return dir_; }
    // Where the entry for a trace lives (named by a hash of its absolute
    // path). `part` names the part of the file that was read, when it was
    // not all of it (LoadOptions::part): each part has an entry of its own.
    std::string entryPath(const std::string& tracePath, const std::string& part = {}) const;

    enum class Outcome { Hit, Miss, Stale, Corrupt, OtherVersion };
    struct Lookup {
        std::shared_ptr<Trace> trace;  // set on a hit
        Outcome outcome = Outcome::Miss;
        std::string detail;      // why it was not used
        std::string attachment;  // of a job's entry: what its writer kept beside the trace
    };
    Lookup load(const std::string& tracePath, const std::string& part = {}) const;

    // Writes the entry for a trace loaded from a file; "" on success, else
    // what went wrong. Old entries are pruned past the size cap.
    std::string store(const Trace& trace, const std::string& part = {}) const;

    // A job's ranks merged into one trace (loader/rank_view.h), as one
    // entry: named by the merged trace's path and `key` (what was opened,
    // and how), valid while `stamp` (of all its files, taken before they
    // were read) holds, with `attachment` kept beside it. Each rank's args
    // that live in its file are read from there again on a hit.
    // `files`: the job's files, as its ranks name them (no other is opened).
    Lookup loadMerged(const std::string& path, const std::string& key, const FileStamp& stamp,
                      const std::vector<std::string>& files) const;
    std::string storeMerged(const Trace& merged, const std::string& key, const FileStamp& stamp,
                            std::string_view attachment) const;
    std::string mergedEntryPath(const std::string& path, const std::string& key) const;

  private:
    Lookup readEntry(const std::string& entry, const std::string& key,
                     const std::function<FileStamp()>& stampNow, StoredExtras& extras) const;
    std::string writeEntry(const Trace& trace, const std::string& path, const std::string& part,
                           const FileStamp& stamp, std::string_view attachment) const;
    void prune(const std::string& keep) const;
    std::string dir_;
    uint64_t maxBytes_;
    uint32_t formatVersion_;
};

const char* cacheOutcomeName(IndexCache::Outcome o);

}  // namespace gapscope
