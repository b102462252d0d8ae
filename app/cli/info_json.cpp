#include <nlohmann/json.hpp>
#include <ostream>

#include "analysis/gpu_utilization.h"
#include "analysis/slice_queries.h"
#include "analysis/trace_health.h"
#include "info_command.h"
#include "model/slice_kind.h"

namespace gapscope::cli {

namespace {

nlohmann::ordered_json idJson(const Trace& t, const IdKey& id) {
    if (id.isText) return std::string(t.str(id.text));
    return id.number;
}

// Strings from traces may hold invalid UTF-8; never let that abort output.
std::string text(std::string_view s) {
    return std::string(s);
}

}  // namespace

void writeInfoJson(const Trace& t, const std::string& cacheNote, std::ostream& out) {
    using J = nlohmann::ordered_json;
    J j;
    j["file"] = t.path;
    j["format"] = t.inputFormat == InputFormat::XSpace         ? "xspace"
                  : t.inputFormat == InputFormat::NsightSqlite ? "nsight-sqlite"
                                                               : "chrome-json";
    if (t.inputFormat == InputFormat::ChromeJson) j["form"] = t.objectForm ? "object" : "array";
    j["compression"] = compressionName(t.compression);
    j["file_bytes"] = t.fileSize;
    j["json_bytes"] = t.decompressedSize;
    if (!cacheNote.empty()) j["index_cache"] = cacheNote;
    // A profile run's folder: the run and its hosts (as the reader named them).
    for (const auto& [key, field] :
         {std::pair{"profile run", "profile_run"}, std::pair{"profile hosts", "profile_hosts"}}) {
        if (const auto it = t.metadata.find(key); it != t.metadata.end())
            j[field] = J::parse(it->second, nullptr, false);
    }
    j["events"] = t.report.events;
    J phases = J::object();
    for (const auto& [ph, n] : t.report.phases)
        phases[ph] = n;
    j["phases"] = phases;
    j["span_ns"] = t.hasSpan ? J::array({t.spanStart, t.spanEnd}) : J(nullptr);
    if (!t.displayTimeUnit.empty()) j["display_time_unit"] = t.displayTimeUnit;

    J processes = J::array();
    for (const Process& p : t.processes) {
        J pj;
        pj["pid"] = idJson(t, p.pid);
        pj["name"] = p.displayName;
        pj["kind"] = processKindName(p.kind);
        if (p.kind == ProcessKind::Gpu) pj["gpu_device"] = std::to_string(p.gpuDevice);
        J threads = J::array();
        for (uint32_t id : p.tracks) {
            const Track& tr = t.tracks[id];
            J tj;
            tj["tid"] = idJson(t, tr.tid);
            tj["name"] = tr.displayName;
            tj["kind"] = trackKindName(tr.kind);
            tj["slices"] = tr.sliceCount();
            tj["instants"] = tr.instantEnd - tr.instantBegin;
            tj["rows"] = tr.rows.size();
            threads.push_back(std::move(tj));
        }
        pj["threads"] = std::move(threads);
        processes.push_back(std::move(pj));
    }
    j["processes"] = std::move(processes);

    J devices = J::array();
    for (const GpuDevice& d : t.gpuDevices) {
        J dj;
        dj["device"] = std::to_string(d.index);
        if (!d.name.empty()) dj["name"] = d.name;
        dj["busy_ns"] = d.busyNs;
        dj["busy_intervals"] = d.busy.size();
        if (const auto span = activeSpan(d))
            dj["active_span_ns"] = J::array({span->start, span->end});
        devices.push_back(std::move(dj));
    }
    j["gpu_devices"] = std::move(devices);
    j["slices"] = t.slices.size();
    J kinds = J::object();  // every kind, zeros too: a script can read any
    const auto counts = sliceKindCounts(t);
    for (int k = 0; k < kSliceKindCount; ++k)
        kinds[std::string(sliceKindName(static_cast<SliceKind>(k)))] =
            counts[static_cast<size_t>(k)];
    j["slice_kinds"] = std::move(kinds);
    j["instants"] = t.instants.size();
    j["counter_series"] = t.counters.size();
    j["flows"] = t.flows.size();

    const ImportReport& r = t.report;
    J report;
    report["truncated"] = r.truncated;
    J skipped = J::object();
    for (const auto& [ph, n] : r.skipped)
        skipped[ph] = n;
    report["skipped_phases"] = skipped;
    J unknown = J::object();
    for (const auto& [ph, n] : r.unknown)
        unknown[ph] = n;
    report["unknown_phases"] = unknown;
    report["without_phase"] = r.withoutPhase;
    report["invalid_events"] = r.invalidEvents;
    report["unmatched_ends"] = r.unmatchedEnds;
    report["unclosed_begins"] = r.unclosedBegins;
    report["overlaps_moved_to_lanes"] = r.overlapsMovedToLanes;
    report["negative_durations"] = r.negativeDurations;
    report["unresolved_flows"] = r.unresolvedFlows;
    report["orphan_flow_events"] = r.orphanFlowEvents;
    j["import"] = std::move(report);
    // Every health check, found or not (analysis/trace_health.h).
    J health = J::array();
    for (const HealthCheck& c : traceHealth(t).checks) {
        J examples = J::array();
        for (const uint32_t i : c.examples) {
            const Slice& s = t.slices[i];
            examples.push_back(J{{"name", text(t.str(s.name))},
                                 {"start_ns", s.start},
                                 {"dur_ns", s.dur},
                                 {"track", trackLabel(t, t.trackOfSlice(i))}});
        }
        health.push_back(J{{"check", c.id},
                           {"severity", healthSeverityName(c.severity)},
                           {"count", c.count},
                           {"title", c.title},
                           {"effect", c.effect},
                           {"detail", c.detail.empty() ? J(nullptr) : J(text(c.detail))},
                           {"examples", std::move(examples)}});
    }
    j["health"] = std::move(health);
    J warnings = J::array();
    for (const ImportWarning& w : r.warnings)
        warnings.push_back(J{{"offset", w.offset}, {"message", w.message}});
    j["warnings"] = std::move(warnings);
    if (r.suppressedWarnings) j["warnings_suppressed"] = r.suppressedWarnings;
    J meta = J::array();
    for (const auto& [key, value] : t.metadata)
        meta.push_back(text(key));
    j["metadata_keys"] = std::move(meta);

    out << j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) << "\n";
}

}  // namespace gapscope::cli
