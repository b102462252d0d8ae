#include "io/compress.h"

#include <zlib.h>
#include <zstd.h>

namespace gapscope {

std::string gzipCompress(const std::string& raw, int level) {
    z_stream zs{};
    if (deflateInit2(&zs, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) return {};
    std::string out(deflateBound(&zs, static_cast<uLong>(raw.size())) + 64, '\0');
    zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(raw.data()));
    zs.avail_in = static_cast<uInt>(raw.size());
    zs.next_out = reinterpret_cast<Bytef*>(out.data());
    zs.avail_out = static_cast<uInt>(out.size());
    deflate(&zs, Z_FINISH);
    out.resize(zs.total_out);
    deflateEnd(&zs);
    return out;
}

std::string zstdCompress(const std::string& raw, int level) {
    std::string out(ZSTD_compressBound(raw.size()), '\0');
    const size_t n = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), level);
    out.resize(ZSTD_isError(n) ? 0 : n);
    return out;
}

}  // namespace gapscope
