#pragma once
// Reading a profile run (loader/profile_folder.h): every host file into one
// builder, one host after the other, each host's planes named and numbered
// apart (XSpaceHost) so that the hosts' processes and GPUs stay apart.

#include "loader/loader.h"
#include "loader/profile_folder.h"
#include "model/trace_builder.h"

namespace gapscope {

// A host file that cannot be read at all is left out with a warning while
// another host loads; when none does, LoadError names the first file, its
// offset and what was wrong. Progress runs over the run's total bytes.
void readProfileRun(const ProfileRun& run, TraceBuilder& builder, Trace& trace,
                    const LoadOptions& options);

}  // namespace gapscope
