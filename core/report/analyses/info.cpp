// What a trace is: its file, format and producer, what the import made of
// it (events by phase, the model's slices by kind, processes and tracks,
// GPUs) and what it repaired or warned of. `gapscope-cli info` and the
// viewer's Trace panel; Trace Health (health.cpp) says what it means.

#include <nlohmann/json.hpp>

#include "analysis/gpu_time_account.h"
#include "analysis/gpu_utilization.h"
#include "model/slice_kind.h"
#include "report/analyses/builtin_analyses.h"

namespace gapscope {

namespace {

const char* formatId(InputFormat f) {
    switch (f) {
        case InputFormat::XSpace:
            return "xspace";
        case InputFormat::NsightSqlite:
            return "nsight-sqlite";
        case InputFormat::ChromeJson:
        case InputFormat::Unknown:
            break;
    }
    return "chrome-json";
}

std::string idText(const Trace& t, const IdKey& id) {
    return id.isText ? std::string(t.str(id.text)) : std::to_string(id.number);
}

// A value the reader kept as JSON text in the metadata ("profile run").
nlohmann::json metadataJson(const Trace& t, const char* key) {
    const auto it = t.metadata.find(key);
    return it == t.metadata.end() ? nlohmann::json()
                                  : nlohmann::json::parse(it->second, nullptr, false);
}

void addFacts(AnalysisResult& r, const Trace& t, const Scope& scope) {
    ResultColumn file{"file", "File", Unit::Text};
    file.path = true;
    r.addFigure(file, t.path);
    ResultColumn format{"format", "Format", Unit::Text};
    format.labels = {{"chrome-json", "Chrome Trace Event Format"},
                     {"xspace", "XSpace protobuf"},
                     {"nsight-sqlite", "Nsight Systems SQLite export"}};
    r.addFigure(format, std::string(formatId(t.inputFormat)));
    ResultColumn producer{"producer", "Producer", Unit::Text};
    for (int p = 0; p <= static_cast<int>(kLastProducer); ++p)
        producer.labels.push_back({producerId(Producer(p)), producerName(Producer(p))});
    r.addFigure(producer, std::string(producerId(t.producer)));
    r.addFigure({"form", "JSON form", Unit::Text},
                t.inputFormat == InputFormat::ChromeJson
                    ? ResultCell(std::string(t.objectForm ? "object" : "array"))
                    : ResultCell());
    r.addFigure({"compression", "Compression", Unit::Text},
                std::string(compressionName(t.compression)));
    r.addFigure({"file_bytes", "File size", Unit::Bytes}, static_cast<int64_t>(t.fileSize));
    r.addFigure({"json_bytes", "Decompressed", Unit::Bytes},
                static_cast<int64_t>(t.decompressedSize));
    r.addFigure({"index_cache", "Index cache", Unit::Text},
                scope.indexCache.empty() ? ResultCell() : ResultCell(scope.indexCache));
    // A profile run's folder: the run and its hosts, as the reader named them.
    const nlohmann::json run = metadataJson(t, "profile run");
    r.addFigure({"profile_run", "Profile run", Unit::Text},
                run.is_string() ? ResultCell(run.get<std::string>()) : ResultCell());
    const nlohmann::json hosts = metadataJson(t, "profile hosts");
    std::vector<std::string> hostNames;
    if (hosts.is_array())
        for (const auto& h : hosts)
            hostNames.push_back(h.is_string() ? h.get<std::string>() : h.dump());
    r.addFigure({"profile_hosts", "Profile hosts", Unit::Text},
                hosts.is_array() ? ResultCell(hostNames) : ResultCell());
    r.addFigure({"events", "Events", Unit::Count}, static_cast<int64_t>(t.report.events));
    r.addFigure({"span_start_ns", "First event", Unit::Time},
                t.hasSpan ? ResultCell(t.spanStart) : ResultCell());
    r.addFigure({"span_end_ns", "Last event ends", Unit::Time},
                t.hasSpan ? ResultCell(t.spanEnd) : ResultCell());
    r.addFigure({"span_ns", "Span", Unit::Duration},
                t.hasSpan ? ResultCell(t.spanLength()) : ResultCell());
    r.addFigure({"display_time_unit", "Display time unit", Unit::Text},
                t.displayTimeUnit.empty() ? ResultCell() : ResultCell(t.displayTimeUnit));
    r.addFigure({"slices", "Slices", Unit::Count}, static_cast<int64_t>(t.slices.size()));
    r.addFigure({"instants", "Instants", Unit::Count}, static_cast<int64_t>(t.instants.size()));
    r.addFigure({"counter_series", "Counter series", Unit::Count},
                static_cast<int64_t>(t.counters.size()));
    r.addFigure({"flows", "Flows", Unit::Count}, static_cast<int64_t>(t.flows.size()));
    // Every kind, zeros too: a script can read any.
    const auto kinds = sliceKindCounts(t);
    for (int k = 0; k < kSliceKindCount; ++k) {
        const std::string name(sliceKindName(static_cast<SliceKind>(k)));
        r.addFigure({"slice_kinds." + name, "Slices: " + name, Unit::Count},
                    static_cast<int64_t>(kinds[static_cast<size_t>(k)]));
    }
}

void addImport(AnalysisResult& r, const ImportReport& rep) {
    ResultColumn truncated{"import.truncated", "Cut short", Unit::Flag};
    r.addFigure(truncated, int64_t{rep.truncated});
    const std::pair<const char*, std::pair<const char*, uint64_t>> counts[] = {
        {"without_phase", {"Events without ph", rep.withoutPhase}},
        {"invalid_events", {"Invalid events", rep.invalidEvents}},
        {"unmatched_ends", {"Ends without a begin", rep.unmatchedEnds}},
        {"unclosed_begins", {"Begins without an end", rep.unclosedBegins}},
        {"overlaps_moved_to_lanes", {"Overlaps moved to lanes", rep.overlapsMovedToLanes}},
        {"negative_durations", {"Negative durations", rep.negativeDurations}},
        {"unresolved_flows", {"Unresolved flows", rep.unresolvedFlows}},
        {"orphan_flow_events", {"Orphan flow events", rep.orphanFlowEvents}},
        {"warnings_suppressed", {"Warnings not listed", rep.suppressedWarnings}}};
    for (const auto& [key, what] : counts)
        r.addFigure({std::string("import.") + key, what.first, Unit::Count},
                    static_cast<int64_t>(what.second));
}

ResultTable phaseTable(const ImportReport& rep) {
    ResultTable table;
    table.id = "phases";
    table.title = "Events by phase";
    table.columns = {{"phase", "Phase", Unit::Text},
                     {"events", "Events", Unit::Count},
                     {"skipped", "Skipped", Unit::Count},
                     {"known", "A phase of the format", Unit::Flag}};
    std::map<std::string, std::array<int64_t, 2>> phases;  // events, skipped
    for (const auto& [ph, n] : rep.phases)
        phases[ph][0] += static_cast<int64_t>(n);
    for (const auto& [ph, n] : rep.skipped)
        phases[ph][1] += static_cast<int64_t>(n);
    for (const auto& [ph, n] : phases) {
        ResultRow row;
        row.cells = {ph, n[0], n[1], int64_t{!rep.unknown.contains(ph)}};
        table.rows.push_back(std::move(row));
    }
    return table;
}

ResultTable trackTable(const Trace& t) {
    ResultTable table;
    table.id = "tracks";
    table.title = "Processes and tracks";
    ResultColumn gpu{"gpu_device", "GPU", Unit::Count};
    gpu.sparse = true;
    table.columns = {{"process", "Process", Unit::Text},    {"pid", "pid", Unit::Text},
                     {"process_kind", "Kind", Unit::Text},  gpu,
                     {"track", "Track", Unit::Text},        {"tid", "tid", Unit::Text},
                     {"kind", "Track kind", Unit::Text},    {"slices", "Slices", Unit::Count},
                     {"instants", "Instants", Unit::Count}, {"rows", "Rows", Unit::Count},
                     {"lanes", "Lanes", Unit::Count}};
    for (const Process& p : t.processes) {
        for (const uint32_t id : p.tracks) {
            const Track& tr = t.tracks[id];
            ResultRow row;
            row.cells = {
                p.displayName,
                idText(t, p.pid),
                std::string(p.kind == ProcessKind::Gpu ? "gpu" : "cpu"),
                p.kind == ProcessKind::Gpu ? ResultCell(int64_t{p.gpuDevice}) : ResultCell(),
                tr.displayName,
                idText(t, tr.tid),
                std::string(trackKindName(tr.kind)),
                static_cast<int64_t>(tr.sliceCount()),
                static_cast<int64_t>(tr.instantEnd - tr.instantBegin),
                static_cast<int64_t>(tr.rows.size()),
                static_cast<int64_t>(tr.laneCount)};
            table.rows.push_back(std::move(row));
        }
    }
    return table;
}

// Each GPU's busy union over the whole trace, and its share of the time
// account's denominator (the figure every view shows, computed once).
ResultTable gpuTable(const Trace& t, const Scope& scope) {
    ResultTable table;
    table.id = "gpus";
    table.title = "GPU devices";
    ResultColumn share{"busy_share", "Busy of its time", Unit::Share};
    share.of = "time_ns";
    table.columns = {{"device", "GPU", Unit::Count},
                     {"name", "Name", Unit::Text},
                     {"streams", "Streams", Unit::Count},
                     {"busy_ns", "Busy (whole trace)", Unit::Duration},
                     {"busy_intervals", "Busy intervals", Unit::Count},
                     {"active_start_ns", "First activity", Unit::Time},
                     {"active_end_ns", "Last activity", Unit::Time},
                     {"denominator", "Its time", Unit::Text},
                     {"time_ns", "Time", Unit::Duration},
                     {"account_busy_ns", "Busy in its time", Unit::Duration},
                     share};
    // The whole trace's account (computeAnalysis gives an analysis about the
    // whole trace its whole scope): the figure `account` gives.
    const TimeAccount account =
        t.gpuDevices.empty() ? TimeAccount{} : timeAccountOf(t, scope.stepOptions());
    for (const GpuDevice& d : t.gpuDevices) {
        const GpuTimeAccount* a = nullptr;
        for (const GpuTimeAccount& x : account.devices)
            if (x.device == d.index) a = &x;
        const auto span = activeSpan(d);
        ResultRow row;
        row.cells = {
            int64_t{d.index},
            d.name.empty() ? ResultCell() : ResultCell(d.name),
            static_cast<int64_t>(d.tracks.size()),
            d.busyNs,
            static_cast<int64_t>(d.busy.size()),
            span ? ResultCell(span->start) : ResultCell(),
            span ? ResultCell(span->end) : ResultCell(),
            a ? ResultCell(std::string(denominatorName(a->denominator))) : ResultCell(),
            a ? ResultCell(a->time) : ResultCell(),
            a ? ResultCell(a->busy()) : ResultCell(),
            a && a->time > 0 ? ResultCell(double(a->busy()) / double(a->time)) : ResultCell()};
        table.rows.push_back(std::move(row));
    }
    return table;
}

ResultTable warningTable(const Trace& t) {
    ResultTable table;
    table.id = "warnings";
    table.title = "Import warnings";
    // A database has no byte offsets: its warnings name their table.
    ResultColumn offset{"offset", "At byte", Unit::Count};
    offset.sparse = true;
    table.columns = {offset, {"message", "Warning", Unit::Text}};
    const bool bytes = t.inputFormat != InputFormat::NsightSqlite;
    for (const ImportWarning& w : t.report.warnings) {
        ResultRow row;
        row.cells = {bytes ? ResultCell(static_cast<int64_t>(w.offset)) : ResultCell(), w.message};
        table.rows.push_back(std::move(row));
    }
    return table;
}

ResultTable metadataTable(const Trace& t) {
    ResultTable table;
    table.id = "metadata";
    table.title = "Top-level keys";
    table.columns = {{"key", "Key", Unit::Text}, {"bytes", "Size", Unit::Bytes}};
    for (const auto& [key, value] : t.metadata) {
        ResultRow row;
        row.cells = {key, static_cast<int64_t>(value.size())};
        table.rows.push_back(std::move(row));
    }
    return table;
}

}  // namespace

Analysis infoAnalysis() {
    Analysis a;
    a.id = "info";
    a.title = "Trace";
    a.what =
        "what the trace is: file, format, producer, events by\nphase, slices by kind, processes "
        "and tracks, GPUs, import\nwarnings";
    a.help =
        "What the trace is and what the import made of it: its file, format, producer\n"
        "(which profiler wrote it), compression and sizes, the index cache's use; its\n"
        "events by phase (those skipped, and whether each is a phase of the format),\n"
        "span, the model's slices by kind, instants, counters and flows; every process\n"
        "and track; each GPU's busy time and its share of its time (step time or\n"
        "active span, as `account` counts it); what the import repaired, and its\n"
        "warnings. `gapscope-cli health` says what that means for the figures. About\n"
        "the whole trace.";
    a.scoped = false;
    a.takesStepRegex = false;
    a.primaryTable = "figures";
    a.compute = [](const Trace& t, const Scope& scope, const AnalysisOptions&) {
        AnalysisResult r;
        addFacts(r, t, scope);
        addImport(r, t.report);
        r.tables.push_back(phaseTable(t.report));
        r.tables.push_back(trackTable(t));
        r.tables.push_back(gpuTable(t, scope));
        r.tables.push_back(warningTable(t));
        r.tables.push_back(metadataTable(t));
        return r;
    };
    return a;
}

}  // namespace gapscope
