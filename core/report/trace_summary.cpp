#include "report/trace_summary.h"

#include <cstdio>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>

#include "analysis/analysis_index.h"
#include "analysis/gpu_time_account.h"
#include "analysis/trace_health.h"
#include "model/slice_kind.h"
#include "util/readable_units.h"

namespace gapscope {

void writeTraceSummary(const Trace& t, std::ostream& out) {
    out << t.path << "\n";
    if (t.inputFormat == InputFormat::XSpace) {
        out << "  format      XSpace protobuf (TensorFlow / JAX profiler), ";
    } else if (t.inputFormat == InputFormat::NsightSqlite) {
        out << "  format      Nsight Systems SQLite export, ";
    } else {
        out << "  format      Chrome Trace Event Format, " << (t.objectForm ? "object" : "array")
            << " form, ";
    }
    out << compressionName(t.compression) << " (" << readableBytes(static_cast<double>(t.fileSize));
    if (t.compression != Compression::None)
        out << " -> " << readableBytes(static_cast<double>(t.decompressedSize));
    out << ")\n";
    if (const auto run = t.metadata.find("profile run"); run != t.metadata.end()) {
        // The reader wrote both as JSON: a string and an array of strings.
        const auto name = nlohmann::json::parse(run->second, nullptr, false);
        out << "  run         " << (name.is_string() ? name.get<std::string>() : run->second);
        if (const auto hosts = t.metadata.find("profile hosts"); hosts != t.metadata.end()) {
            const auto list = nlohmann::json::parse(hosts->second, nullptr, false);
            out << " (" << (list.is_array() ? list.size() : 0) << " hosts:";
            if (list.is_array())
                for (const auto& h : list)
                    out << ' ' << (h.is_string() ? h.get<std::string>() : h.dump());
            out << ')';
        }
        out << "\n";
    }
    out << "  events      " << t.report.events << " (";
    bool first = true;
    for (const auto& [ph, n] : t.report.phases) {
        out << (first ? "" : ", ") << ph << " " << n;
        first = false;
    }
    out << ")\n";
    if (t.hasSpan) {
        out << "  span        " << readableDuration(t.spanLength()) << "  [" << t.spanStart
            << " .. " << t.spanEnd << " ns]\n";
    }
    out << "  model       " << t.slices.size() << " slices, " << t.instants.size() << " instants, "
        << t.counters.size() << " counter series, " << t.flows.size() << " flows\n";
    // What the slices are, as the producer's vocabulary says.
    const auto kinds = sliceKindCounts(t);
    bool firstKind = true;
    for (int k = 1; k < kSliceKindCount; ++k) {
        if (kinds[static_cast<size_t>(k)] == 0) continue;
        out << (firstKind ? "  kinds       " : ", ") << sliceKindName(static_cast<SliceKind>(k))
            << " " << kinds[static_cast<size_t>(k)];
        firstKind = false;
    }
    if (!firstKind) out << "\n";

    if (!t.gpuDevices.empty())
        out << "\nGPU devices (busy = union of kernels, memcpy, memset on all streams)\n";
    // The busy share every view shows: of the time account's denominator
    // (its step time, else its active span), each named.
    // One index for the account and the health below (launch calls, steps).
    const AnalysisIndex index(t);
    StepOptions so;
    so.index = &index;
    const TimeAccount account = t.gpuDevices.empty() ? TimeAccount{} : timeAccountOf(t, so);
    for (const GpuDevice& d : t.gpuDevices) {
        out << "  GPU " << d.index << (d.name.empty() ? "" : " · " + d.name) << "  busy "
            << readableDuration(d.busyNs) << ", " << d.tracks.size() << " stream(s)";
        // The account's own busy and time beside its share: a step time
        // holds less than all of the GPU's work.
        for (const GpuTimeAccount& a : account.devices) {
            if (a.device != d.index || a.time <= 0) continue;
            out << "; "
                << (a.denominator == Denominator::StepTime
                        ? "of the step time (" + std::to_string(a.steps) +
                              (a.steps == 1 ? " step): " : " steps): ")
                        : std::string("of its active span: "))
                << readableDuration(a.busy()) << " of " << readableDuration(a.time) << ", "
                << readablePercent(double(a.busy()) / double(a.time));
        }
        out << "\n";
    }

    out << "\nProcesses and tracks\n";
    for (const Process& p : t.processes) {
        out << "  " << p.displayName << "  [" << (p.kind == ProcessKind::Gpu ? "gpu" : "cpu")
            << ", pid "
            << (p.pid.isText ? std::string(t.str(p.pid.text)) : std::to_string(p.pid.number))
            << "]\n";
        for (uint32_t id : p.tracks) {
            const Track& tr = t.tracks[id];
            out << "    " << tr.displayName << "  " << tr.sliceCount() << " slices";
            if (tr.instantEnd > tr.instantBegin)
                out << ", " << (tr.instantEnd - tr.instantBegin) << " instants";
            if (tr.laneCount > 1) out << ", " << tr.laneCount << " lanes";
            out << "\n";
        }
    }

    const ImportReport& r = t.report;
    // What the import repaired, dropped or found missing (analysis/trace_health.h).
    const TraceHealth health = traceHealth(t, &index.launches(), &index.stepWindows());
    out << "\nHealth\n";
    bool found = false;
    for (const HealthCheck& c : health.checks) {
        if (c.count == 0 || c.id == "import_warnings") continue;
        found = true;
        char severity[16];
        std::snprintf(severity, sizeof severity, "%-8s", healthSeverityName(c.severity));
        out << "  " << severity << c.title << ": " << c.count << " (" << c.effect << ")";
        if (!c.examples.empty()) {
            const Slice& s = t.slices[c.examples.front()];
            out << "; first " << t.str(s.name) << " at " << s.start << " ns";
        } else if (!c.detail.empty()) {
            out << "; first: " << c.detail;
        }
        out << "\n";
    }
    if (!found) out << "  nothing repaired, dropped or missing\n";
    if (!r.skipped.empty()) {
        out << "  skipped phases:";
        for (const auto& [ph, n] : r.skipped)
            out << " " << ph << " " << n;
        out << (r.unknown.empty() ? "" : " (some are not phases of the format)") << "\n";
    }
    if (r.withoutPhase) out << "  events without ph: " << r.withoutPhase << "\n";
    for (const ImportWarning& w : r.warnings) {
        // A database has no byte offsets: its warnings name their table.
        if (t.inputFormat == InputFormat::NsightSqlite)
            out << "  warning: " << w.message << "\n";
        else
            out << "  warning at byte " << w.offset << ": " << w.message << "\n";
    }
    if (r.suppressedWarnings) out << "  ... and " << r.suppressedWarnings << " more warnings\n";
}

}  // namespace gapscope
