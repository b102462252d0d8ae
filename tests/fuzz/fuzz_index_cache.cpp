// libFuzzer target for index-cache entries (cache/index_cache.h): the
// input is an entry's body (the model in its binary form), put behind the
// header of a real entry for a small trace, with the body's length and
// checksum recomputed here, so that the fuzzer gets past the checksum to
// the reader and the validation behind it. A body that loads must give a
// model every query can walk (exercise.h); one that does not is a miss the
// viewer answers by parsing the trace again.

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

#include "cache/cache_io.h"
#include "cache/index_cache.h"
#include "cache/trace_codec.h"
#include "exercise.h"
#include "loader/loader.h"
#include "scratch_folder.h"

namespace {

using namespace gapscope;

std::string readAll(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void writeAll(const std::string& path, const std::string& a, std::string_view b) {
    FILE* f = std::fopen(path.c_str(), "wb");
    if (!f || std::fwrite(a.data(), 1, a.size(), f) != a.size() ||
        (!b.empty() && std::fwrite(b.data(), 1, b.size(), f) != b.size()))
        std::abort();
    std::fclose(f);
}

// A trace file and the cache entry written for it: the part before the
// body (header, then the trace's absolute path). The header's last three
// fields are the path's length, the body's length and the body's checksum;
// the header ends where the path starts.
struct Setup {
    fuzz::ScratchFolder scratch{"index-cache"};
    std::string trace = scratch.path() + "/t.json";
    IndexCache cache{scratch.path() + "/cache"};
    std::string prefix;
    size_t headerBytes = 0;

    Setup() {
        writeAll(trace,
                 R"({"traceEvents":[{"ph":"X","name":"step","pid":1,"tid":1,"ts":1,"dur":5,)"
                 R"("args":{"a":1}},{"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,)"
                 R"("ts":2,"dur":1,"args":{"correlation":3}}]})",
                 "");
        const LoadResult r = loadTrace(trace, {});
        if (!r.trace || !cache.store(*r.trace).empty()) std::abort();
        const std::string entry = readAll(cache.entryPath(trace));
        char* real = ::realpath(trace.c_str(), nullptr);
        const std::string path = real ? real : "";
        std::free(real);
        headerBytes = entry.find(path);
        if (path.empty() || headerBytes < 24 || headerBytes == std::string::npos) std::abort();
        prefix = entry.substr(0, headerBytes + path.size());
        // The layout this harness assumes; abort loudly when it changes.
        if (field(entry, 3) != path.size() || field(entry, 2) != entry.size() - prefix.size())
            std::abort();
    }

    // The header's N-th field from its end (1: body checksum, 2: body
    // length, 3: path length).
    uint64_t field(const std::string& bytes, int n) const {
        uint64_t v = 0;
        std::memcpy(&v, bytes.data() + headerBytes - 8 * n, 8);
        return v;
    }
    void setField(std::string& bytes, int n, uint64_t v) const {
        std::memcpy(bytes.data() + headerBytes - 8 * n, &v, 8);
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
            readTraceBody(in, ignored);
        } catch (const CacheCorrupt&) {
        } catch (const std::bad_alloc&) {
        }
        ::close(fd);
        return in.hash();
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const Setup setup;
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    std::string prefix = setup.prefix;
    setup.setField(prefix, 2, body.size());
    setup.setField(prefix, 1, Setup::bodyHash(body));
    writeAll(setup.cache.entryPath(setup.trace), prefix, body);
    const IndexCache::Lookup hit = setup.cache.load(setup.trace);
    if (hit.trace) {
        if (hit.outcome != IndexCache::Outcome::Hit) std::abort();
        fuzz::exercise(*hit.trace);
    } else if (hit.outcome == IndexCache::Outcome::Hit || hit.detail.empty()) {
        std::abort();  // a miss says why
    }
    return 0;
}
