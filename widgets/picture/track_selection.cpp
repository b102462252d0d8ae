#include "picture/track_selection.h"

#include <algorithm>
#include <regex>

namespace gapscope::ui {

namespace {

bool gpuCounter(const Trace& t, const CounterSeries& c) {
    if (c.memoryDevice >= 0) return true;
    return c.process < t.processes.size() && t.processes[c.process].kind == ProcessKind::Gpu;
}

std::string processName(const Trace& t, uint32_t process) {
    return process < t.processes.size() ? t.processes[process].displayName : std::string();
}

}  // namespace

std::optional<TrackSelection> selectTracks(const Trace& t, const std::string& spec,
                                           std::string* error) {
    TrackSelection s;
    if (spec.empty() || spec == "all") return s;
    s.tracks.assign(t.tracks.size(), 0);
    s.counters.assign(t.counters.size(), 0);
    if (spec == "gpu" || spec == "cpu") {
        const bool gpu = spec == "gpu";
        for (size_t i = 0; i < t.tracks.size(); ++i) {
            const uint32_t p = t.tracks[i].process;
            const bool onGpu = p < t.processes.size() && t.processes[p].kind == ProcessKind::Gpu;
            s.tracks[i] = onGpu == gpu;
        }
        for (size_t c = 0; c < t.counters.size(); ++c)
            s.counters[c] = gpuCounter(t, t.counters[c]) == gpu;
    } else {
        std::regex re;
        try {
            re = std::regex(spec, std::regex::ECMAScript | std::regex::icase);
        } catch (const std::regex_error& e) {
            if (error)
                *error = "--tracks: not a regular expression: " + spec + " (" + e.what() + ")";
            return std::nullopt;
        }
        for (size_t i = 0; i < t.tracks.size(); ++i) {
            const Track& tr = t.tracks[i];
            s.tracks[i] =
                std::regex_search(processName(t, tr.process) + " / " + tr.displayName, re);
        }
        for (size_t c = 0; c < t.counters.size(); ++c) {
            const CounterSeries& cs = t.counters[c];
            s.counters[c] = std::regex_search(
                processName(t, cs.process) + " / " + std::string(t.str(cs.name)), re);
        }
    }
    const bool any = std::any_of(s.tracks.begin(), s.tracks.end(), [](uint8_t v) { return v; }) ||
                     std::any_of(s.counters.begin(), s.counters.end(), [](uint8_t v) { return v; });
    if (!any) {
        if (error) *error = "--tracks " + spec + ": no track matches";
        return std::nullopt;
    }
    return s;
}

}  // namespace gapscope::ui
