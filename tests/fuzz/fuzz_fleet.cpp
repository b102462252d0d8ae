// libFuzzer target for fleet tables (`tools/fleet`'s *.fleet.json), which
// the viewer opens in its Ranks
// panel: the table is read (parseRanksJson), each rank's totals computed
// as the panel computes them, the per-step and straggler tables written in
// every format, and the document written as JSON and read back, which must
// give the same ranks, steps and stragglers (the target aborts otherwise).

#include <cstdint>
#include <cstdlib>
#include <string>

#include "analysis/rank_totals.h"
#include "report/ranks_report.h"

namespace {

using namespace gapscope;

bool sameRanks(const RanksDocument& a, const RanksDocument& b) {
    if (a.ranks.size() != b.ranks.size() ||
        a.comparison.stragglers.size() != b.comparison.stragglers.size() ||
        a.comparison.alignedOn != b.comparison.alignedOn)
        return false;
    for (size_t i = 0; i < a.ranks.size(); ++i) {
        const RankEntry &x = a.ranks[i].entry, &y = b.ranks[i].entry;
        if (x.rank != y.rank || x.offset != y.offset ||
            x.figures.steps.size() != y.figures.steps.size())
            return false;
        for (size_t s = 0; s < x.figures.steps.size(); ++s) {
            const RankStep &p = x.figures.steps[s], &q = y.figures.steps[s];
            if (p.number != q.number || p.span.start != q.span.start || p.span.end != q.span.end ||
                p.busy != q.busy || p.comm != q.comm || p.wait != q.wait)
                return false;
        }
    }
    for (size_t i = 0; i < a.comparison.stragglers.size(); ++i) {
        const StepStraggler &p = a.comparison.stragglers[i], &q = b.comparison.stragglers[i];
        if (p.step != q.step || p.rank != q.rank || p.othersWait != q.othersWait ||
            p.entry != q.entry)
            return false;
    }
    return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::string error;
    const std::optional<RanksDocument> doc = parseRanksJson(text, error);
    if (!doc) {
        if (error.empty()) std::abort();  // a refusal says where and what
        return 0;
    }
    // Steps start before they end (the reader checks), and the totals
    // saturate: a rank's duration is never negative.
    for (const RankRow& r : doc->ranks)
        if (rankTotals(r.entry.figures).duration < 0) std::abort();
    for (const OutputFormat f :
         {OutputFormat::Text, OutputFormat::Csv, OutputFormat::Markdown, OutputFormat::Html}) {
        for (const bool readable : {false, true}) {
            RenderOptions o;
            o.readable = readable;
            renderResult(rankTable(doc->ranks, doc->comparison), f, o);
            renderResult(rankStepTable(doc->ranks), f, o);
            renderResult(stragglerTable(doc->comparison), f, o);
        }
    }
    const std::string again = ranksJson(doc->ranks, doc->comparison);
    const std::optional<RanksDocument> reread = parseRanksJson(again, error);
    if (!reread || !sameRanks(*doc, *reread)) std::abort();
    if (ranksJson(reread->ranks, reread->comparison) != again) std::abort();
    return 0;
}
