// The trace's schema (model/trace_schema.h) is the one list of each
// record's fields that the index cache's codec, the canonical dump and the
// merge of ranks visit. Here: the lists hold every field of their records
// (a field added to a record fails to compile below until the schema, or
// the reason it is left to the schema's users, says so), and a trace whose
// every listed field holds a value other than its default comes back from
// the index cache's codec field for field and dump for dump.

#include <QTemporaryFile>
#include <QTest>
#include <sstream>
#include <string>
#include <vector>

#include "cache/cache_io.h"
#include "cache/trace_codec.h"
#include "model/slice_kind.h"
#include "model/trace_schema.h"
#include "report/canonical_dump.h"
#include "support/suite_main.h"

using namespace gapscope;
using schema::Ref;

namespace {

// Compiles only while each record has exactly the members named here.
[[maybe_unused]] void membersOfEveryRecord(Process& p, Track& k, Slice& s, Instant& i,
                                           CounterSeries& c, Flow& f, ArgsRecord& a, ArgIds& x,
                                           LaunchParams& l, OpShapes& o, CollectiveArgs& ca,
                                           MemoryEvent& me, GpuDevice& g, TraceRank& r,
                                           ImportReport& rep) {
    [[maybe_unused]] auto& [p1, p2, p3, p4, p5, p6, p7, p8, p9, p10] = p;
    [[maybe_unused]] auto& [k1, k2, k3, k4, k5, k6, k7, k8, k9, k10, k11, k12, k13, k14, k15, k16] =
        k;
    [[maybe_unused]] auto& [s1, s2, s3, s4, s5, s6, s7, s8] = s;
    [[maybe_unused]] auto& [i1, i2, i3, i4, i5, i6] = i;
    [[maybe_unused]] auto& [c1, c2, c3, c4, c5, c6, c7, c8] = c;
    [[maybe_unused]] auto& [f1, f2, f3, f4, f5, f6] = f;
    [[maybe_unused]] auto& [a1, a2, a3] = a;
    [[maybe_unused]] auto& [x1, x2, x3, x4, x5, x6] = x;
    [[maybe_unused]] auto& [l1, l2, l3, l4, l5, l6] = l;
    [[maybe_unused]] auto& [o1, o2, o3, o4] = o;
    [[maybe_unused]] auto& [ca1, ca2, ca3, ca4, ca5, ca6, ca7] = ca;
    [[maybe_unused]] auto& [me1, me2, me3, me4, me5, me6, me7, me8, me9, me10] = me;
    [[maybe_unused]] auto& [g1, g2, g3, g4, g5, g6, g7] = g;
    [[maybe_unused]] auto& [r1, r2, r3, r4, r5, r6, r7, r8, r9, r10, r11, r12, r13, r14, r15] = r;
    [[maybe_unused]] auto& [e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15, e16,
                            e17, e18] = rep;
}

template <class T>
std::string text(const T& v) {
    std::ostringstream out;
    if constexpr (std::is_same_v<T, std::string>) {
        out << '"' << v << '"';
    } else if constexpr (std::is_same_v<T, IdKey>) {
        out << (v.isText ? "t" : "n") << v.number << "/" << v.text;
    } else if constexpr (std::is_enum_v<T>) {
        out << static_cast<int>(v);
    } else if constexpr (requires { v.begin(); }) {
        for (const auto& x : v)
            out << text(x) << ',';
    } else {
        out << +v;
    }
    return out.str();
}

// "name=value" for each field the schema lists, in its order.
template <class R>
std::vector<std::string> listed(const R& record) {
    std::vector<std::string> out;
    schema::fields(record, [&out](const char* name, const auto& field, Ref) {
        out.push_back(std::string(name) + "=" + text(field));
    });
    return out;
}

// Gives every listed field a value other than its default that the
// trace's validation accepts (every collection below holds an entry 1).
class Fill {
  public:
    template <class F>
    void operator()(const char*, F& field, Ref ref) {
        if constexpr (std::is_same_v<F, std::string>) {
            field = "s" + std::to_string(next_++);
        } else if constexpr (std::is_same_v<F, IdKey>) {
            field = IdKey{next_++, 1, true};
        } else if constexpr (requires { field.push_back(0); }) {
            field = {ref == Ref::None ? static_cast<typename F::value_type>(next_++) : 1};
        } else if constexpr (std::is_same_v<F, bool>) {
            field = true;
        } else if constexpr (std::is_enum_v<F>) {
            field = static_cast<F>(1);
        } else if (ref == Ref::None || ref == Ref::Time || ref == Ref::Correlation) {
            field = static_cast<F>(next_++);
        } else {
            field = static_cast<F>(1);  // an index, a string, a device: entry 1
        }
    }

