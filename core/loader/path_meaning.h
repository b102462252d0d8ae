#pragma once
// What the paths a person opens mean, decided once for the viewer and the
// CLI: one trace (a file, or a profile run's folder read as one), the ranks
// of a job (a folder of traces, several files, a run of several hosts), a
// fleet table, a file that holds several ranks' processes, and the choices on the way (which
// profile run of a folder of runs, which profiler cycle of files written one after another), each
// with what else there was, so that the viewer can ask and the CLI can take
// the default (the newest).

#include <cstddef>
#include <string>
#include <vector>

#include "loader/rank_set.h"

namespace gapscope {

struct PathMeaning {
    enum class Kind : unsigned char { Trace, Ranks, FleetTable, Error };
    Kind kind = Kind::Error;
    // Trace: the file, or the run's folder, to load; Ranks: the folder that
    // names the job; FleetTable: the table.
    std::string path;
    std::vector<RankSource> sources;  // Ranks: one per rank
    // Ranks that are the processes of the one file `path` (loader/trace_parts.h).
    bool processesOfOneFile() const;
    // A folder of profile runs: every run (newest first) and the one taken.
    std::vector<std::string> runs;
    std::string run;
    // Files that are profiler cycles (io/rank_files.h, oldest first) and
    // the one taken (its files are `path` or `files`).
    std::vector<std::vector<std::string>> cycles;
    size_t cycle = 0;
    std::string error;  // Error: why, naming the path
};

struct PathChoices {
    std::string run;          // by name; empty: the newest
    size_t cycle = SIZE_MAX;  // by index; SIZE_MAX: the newest
};

PathMeaning meaningOfPaths(const std::vector<std::string>& paths, const PathChoices& choices = {});

}  // namespace gapscope
