#pragma once
// Loading figures: parse, cache write, reopen, peak RSS, against `cat` and
// `zstd -dc` / `gzip -dc` of the same file in the same run.

#include <string>
#include <vector>

namespace gapscope::bench {

void printLoadTable(const std::vector<std::string>& files);

}  // namespace gapscope::bench