  private:
    int64_t next_ = 3;
};

// A small trace of two of everything, every listed field filled. Tracks
// hold the empty range [1, 1) of slices and of instants.
Trace filledTrace() {
    Trace t;
    Fill fill;
    schema::fields(t, fill);
    t.strings.intern("a");
    t.strings.intern("b");
    t.categories = {1, 2};
    t.metadata["k"] = "1";
    // Two of each record, every listed field filled.
    auto twoFilled = [&fill](auto&... lists) {
        (
            [&] {
                lists.resize(2);
                for (auto& r : lists)
                    schema::fields(r, fill);
            }(),
            ...);
    };
    twoFilled(t.processes, t.tracks, t.slices, t.instants, t.counters, t.flows, t.args, t.ids,
              t.launches, t.opShapes, t.collectives, t.memoryEvents, t.gpuDevices);
    t.opShapes[0].args = 0;  // strictly in args order (both at entry 1 as filled)
    t.collectives[0].args = 0;
    for (auto& r : t.counters) {
        r.ts = {5, 9};
        r.values = {1.5, 2.5};
        r.extremes.build(r.values);
    }
    for (auto& r : t.gpuDevices) {
        r.busy = {{1, 4}};
        r.instants = {6};
    }
    // Two ranks merged: every process and GPU is the second's, whose
    // ranges hold entry 1; each rank has its part of the args store.
    twoFilled(t.ranks);
    for (auto& r : t.ranks) {
        r.firstProcess = r.firstTrack = r.firstSlice = 1;
        r.processCount = r.trackCount = r.sliceCount = 1;
        r.gpuDevices = {t.gpuDevices[1].index};
        t.argsStore.adoptPart(ArgsStore());
    }
    for (auto& p : t.processes)
        p.group = 1;
    for (auto& d : t.gpuDevices)
        d.group = 1;
    t.alignedOnStep = 4;
    schema::fields(t.report, fill);
    t.report.warnings = {{2, "w"}};
    t.report.phases["X"] = 2;
    t.report.orphanFlowSlices = {0};
    return t;
}

template <class R>
void expectNotDefault(const R& record, const char* what) {
    const std::vector<std::string> mine = listed(record), plain = listed(R{});
    QCOMPARE(mine.size(), plain.size());
    for (size_t i = 0; i < mine.size(); ++i)
        QVERIFY2(mine[i] != plain[i], (std::string(what) + " " + mine[i]).c_str());
}

template <class R>
void expectSame(const std::vector<R>& a, const std::vector<R>& b, const char* what) {
    QCOMPARE(a.size(), b.size());
    for (size_t i = 0; i < a.size(); ++i)
        QCOMPARE(listed(b[i]), listed(a[i]));
    (void)what;
}

// `t` written by the index cache's codec and read back into `back`, every
// byte of it; false when the reader found it corrupt.
bool throughTheCodec(const Trace& t, Trace& back) {
    QTemporaryFile file;
    if (!file.open()) return false;
    CacheWriter out(file.handle());
    writeTraceBody(t, out);
    out.flush();
    if (::lseek(file.handle(), 0, SEEK_SET) != 0) return false;
    CacheReader in(file.handle(), static_cast<uint64_t>(file.size()));
    try {
        StoredExtras extras;
        readTraceBody(in, back, extras);
    } catch (const CacheCorrupt& e) {
        qInfo("the codec refused it: %s", e.what());
        return false;
    }
    return in.left() == 0;
}

template <class R>
std::vector<R> copyOf(const HugeVector<R>& v) {
    return std::vector<R>(v.begin(), v.end());
}

}  // namespace

class TestTraceSchema : public QObject {
    Q_OBJECT
  private slots:
    // Each record's listed fields are its members, but those each user of
    // the schema handles itself, for the reason given.
    void theListsHoldEveryField() {
        QCOMPARE(schema::fieldCount<Process>(), size_t(10));
        // Not listed: rows (each user's: the codec stores them, the dump
        // prints them, the merge moves them), the interval index (stored
        // as its arrays, or rebuilt) and rowBreaks (derived after a load).
        QCOMPARE(schema::fieldCount<Track>(), size_t(16 - 3));
        QCOMPARE(schema::fieldCount<Slice>(), size_t(8));
        QCOMPARE(schema::fieldCount<Instant>(), size_t(6));
        // Not listed: the samples (ts, values: stored whole, moved by the
        // merge) and extremes (rebuilt from the values).
        QCOMPARE(schema::fieldCount<CounterSeries>(), size_t(8 - 3));
        QCOMPARE(schema::fieldCount<Flow>(), size_t(6));
        QCOMPARE(schema::fieldCount<ArgsRecord>(), size_t(3));
        QCOMPARE(schema::fieldCount<ArgIds>(), size_t(6));
        // Six members, of which grid and block are three values each.
        QCOMPARE(schema::fieldCount<LaunchParams>(), size_t(6 + 2 + 2));
        QCOMPARE(schema::fieldCount<OpShapes>(), size_t(4));
        QCOMPARE(schema::fieldCount<CollectiveArgs>(), size_t(7));
        QCOMPARE(schema::fieldCount<MemoryEvent>(), size_t(10));
        // Not listed: busy and instants (intervals and times each user moves).
        QCOMPARE(schema::fieldCount<GpuDevice>(), size_t(7 - 2));
        QCOMPARE(schema::fieldCount<TraceRank>(), size_t(15));
        // Not listed: the phase, skipped and unknown counts, the warnings
        // and the orphan flows' first slices (maps, messages and a list
        // each user writes whole), and how many events were parsed ahead
        // (how the load ran: neither cached nor dumped).
        QCOMPARE(schema::fieldCount<ImportReport>(), size_t(18 - 6));
    }

