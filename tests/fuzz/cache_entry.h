#pragma once
// For the index-cache fuzz targets: a real entry cut into the part before
// its body (the header, then the entry's key, which starts with the
// absolute path of what it describes) and its body, so that a harness can
// put any body behind the real header with the body's length and checksum
// recomputed, and the fuzzer gets past the checksum to the readers.

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>

#include "cache/cache_io.h"
#include "cache/trace_codec.h"

namespace gapscope::fuzz {

inline std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void writeAll(const std::string& path, std::string_view a, std::string_view b = {}) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(a.data(), 1, a.size(), f) != a.size() ||
        (!b.empty() && std::fwrite(b.data(), 1, b.size(), f) != b.size()))
        std::abort();
    std::fclose(f);
}

inline std::string realPath(const std::string& path) {
    char* real = ::realpath(path.c_str(), nullptr);
    std::string out = real ? real : "";
    std::free(real);
    return out;
}

// The header's last three fields are the key's length, the body's length
// and the body's checksum; the header ends where the key starts.
class EntryPrefix {
  public:
    // `entry`: a whole entry's bytes; `keyStart`: what its key starts with.
    EntryPrefix(const std::string& entry, const std::string& keyStart) {
        header_ = entry.find(keyStart);
        if (keyStart.empty() || header_ < 24 || header_ == std::string::npos) std::abort();
        prefix_ = entry.substr(0, header_ + field(entry, 3));
        // The layout this harness assumes; abort loudly when it changes.
        if (prefix_.compare(header_, keyStart.size(), keyStart) != 0 ||
            field(entry, 2) != entry.size() - prefix_.size())
            std::abort();
    }

    // The part before `body`, its length and checksum set for it.
    std::string before(std::string_view body) const {
        std::string out = prefix_;
        setField(out, 2, body.size());
        setField(out, 1, bodyHash(body));
        return out;
    }

    size_t bodyStart() const { return prefix_.size(); }

  private:
    // The header's N-th field from its end.
    uint64_t field(const std::string& bytes, int n) const {
        uint64_t v = 0;
        std::memcpy(&v, bytes.data() + header_ - 8 * n, 8);
        return v;
    }
    void setField(std::string& bytes, int n, uint64_t v) const {
        std::memcpy(bytes.data() + header_ - 8 * n, &v, 8);
    }

    // The checksum the reader computes over this body: the reader's own
    // hash of what it consumed, reading it as a cache lookup does.
    static uint64_t bodyHash(std::string_view body) {
        const int fd = ::memfd_create("body", MFD_CLOEXEC);
        if (fd < 0) std::abort();
        if (!body.empty() && ::write(fd, body.data(), body.size()) != ssize_t(body.size()))
            std::abort();
        ::lseek(fd, 0, SEEK_SET);
        CacheReader in(fd, body.size());
        Trace ignored;
        try {
            StoredExtras extras;
            readTraceBody(in, ignored, extras);
        } catch (const CacheCorrupt&) {
        } catch (const std::bad_alloc&) {
        }
        ::close(fd);
        return in.hash();
    }

    size_t header_ = 0;
    std::string prefix_;
};

}  // namespace gapscope::fuzz
