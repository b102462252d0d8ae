#pragma once
// Whole-buffer compression, for tests, fuzzing and generated fixtures (the
// loading path itself only ever decompresses, as a stream).

#include <string>

namespace gapscope {

std::string gzipCompress(const std::string& raw, int level = 6);
std::string zstdCompress(const std::string& raw, int level = 3);

}  // namespace gapscope
