#include "report/canonical_dump.h"

#include <charconv>
#include <cstring>

#include "analysis/rank_comparison.h"
#include "model/slice_kind.h"

namespace gapscope {
namespace {

// Appends fields separated by spaces, one record per line; numbers via
// to_chars (locale-free and round-trip exact for doubles).
class Line {
  public:
    explicit Line(std::string& out) : out_(out) {}
    template <class T>
    Line& operator<<(T v) requires std::is_arithmetic_v<T> {
        sep();
        char buf[32];
        const auto r = std::to_chars(buf, buf + sizeof buf, +v);  // + : bools as 0/1
        out_.append(std::string_view(buf, static_cast<size_t>(r.ptr - buf)));
        return *this;
    }
    Line& operator<<(std::string_view s) {
        sep();
        out_.push_back('"');
        for (char ch : s) {
            if (ch == '"' || ch == '\\') out_.push_back('\\');
            if (ch == '\n') {
                out_.push_back('\\');
                out_.push_back('n');
                continue;
            }
            out_.push_back(ch);
        }
        out_.push_back('"');
        return *this;
    }
    Line& operator<<(const char* s) { return *this << std::string_view(s); }
    Line& operator<<(const std::string& s) { return *this << std::string_view(s); }
    Line& operator<<(const IdKey& k) {
        sep();
        out_.push_back(k.isText ? 't' : 'n');
        first_ = true;
        return k.isText ? (*this << k.text) : (*this << k.number);
    }
    ~Line() { out_.push_back('\n'); }

  private:
    void sep() {
        if (!first_) out_.push_back(' ');
        first_ = false;
    }
    std::string& out_;
    bool first_ = true;
};

void dumpReport(const ImportReport& r, std::string& out) {
    Line(out) << "report" << r.events << r.withoutPhase << r.invalidEvents << r.unmatchedEnds
              << r.unclosedBegins << r.overlapsMovedToLanes << r.negativeDurations
              << r.unresolvedFlows << r.orphanFlowEvents << r.truncated << r.suppressedWarnings;
    for (const auto* m : {&r.phases, &r.skipped, &r.unknown})
        for (const auto& [k, v] : *m)
            Line(out) << "phase-count" << k << v;
    for (const ImportWarning& w : r.warnings)
        Line(out) << "warning" << w.offset << w.message;
}

void dumpTracks(const Trace& t, std::string& out) {
    std::vector<uint32_t> hits;
    for (const Track& k : t.tracks) {
        Line(out) << "track" << static_cast<int>(k.kind) << k.process << k.tid << k.threadName
                  << k.displayName << k.sortIndex << k.hasSortIndex << k.gpuDevice << k.sliceBegin
                  << k.sliceEnd << k.instantBegin << k.instantEnd << k.laneCount;
        for (const Row& r : k.rows)
            Line(out) << "row" << r.begin << r.end << r.lane << r.depth;
        // The index, by what it answers: every slice overlapping the whole span.
        hits.clear();
        k.index.overlapping(t.slices, INT64_MIN / 2, INT64_MAX / 2, hits);
        Line line(out);
        line << "index" << k.index.size();
        for (uint32_t h : hits)
            line << h;
    }
}

}  // namespace

std::string canonicalDump(const Trace& t, const DumpOptions& options) {
    std::string out;
    out.reserve(t.slices.size() * 48 + 4096);
    Line(out) << "trace" << static_cast<int>(t.compression) << t.objectForm
              << static_cast<int>(t.inputFormat) << t.fileSize << t.decompressedSize
              << t.displayTimeUnit << t.spanStart << t.spanEnd << t.hasSpan;
    for (const auto& [k, v] : t.metadata)
        Line(out) << "metadata" << k << v;
    for (size_t i = 0; i < t.strings.size(); ++i)
        Line(out) << "string" << i << t.strings.view(static_cast<StringId>(i));
    for (StringId c : t.categories)
        Line(out) << "category" << c;
    for (const Process& p : t.processes) {
        Line line(out);
        line << "process" << p.pid << p.name << p.labels << p.sortIndex << p.hasSortIndex
             << static_cast<int>(p.kind) << p.gpuDevice << p.displayName << p.group;
        for (uint32_t k : p.tracks)
            line << k;
    }
    dumpTracks(t, out);
    for (const Slice& s : t.slices)
        Line(out) << "slice" << s.start << s.dur << s.name << s.args << s.category << s.depth
                  << s.row << (s.flags & ~(kSliceKindMask | kHostRoleMask))
                  << sliceKindName(sliceKind(s)) << hostRoleName(hostRole(s));
    for (const Instant& i : t.instants)
        Line(out) << "instant" << i.ts << i.name << i.args << i.track << i.category
                  << static_cast<int>(i.scope);
    for (const CounterSeries& c : t.counters) {
        Line(out) << "counter" << c.process << c.name << c.ts.size() << static_cast<int>(c.memory)
                  << c.memoryDevice << c.relative;
        for (size_t i = 0; i < c.ts.size(); ++i)
            Line(out) << "sample" << c.ts[i] << c.values[i];
    }
    for (const Flow& f : t.flows)
        Line(out) << "flow" << f.from << f.to << f.name << f.category
                  << (f.kind == FlowKind::Launch ? "launch" : "other");
    for (size_t i = 0; i < t.args.size(); ++i) {
        const ArgsRecord& a = t.args[i];
        Line line(out);
        line << "args" << a.offset << a.length << a.extracted;
        if (!options.argsText) continue;
        const ArgsText text = t.argsText(static_cast<uint32_t>(i));
        if (text.ok()) {
            line << text.json;
        } else {
            line << "unreadable: " + text.error;
            if (options.onArgsError) options.onArgsError(static_cast<uint32_t>(i), text.error);
        }
    }
    for (const ArgIds& x : t.ids)
        Line(out) << "ids" << x.correlation << x.externalId << x.device << x.stream << x.launch;
    for (const LaunchParams& l : t.launches)
        Line(out) << "launch" << l.grid[0] << l.grid[1] << l.grid[2] << l.block[0] << l.block[1]
                  << l.block[2] << l.registersPerThread << l.occupancyPercent << l.sharedMemory
                  << l.bytes;
    for (const GpuDevice& d : t.gpuDevices) {
        Line line(out);
        line << "gpu" << d.index << d.name << d.busyNs << d.group;
        for (uint32_t k : d.tracks)
            line << k;
        for (const Interval& b : d.busy)
            Line(out) << "busy" << b.start << b.end;
        for (const TimeNs p : d.instants)
            Line(out) << "instant" << p;
    }
    for (const TraceRank& r : t.ranks) {
        Line line(out);
        line << "rank" << r.rank << r.host << rankSourceName(r.file, r.part) << r.offset
             << r.firstProcess << r.processCount << r.firstTrack << r.trackCount << r.firstSlice
             << r.sliceCount << r.gpuDevices.size();
        for (int d : r.gpuDevices)
            line << d;
        for (int d : r.gpuLocalIndices)
            line << d;
    }
    if (t.alignedOnStep) Line(out) << "aligned-on-step" << *t.alignedOnStep;
    dumpReport(t.report, out);
    return out;
}

}  // namespace gapscope
