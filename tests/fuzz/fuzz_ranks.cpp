// libFuzzer target for the ranks of a job: the rank a trace's head states
// (every input); (first byte odd) a ranks or
// fleet table as the viewer reads it back (parseRanksJson), written again
// and read again, which must give the same text; (even) two traces from the
// input's two halves, loaded as loadTrace would, then merged into one
// (model/merge_traces.h) and every query run over the result.

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "exercise.h"
#include "io/rank_hint.h"
#include "loader/loader.h"
#include "model/merge_traces.h"
#include "report/ranks_report.h"

namespace {

using namespace gapscope;

void ranksJsonRoundTrip(std::string_view text) {
    std::string error;
    const auto doc = parseRanksJson(text, error);
    if (!doc) return;
    const std::string again = ranksJson(doc->ranks, doc->comparison);
    const auto reread = parseRanksJson(again, error);
    if (!reread || ranksJson(reread->ranks, reread->comparison) != again) std::abort();
}

void mergeTwo(std::string_view bytes, size_t split) {
    LoadOptions options;
    options.memoryLimitBytes = 256u << 20;  // inside libFuzzer's -rss_limit_mb
    std::vector<RankPart> parts;
    const std::string_view halves[2] = {bytes.substr(0, split), bytes.substr(split)};
    for (int i = 0; i < 2; ++i) {
        LoadResult r =
            loadTraceFromBytes(std::string(halves[i]), "rank" + std::to_string(i), options);
        if (!r.trace) continue;
        parts.push_back({1 - i,
                         "",
                         "rank" + std::to_string(i),
                         i == 0 ? 0 : 1000,
                         std::const_pointer_cast<Trace>(std::move(r.trace)),
                         {}});
    }
    if (parts.empty()) return;
    try {
        const std::shared_ptr<const Trace> merged = mergeRankTraces(std::move(parts), "job");
        fuzz::exercise(*merged);
    } catch (const std::length_error&) {
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) return 0;
    const std::string_view bytes(reinterpret_cast<const char*>(data + 2), size - 2);
    // The rank a trace's head states (the loading order's hint): any bytes.
    (void)rankInTraceHead(bytes);
    if (data[0] & 1) {
        ranksJsonRoundTrip(bytes);
    } else {
        mergeTwo(bytes, bytes.size() * data[1] / 255);
    }
    return 0;
}
