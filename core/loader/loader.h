#pragma once
// The one way to open a trace: read (decompress + tokenize), build, index.
// Used alike by the GUI (on a worker thread), the CLI and the benchmarks.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "format/reader_options.h"  // ProcessFilter
#include "model/trace.h"
#include "util/cancel_token.h"

namespace gapscope {

class IndexCache;

// How a load uses the cores.
enum class ReadingMode : uint8_t {
    // On a machine with two cores or more: decompress .gz/.zst on a second
    // thread (ReadAheadSource) and parse and build on this one; parse a
    // plain JSON file's events in chunks on a second thread too, this one
    // building and parsing what it reaches first (format/chunked_events.h).
    // A profile run's folder (loader/folder_reader.h) decodes its hosts on
    // other cores when there are two hosts or more; a plain XSpace file
    // its planes on a second core.
    Auto,
    // Everything on the calling thread; a run's hosts one after the other.
    OneThread,
    // Decompress and tokenize on a second thread, build on this one
    // (readPipelined); slower than Auto for plain JSON on today's machines
    // (docs/performance.md), kept for measurements. A run's hosts always
    // on other cores.
    Pipelined,
};

// `--threads auto|1|2` of the CLI and the benchmark.
std::optional<ReadingMode> readingModeNamed(std::string_view name);

// A part of a file that holds several ranks' processes (loader/trace_parts.h):
// the processes read, and how people and the index cache name it. The
// default is the whole file.
struct TracePart {
    ProcessFilter processes;
    int64_t pid = -1;   // the rank's own process
    std::string label;  // "process 4243 (python3)"
    bool whole() const { return processes.whole(); }
    // "" for the whole file, else what the processes are ("all but 12,13").
    std::string cacheKey() const;
};

struct LoadOptions {
    const CancelToken* cancel = nullptr;
    ProgressCallback progress;
    // Limits for legitimate but too-big input; the user can raise them
    // (gapscope-cli --max-event-mb / --memory-limit-mb; the viewer's Settings).
    size_t maxEventBytes = 256u << 20;  // one event or top-level value
    uint64_t memoryLimitBytes = 0;      // the model; 0 = 3/4 of physical memory
    // How to use a second core while reading (ReadingMode).
    ReadingMode mode = ReadingMode::Auto;
    // The chunks of plain JSON parsed on other cores (auto threads); 0 is
    // the default size. Tests make them tiny to put chunk starts everywhere;
    // a size asked for also puts every chunk through the chunk path (on one
    // core too), whatever the threads' timing.
    size_t chunkBytes = 0;
    // Reopen from (and, after a parse, write) this index cache; null = always parse.
    const IndexCache* cache = nullptr;
    // False: the caller stores the entry itself later (the viewer shows the
    // trace first and writes the entry after).
    bool storeInCache = true;
    // For a folder of profile runs (loader/profile_folder.h): the run to
    // open, by name; empty = the newest.
    std::string run;
    // The part of the file to read (a rank of a report of several); only
    // an Nsight Systems export has parts, any other input with one fails.
    TracePart part;
};

// 3/4 of this machine's physical memory: the default memory limit.
uint64_t defaultMemoryLimit();

struct LoadFailure {
    std::string path;
    std::string where;  // "byte 123", "open", ...
    std::string what;
    // "<path>: <where>: <what>", the form every front end shows.
    std::string message() const { return path + ": " + where + ": " + what; }
};

struct LoadResult {
    std::shared_ptr<const Trace> trace;  // null on failure or cancel
    std::optional<LoadFailure> failure;
    bool cancelled = false;
    // What the index cache did: "" without a cache, else e.g. "hit",
    // "miss (no entry); written", "stale (...); not written: <why>".
    std::string cacheNote;
    // A folder: the run opened and the names of all its runs, newest first.
    std::string run;
    std::vector<std::string> runs;
};

// `path` is a trace file, or a folder holding profile runs (a TensorBoard
// logdir, a run's folder): the run's host files load into one trace whose
// path is the run's folder.
LoadResult loadTrace(const std::string& path, const LoadOptions& options = {});

// The same from bytes in memory (fuzzing, tests): `name` stands for the path
// in messages; `chunk` caps each read of the reader.
LoadResult loadTraceFromBytes(std::string bytes, const std::string& name,
                              const LoadOptions& options = {}, size_t chunk = SIZE_MAX);

}  // namespace gapscope
