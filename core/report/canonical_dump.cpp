#include "report/canonical_dump.h"

#include <charconv>
#include <cstring>

#include "model/slice_kind.h"
#include "model/trace_schema.h"

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
    template <class E>
    Line& operator<<(E e) requires std::is_enum_v<E> {
        return *this << static_cast<int>(e);
    }
    template <class T, class A>
    Line& operator<<(const std::vector<T, A>& v) {
        for (const T& x : v)
            *this << x;
        return *this;
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

// One record's fields, in the schema's order, after its tag.
template <class Record>
void fieldsOf(Line& line, const Record& r) {
    schema::fields(r, [&line](const char*, const auto& field, schema::Ref) { line << field; });
}

void dumpReport(const ImportReport& r, std::string& out) {
    {
        Line line(out);
        line << "report";
        fieldsOf(line, r);
    }
    for (const auto* m : {&r.phases, &r.skipped, &r.unknown})
        for (const auto& [k, v] : *m)
            Line(out) << "phase-count" << k << v;
    for (const ImportWarning& w : r.warnings)
        Line(out) << "warning" << w.offset << w.message;
    for (const uint32_t s : r.orphanFlowSlices)
        Line(out) << "orphan-flow-slice" << s;
}

void dumpTracks(const Trace& t, std::string& out) {
    std::vector<uint32_t> hits;
    for (const Track& k : t.tracks) {
        {
            Line line(out);
            line << "track";
            fieldsOf(line, k);
        }
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
    {
        Line line(out);
        line << "trace";
        fieldsOf(line, t);
    }
    for (const auto& [k, v] : t.metadata)
        Line(out) << "metadata" << k << v;
    for (size_t i = 0; i < t.strings.size(); ++i)
        Line(out) << "string" << i << t.strings.view(static_cast<StringId>(i));
    for (StringId c : t.categories)
        Line(out) << "category" << c;
    for (const Process& p : t.processes) {
        Line line(out);
        line << "process";
        fieldsOf(line, p);
    }
    dumpTracks(t, out);
    for (const Slice& s : t.slices) {
        // Its flags without the kind bits, then the kind and host role by name.
        Line line(out);
        line << "slice";
        schema::fields(s, [&line](const char* name, const auto& field, schema::Ref) {
            if (std::string_view(name) == "flags")
                line << (field & ~(kSliceKindMask | kHostRoleMask));
            else
                line << field;
        });
        line << sliceKindName(sliceKind(s)) << hostRoleName(hostRole(s));
    }
    for (const Instant& i : t.instants) {
        Line line(out);
        line << "instant";
        fieldsOf(line, i);
    }
    for (const CounterSeries& c : t.counters) {
        {
            Line line(out);
            line << "counter";
            fieldsOf(line, c);
            line << c.ts.size();
        }
        for (size_t i = 0; i < c.ts.size(); ++i)
            Line(out) << "sample" << c.ts[i] << c.values[i];
    }
    for (const Flow& f : t.flows) {
        // Its kind by name; `reserved` is padding.
        Line line(out);
        line << "flow";
        schema::fields(f, [&line](const char* name, const auto& field, schema::Ref) {
            const std::string_view n = name;
            if constexpr (std::is_same_v<std::decay_t<decltype(field)>, FlowKind>)
                line << (field == FlowKind::Launch ? "launch" : "other");
            else if (n != "reserved")
                line << field;
        });
    }
    for (size_t i = 0; i < t.args.size(); ++i) {
        Line line(out);
        line << "args";
        fieldsOf(line, t.args[i]);
        if (!options.argsText) continue;
        const ArgsText text = t.argsText(static_cast<uint32_t>(i));
        if (text.ok()) {
            line << text.json;
        } else {
            line << "unreadable: " + text.error;
            if (options.onArgsError) options.onArgsError(static_cast<uint32_t>(i), text.error);
        }
    }
    for (const ArgIds& x : t.ids) {
        Line line(out);
        line << "ids";
        fieldsOf(line, x);
    }
    for (const LaunchParams& l : t.launches) {
        Line line(out);
        line << "launch";
        fieldsOf(line, l);
    }
    for (const OpShapes& o : t.opShapes) {
        Line line(out);
        line << "op_shapes";
        fieldsOf(line, o);
    }
    for (const CollectiveArgs& c : t.collectives) {
        Line line(out);
        line << "collective";
        fieldsOf(line, c);
    }
    for (const MemoryEvent& m : t.memoryEvents) {
        Line line(out);
        line << "memory_event";
        fieldsOf(line, m);
    }
    for (const GpuDevice& d : t.gpuDevices) {
        {
            Line line(out);
            line << "gpu";
            fieldsOf(line, d);
        }
        for (const Interval& b : d.busy)
            Line(out) << "busy" << b.start << b.end;
        for (const TimeNs p : d.instants)
            Line(out) << "instant" << p;
    }
    for (const TraceRank& r : t.ranks) {
        // Its two lists of devices each after their length.
        Line line(out);
        line << "rank";
        schema::fields(r, [&line](const char*, const auto& field, schema::Ref) {
            if constexpr (requires { field.size(); } &&
                          !std::is_same_v<std::decay_t<decltype(field)>, std::string>)
                line << field.size();
            line << field;
        });
    }
    if (t.alignedOnStep) Line(out) << "aligned-on-step" << *t.alignedOnStep;
    dumpReport(t.report, out);
    return out;
}

}  // namespace gapscope
