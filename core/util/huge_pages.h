#pragma once
// Transparent huge pages for big arrays (see huge_vector.h for why).

#include <cstddef>

namespace gapscope {

// Advises huge pages for the 2 MiB-aligned part of [data, data + bytes).
// Best effort: where THP is off this does nothing.
void adviseHugePages(void* data, size_t bytes);

}  // namespace gapscope
