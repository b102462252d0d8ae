#pragma once
// The two names every layer shares: time is int64 nanoseconds (absolute, as
// the trace wrote it), and kNone marks "no index" in any uint32 reference.

#include <cstdint>

namespace gapscope {

using TimeNs = int64_t;

inline constexpr uint32_t kNone = UINT32_MAX;

}  // namespace gapscope
