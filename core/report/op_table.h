#pragma once
// The op statistics as one table, the same in `gapscope-cli ops` and the
// summary: op, count, inclusive, self and GPU time, and the share of the
// step time, in the analysis's order (GPU time, then self time).

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/op_stats.h"
#include "report/table.h"

namespace gapscope {

// `top`: at most that many rows (0: all). `name` shortens names for a
// terminal (default: as they are).
Table opTable(const Trace& trace, const std::vector<OpStats>& ops, size_t top = 0,
              const std::function<std::string(std::string_view)>& name = {});

}  // namespace gapscope