    // A trace whose every listed field holds a value other than its
    // default survives the index cache's codec: written, read back,
    // validated, each record equal field for field, and the dumps equal.
    void everyFieldSurvivesTheCache() {
        const Trace t = filledTrace();
        expectNotDefault(t.processes[1], "Process");
        expectNotDefault(t.tracks[1], "Track");
        expectNotDefault(t.slices[1], "Slice");
        expectNotDefault(t.instants[1], "Instant");
        expectNotDefault(t.counters[1], "CounterSeries");
        expectNotDefault(t.flows[1], "Flow");
        expectNotDefault(t.args[1], "ArgsRecord");
        expectNotDefault(t.ids[1], "ArgIds");
        expectNotDefault(t.launches[1], "LaunchParams");
        expectNotDefault(t.opShapes[1], "OpShapes");
        expectNotDefault(t.collectives[1], "CollectiveArgs");
        expectNotDefault(t.memoryEvents[1], "MemoryEvent");
        expectNotDefault(t.gpuDevices[1], "GpuDevice");
        expectNotDefault(t.ranks[1], "TraceRank");
        expectNotDefault(t.report, "ImportReport");
        validateTrace(t);  // the filled trace is a valid one

        Trace back;
        QVERIFY(throughTheCodec(t, back));
        validateTrace(back);

        QCOMPARE(listed(back), listed(t));
        QCOMPARE(listed(back.report), listed(t.report));
        expectSame(back.processes, t.processes, "process");
        expectSame(back.tracks, t.tracks, "track");
        expectSame(copyOf(back.slices), copyOf(t.slices), "slice");
        expectSame(copyOf(back.instants), copyOf(t.instants), "instant");
        expectSame(back.counters, t.counters, "counter");
        expectSame(back.flows, t.flows, "flow");
        expectSame(copyOf(back.args), copyOf(t.args), "args");
        expectSame(copyOf(back.ids), copyOf(t.ids), "ids");
        expectSame(copyOf(back.launches), copyOf(t.launches), "launch");
        expectSame(copyOf(back.opShapes), copyOf(t.opShapes), "op shapes");
        expectSame(copyOf(back.collectives), copyOf(t.collectives), "collectives");
        expectSame(copyOf(back.memoryEvents), copyOf(t.memoryEvents), "memory events");
        expectSame(back.gpuDevices, t.gpuDevices, "gpu");
        expectSame(back.ranks, t.ranks, "rank");
        QCOMPARE(back.alignedOnStep, t.alignedOnStep);
        QCOMPARE(back.argsStore.partCount(), t.ranks.size());
        DumpOptions plain;
        plain.argsText = false;
        QCOMPARE(canonicalDump(back, plain), canonicalDump(t, plain));
    }

    // A stored enum past its last value, or a bool that is not 0 or 1, is
    // a corrupt entry, not a model.
    void aStoredValueOutOfRangeIsCorrupt() {
        Trace t = filledTrace();
        t.processes[1].kind = static_cast<ProcessKind>(7);
        Trace back;
        QVERIFY(!throughTheCodec(t, back));
        // So is a rank's, and an args store whose parts are not the ranks.
        Trace rank = filledTrace();
        rank.ranks[1].compression = static_cast<Compression>(9);
        Trace rankBack;
        QVERIFY(!throughTheCodec(rank, rankBack));
        Trace parts = filledTrace();
        parts.argsStore.adoptPart(ArgsStore());
        Trace partsBack;
        QVERIFY(!throughTheCodec(parts, partsBack));
        bool corrupt = false;
        // A reference out of range fails validation, and so does a group
        // (the analyses index arrays by it) past the ranks, or a rank's
        // range past the trace's or a device it does not hold.
        for (auto spoil : {+[](Trace& b) { b.slices[1].name = 99; },
                           +[](Trace& b) { b.ranks[0].sliceCount = 2; },
                           +[](Trace& b) { b.ranks[1].firstProcess = 0xFFFFFFFFu; },
                           +[](Trace& b) { b.ranks[1].gpuDevices = {-5}; },
                           +[](Trace& b) { b.ranks[1].gpuLocalIndices = {}; },
                           +[](Trace& b) { b.processes[1].group = 0xFFFFFFFFu; },
                           +[](Trace& b) { b.gpuDevices[0].group = 7; },
                           // and times no built model holds (the fuzzer's find:
                           // a slice whose end overflowed)
                           +[](Trace& b) { b.slices[1].start = INT64_MAX - 1; },
                           +[](Trace& b) { b.slices[1].dur = -1; },
                           +[](Trace& b) {
                               b.gpuDevices[0].busy = {{4, 1}};
                           }}) {
            Trace bad = filledTrace();
            spoil(bad);
            corrupt = false;
            try {
                validateTrace(bad);
            } catch (const CacheCorrupt&) {
                corrupt = true;
            }
            QVERIFY(corrupt);
        }
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestTraceSchema)
#include "tst_trace_schema.moc"
