#pragma once
// Per-rank trace files: which files of a folder are traces, and what their
// names say of the rank and the host. Data-parallel jobs write one trace per
// rank: "worker3.pt.trace.json", "rank-3.1700000000.pt.trace.json.gz",
// one "<host>.xplane.pb" per host.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

// A trace's file name: *.json, *.json.gz, *.json.zst (also .zstd) and the
// XSpace names; not Gapscope's own sidecars (*.gapscope.json) or fleet
// summaries (*.fleet.json).
bool isTraceFileName(std::string_view fileName);

// The rank a file name states: "worker<N>", "rank<N>", "rank-<N>" or
// "rank_<N>" (any case) where the word starts the name or follows a
// character that is not a letter; nullopt when none or N is too long.
std::optional<int64_t> rankOfFileName(std::string_view fileName);

// The host a file name states: an XSpace file's host (TensorBoard names
// them so); "" otherwise. (PyTorch's tensorboard_trace_handler names files
// "<worker name>.<ms>.pt.trace.json", whose worker name is by default
// "<host>_<pid>" but often set by the user: too loose to name a host.)
std::string hostOfFileName(std::string_view fileName);

// The trace files directly in `dir` (regular files), in natural order
// ("worker2" before "worker10"); empty when there are none or `dir`
// cannot be read (`error` says which).
std::vector<std::string> traceFilesIn(const std::string& dir, std::string& error);

// Natural order of names: runs of digits compare by value.
bool naturalLess(std::string_view a, std::string_view b);

// Profiler cycles rather than ranks. PyTorch's tensorboard_trace_handler
// names each file WORKER.MS.pt.trace.json[.gz] (WORKER is "<host>_<pid>"
// unless set; MS the time it wrote it), and a schedule that repeats writes
// one per cycle. Files that all share one WORKER are the cycles of one
// profiler; files of several WORKERs, each with the same number (two or
// more) of files, are that many cycles of a job's ranks. Returns the cycles
// oldest first, each the files of that cycle (one per WORKER, in natural
// order of WORKER); otherwise (one file per WORKER: ranks; names of another
// form; WORKERs with different counts) empty.
std::vector<std::vector<std::string>> profilerCyclesOf(const std::vector<std::string>& files);

}  // namespace gapscope
