// libFuzzer target for index-cache entries (cache/index_cache.h): the
// input is an entry's body (the model in its binary form), put behind the
// header of a real entry for a small trace, with the body's length and
// checksum recomputed here, so that the fuzzer gets past the checksum to
// the reader and the validation behind it. A body that loads must give a
// model every query can walk (exercise.h); one that does not is a miss the
// viewer answers by parsing the trace again.

#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include "cache/index_cache.h"
#include "cache_entry.h"
#include "exercise.h"
#include "loader/loader.h"
#include "scratch_folder.h"

namespace {

using namespace gapscope;

// A trace file and the cache entry written for it.
struct Setup {
    fuzz::ScratchFolder scratch{"index-cache"};
    std::string trace = scratch.path() + "/t.json";
    IndexCache cache{scratch.path() + "/cache"};
    std::optional<fuzz::EntryPrefix> entry;

    Setup() {
        fuzz::writeAll(trace,
                       R"({"traceEvents":[{"ph":"X","name":"step","pid":1,"tid":1,"ts":1,"dur":5,)"
                       R"("args":{"a":1}},{"ph":"X","name":"k","cat":"kernel","pid":0,"tid":7,)"
                       R"("ts":2,"dur":1,"args":{"correlation":3}}]})");
        const LoadResult r = loadTrace(trace, {});
        if (!r.trace || !cache.store(*r.trace).empty()) std::abort();
        entry.emplace(fuzz::readAll(cache.entryPath(trace)), fuzz::realPath(trace));
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static const Setup setup;
    const std::string_view body(reinterpret_cast<const char*>(data), size);
    fuzz::writeAll(setup.cache.entryPath(setup.trace), setup.entry->before(body), body);
    const IndexCache::Lookup hit = setup.cache.load(setup.trace);
    if (hit.trace) {
        if (hit.outcome != IndexCache::Outcome::Hit) std::abort();
        fuzz::exercise(*hit.trace);
    } else if (hit.outcome == IndexCache::Outcome::Hit || hit.detail.empty()) {
        std::abort();  // a miss says why
    }
    return 0;
}
