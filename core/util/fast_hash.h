#pragma once
// A fast 64-bit non-cryptographic hash (xxHash64's round function, four
// lanes): checks cache files for corruption at memory speed and fingerprints
// the head and tail of a trace file. Not for hostile collisions.

#include <cstddef>
#include <cstdint>

namespace gapscope {

uint64_t fastHash(const void* data, size_t size, uint64_t seed = 0);

}  // namespace gapscope
