#pragma once
// The versions of the libraries Gapscope reads traces with, for Help >
// About and `--version`: the runtime's where the library reports one (zstd,
// zlib), else the headers' this build was compiled against.

#include <string>
#include <utility>
#include <vector>

namespace gapscope {

// {"zstd", "1.5.4"}, {"zlib", ...}, {"ISA-L", ...} (when built with it),
// {"nlohmann/json", ...}.
std::vector<std::pair<std::string, std::string>> libraryVersions();

// "zstd 1.5.4, zlib 1.2.13, ISA-L 2.30.0, nlohmann/json 3.11.2".
std::string libraryVersionsLine();

}  // namespace gapscope
