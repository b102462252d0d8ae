#include "util/load_error.h"

namespace gapscope {

std::string byteWhere(uint64_t offset, bool decompressed) {
    std::string s = "byte " + std::to_string(offset);
    if (decompressed) s += " of the decompressed data";
    return s;
}

}  // namespace gapscope
