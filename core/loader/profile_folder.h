#pragma once
// Finding the profile runs in a folder. TensorFlow's profiler, Keras'
// TensorBoard callback and jax.profiler.trace() write
// <logdir>/[train/]plugins/profile/<run>/<host>.xplane.pb; people open the
// logdir, a run's folder, or any folder holding *.xplane.pb. A folder that
// holds XSpace files is one run; otherwise each folder below it (at most
// four levels down) that holds some is a run, named by its path below the
// opened folder without "plugins/profile" ("2024_05_01_12_00_00",
// "train/2024_05_01_12_00_00").

#include <cstdint>
#include <string>
#include <vector>

namespace gapscope {

struct ProfileRun {
    std::string name;
    std::string folder;              // the run's folder
    std::vector<std::string> files;  // its host files, sorted by name
    int64_t newestMtimeNs = 0;       // of its newest host file
};

struct ProfileRuns {
    std::vector<ProfileRun> runs;  // newest first (then by name)
    std::string error;             // why there is none ("" when there are)
};

// Looks at no more than a bounded number of folder entries, so that opening
// "/" by mistake answers quickly with an error instead of walking the disk.
ProfileRuns findProfileRuns(const std::string& folder);

// The run called `name` (its whole name, or the last part of it), or the
// newest for an empty `name`; null with the known names in `error`.
const ProfileRun* chooseRun(const ProfileRuns& runs, const std::string& name, std::string& error);

}  // namespace gapscope
