#pragma once
// What happened while importing: counts per phase, what was skipped or
// repaired, and warnings with byte offsets. Shown as the trace's "health".

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace gapscope {

// How a reader words what the profiler itself reported in the file (XSpace's
// errors and warnings, Nsight Systems' diagnostics): Trace Health counts them.
inline constexpr std::string_view kProfilerErrorPrefix = "the profiler reported an error: ";
inline constexpr std::string_view kProfilerWarningPrefix = "the profiler reported a warning: ";
// How the ranks of a job merged into one trace word a step where their
// clocks cannot agree (loader/rank_view.h): Trace Health counts them.
inline constexpr std::string_view kRankClocksPrefix = "the ranks' clocks disagree: ";

struct ImportWarning {
    uint64_t offset = 0;  // byte offset in the (decompressed) JSON text
    std::string message;
};

struct ImportReport {
    uint64_t events = 0;                      // objects read from traceEvents
    std::map<std::string, uint64_t> phases;   // per "ph" value as written
    std::map<std::string, uint64_t> skipped;  // phases read but not modelled (P, O, N, ...)
    std::map<std::string, uint64_t> unknown;  // of those, values the format does not define
    uint64_t withoutPhase = 0;                // objects with no "ph" (e.g. TF's trailing {})
    uint64_t invalidEvents = 0;               // dropped: a required field was missing or bad
    uint64_t unmatchedEnds = 0;               // E (or async end) with nothing open
    uint64_t unclosedBegins = 0;              // B (or async begin) closed at trace end
    uint64_t overlapsMovedToLanes = 0;        // slices placed on lane > 0
    uint64_t negativeDurations = 0;           // X with dur < 0, kept with duration 0
    uint64_t unresolvedFlows = 0;             // flow events with no slice at their time
    uint64_t orphanFlowEvents = 0;            // flow steps/ends whose start is not in the trace
    // The earliest few slices (by start) such flow steps and ends point at,
    // set where the model links the flows (none on an absorbed report).
    std::vector<uint32_t> orphanFlowSlices;
    bool truncated = false;  // input ended early; what came before is kept
    // Ranks merged into one trace: the steps where their clocks cannot
    // agree (each also a warning with kRankClocksPrefix, while there is room).
    uint64_t rankClockDisagreements = 0;
    std::vector<ImportWarning> warnings;
    uint64_t suppressedWarnings = 0;  // beyond kMaxWarnings
    // How this load went, not what the trace holds (neither cached nor
    // dumped): of `events`, those parsed ahead on another core.
    uint64_t eventsParsedAhead = 0;

    static constexpr size_t kMaxWarnings = 200;

    // Adds `other`'s counts and warnings (each prefixed with `prefix`).
    void absorb(const ImportReport& other, const std::string& prefix) {
        events += other.events;
        for (const auto& [k, v] : other.phases)
            phases[k] += v;
        for (const auto& [k, v] : other.skipped)
            skipped[k] += v;
        for (const auto& [k, v] : other.unknown)
            unknown[k] += v;
        withoutPhase += other.withoutPhase;
        invalidEvents += other.invalidEvents;
        unmatchedEnds += other.unmatchedEnds;
        unclosedBegins += other.unclosedBegins;
        overlapsMovedToLanes += other.overlapsMovedToLanes;
        negativeDurations += other.negativeDurations;
        unresolvedFlows += other.unresolvedFlows;
        orphanFlowEvents += other.orphanFlowEvents;
        truncated = truncated || other.truncated;
        rankClockDisagreements += other.rankClockDisagreements;
        for (const ImportWarning& w : other.warnings)
            warn(w.offset, prefix + w.message);
        suppressedWarnings += other.suppressedWarnings;
    }

    void warn(uint64_t offset, std::string message) {
        if (warnings.size() < kMaxWarnings) {
            warnings.push_back({offset, std::move(message)});
        } else {
            ++suppressedWarnings;
        }
    }
};

}  // namespace gapscope
