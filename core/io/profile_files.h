#pragma once
// TensorBoard's profile plugin writes one profiling session (a "run") as a
// folder of XSpace files, one per host: <logdir>/plugins/profile/<run>/
// <host>.xplane.pb. These name and list them; the loader picks a run.

#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

// "*.xplane.pb", also gzip- or zstd-compressed ("*.xplane.pb.gz", ".zst").
bool isXSpaceFileName(std::string_view fileName);

// The host a file is of: its name without the suffix ("10.0.0.1_6009").
std::string hostOfXSpaceFile(std::string_view fileName);

// The XSpace files directly in `dir` (regular files, not links to folders),
// sorted by name; empty when there are none or `dir` cannot be read.
std::vector<std::string> xspaceFilesIn(const std::string& dir);

}  // namespace gapscope
