// Every phase of the Trace Event Format and the edge cases of building the
// model, each on a small handcrafted trace with its expected result.

#include <QTest>

#include "analysis/trace_health.h"
#include "model/merge_traces.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using namespace gapscope::test;

namespace {

// Fixtures are files in tests/fixtures/ (moc cannot read raw strings).
std::shared_ptr<const Trace> load(const QString& name) {
    const LoadResult r = loadTrace(fixture(name).toStdString());
    if (!r.trace)
        QTest::qFail(r.failure ? r.failure->message().c_str() : "cancelled", __FILE__, __LINE__);
    return r.trace;
}

const Track* findTrack(const Trace& t, const std::string& name) {
    for (const Track& tr : t.tracks) {
        if (tr.displayName == name) return &tr;
    }
    return nullptr;
}

const Slice* findSlice(const Trace& t, const std::string& name) {
    for (const Slice& s : t.slices) {
        if (t.str(s.name) == name) return &s;
    }
    return nullptr;
}

}  // namespace

// Loads a fixture into `var`; a failed load fails the test and stops it
// there (the rest of the function would dereference a null trace).
#define LOAD_FIXTURE(var, name)  \
    const auto var = load(name); \
    if (!var) return

namespace {

// `n` slices named <prefix><i> on one thread from `from` us, 100 us apart,
// each holding the end of a flow whose start is not in the file (ids in
// the reverse order of time: the later slice, the smaller id).
std::string orphanFlows(const std::string& prefix, int from, int n) {
    std::string json = "[";
    for (int i = 0; i < n; ++i) {
        const int ts = from + 100 * i;
        json += "{\"ph\":\"X\",\"name\":\"" + prefix + std::to_string(i) +
                "\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(ts) + ",\"dur\":50},";
        json += "{\"ph\":\"f\",\"cat\":\"q\",\"name\":\"q\",\"id\":" + std::to_string(n - i) +
                ",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(ts + 10) + ",\"bp\":\"e\"}";
        json += i + 1 < n ? "," : "]";
    }
    return json;
}

}  // namespace

class TestPhases : public QObject {
    Q_OBJECT
  private slots:
    void beginEndMatching() {
        LOAD_FIXTURE(t, "phases/begin_end_matching.json");
        QCOMPARE(t->report.unmatchedEnds, uint64_t(1));
        QCOMPARE(t->report.unclosedBegins, uint64_t(1));
        const Slice* outer = findSlice(*t, "outer");
        const Slice* inner = findSlice(*t, "inner");
        const Slice* open = findSlice(*t, "open");
        QVERIFY(outer && inner && open);
        QCOMPARE(outer->dur, int64_t(10000));
        QCOMPARE(outer->depth, uint16_t(0));
        QCOMPARE(inner->start, int64_t(1000));
        QCOMPARE(inner->dur, int64_t(2000));
        QCOMPARE(inner->depth, uint16_t(1));
        // The unclosed B ends at the end of the trace and is marked.
        QVERIFY(open->flags & kSliceUnclosed);
        QCOMPARE(open->end(), t->spanEnd);
        QCOMPARE(t->spanEnd, int64_t(25000));
    }

    void instantsByScope() {
        LOAD_FIXTURE(t, "phases/instants_by_scope.json");
        QCOMPARE(t->instants.size(), size_t(4));
        const Track* thread = findTrack(*t, "thread 1");
        QVERIFY(thread);
        QCOMPARE(thread->instantEnd - thread->instantBegin, 2u);
        int processScoped = 0, globalScoped = 0;
        for (const Instant& in : t->instants) {
            processScoped += in.scope == 'p';
            globalScoped += in.scope == 'g';
            if (in.scope != 't') QCOMPARE(t->tracks[in.track].kind, TrackKind::Instants);
        }
        QCOMPARE(processScoped, 1);
        QCOMPARE(globalScoped, 1);
    }

    void countersEveryKeyIsASeries() {
        LOAD_FIXTURE(t, "phases/counters_every_key_is_a_series.json");
        QCOMPARE(t->counters.size(), size_t(3));
        for (const CounterSeries& c : t->counters) {
            const std::string name(t->str(c.name));
            if (name == "mem used") {
                QCOMPARE(c.ts, (HugeVector<TimeNs>{1000, 2000}));  // sorted by time
                QCOMPARE(c.values, (HugeVector<double>{10, 20}));
            } else if (name == "mem free") {
                QCOMPARE(c.values, (HugeVector<double>{6, 5.5}));
            } else {
                QCOMPARE(name, std::string("ctr 7 value"));
            }
        }
    }

    void metadataNamesAndOrder() {
        LOAD_FIXTURE(t, "phases/metadata_names_and_order.json");
        QCOMPARE(t->processes.size(), size_t(2));
        QCOMPARE(t->processes[0].displayName, std::string("trainer 5"));  // sort index -1 first
        QCOMPARE(t->processes[1].displayName, std::string("loader 3"));
        const auto& tracks = t->processes[0].tracks;
        QCOMPARE(t->tracks[tracks[0]].displayName, std::string("pt_main_thread 52"));
        QCOMPARE(t->tracks[tracks[1]].displayName, std::string("worker 51"));
        // A negative tid is a producer's own line id (XSpace's derived
        // lines): a named line shows its name alone.
        std::vector<std::string> loader;
        for (const uint32_t k : t->processes[1].tracks)
            loader.push_back(t->tracks[k].displayName);
        QCOMPARE(loader, (std::vector<std::string>{"Steps", "thread 30"}));
    }

    void stringAndNumberIds() {
        LOAD_FIXTURE(t, "phases/string_and_number_ids.json");
        // "1" is the number 1 (old Kineto mixes both for one thread); "t",
        // "foo" and the non-canonical "01" are text keys of their own.
        QCOMPARE(t->processes.size(), size_t(4));
        QCOMPARE(t->tracks.size(), size_t(5));
        const Track* one = findTrack(*t, "thread 1");
        QVERIFY(one);
        QCOMPARE(one->sliceCount(), 2u);  // a and b
        QVERIFY(findTrack(*t, "t"));      // a text tid names itself
        QVERIFY(findTrack(*t, "bar"));
        const Slice* c = findSlice(*t, "c");
        QCOMPARE(c->start, int64_t(2500));  // numeric strings are accepted as times
        QCOMPARE(c->dur, int64_t(1000));
        QVERIFY(findTrack(*t, "thread 2"));  // missing tid = pid
    }

    void flowsBindToSlices() {
        LOAD_FIXTURE(t, "phases/flows_bind_to_slices.json");
        QCOMPARE(t->flows.size(), size_t(3));
        auto nameOf = [&](uint32_t i) { return std::string(t->str(t->slices[i].name)); };
        QCOMPARE(nameOf(t->flows[0].from), std::string("cudaLaunchKernel"));
        QCOMPARE(nameOf(t->flows[0].to), std::string("gemm"));
        QCOMPARE(nameOf(t->flows[1].from), std::string("producer"));
        QCOMPARE(nameOf(t->flows[1].to), std::string("middle"));
        QCOMPARE(nameOf(t->flows[2].to), std::string("next consumer"));  // no bp: the next slice
        QCOMPARE(t->report.orphanFlowEvents, uint64_t(1));               // id 99 has no start
        // Its end binds to gemm (ts 110 on GPU stream 7): Trace Health's
        // first instance, a slice a person can click.
        const TraceHealth health = traceHealth(*t);
        const HealthCheck* orphans = health.find("orphan_flow_events");
        QVERIFY(orphans);
        QCOMPARE(orphans->count, uint64_t(1));
        QCOMPARE(orphans->examples.size(), size_t(1));
        QCOMPARE(nameOf(orphans->examples[0]), std::string("gemm"));
        QCOMPARE(t->slices[orphans->examples[0]].start, int64_t(110'000));
    }

    // Many flow steps without a start: the first few by start are kept,
    // whatever order the flows' ids put them in.
    void orphanFlowsKeepTheEarliestSlices() {
        const int n = 12;
        const std::string json = orphanFlows("k", 1000, n);
        const LoadResult r = test::loadJsonText(json);
        QVERIFY(r.trace);
        const auto& t = r.trace;
        QCOMPARE(t->report.orphanFlowEvents, uint64_t(n));
        const TraceHealth health = traceHealth(*t);
        const HealthCheck* orphans = health.find("orphan_flow_events");
        QVERIFY(orphans);
        QCOMPARE(orphans->examples.size(), kHealthExamples);
        for (size_t i = 0; i < kHealthExamples; ++i)
            QCOMPARE(std::string(t->str(t->slices[orphans->examples[i]].name)),
                     "k" + std::to_string(i));
    }

    // Two ranks merged into one trace: the first slices of both ranks'
    // orphan flows, in the merged trace's slices, the earliest of the two.
    void mergedRanksKeepTheirEarliestOrphanSlices() {
        std::vector<RankPart> parts;
        const std::pair<const char*, int> ranks[] = {{"a", 1000}, {"b", 1050}};
        for (int64_t r = 0; r < 2; ++r) {
            LoadResult one = test::loadJsonText(orphanFlows(ranks[r].first, ranks[r].second, 12));
            QVERIFY(one.trace);
            parts.push_back({r,
                             "host",
                             "rank" + std::to_string(r) + ".json",
                             0,
                             std::const_pointer_cast<Trace>(std::move(one.trace)),
                             {}});
        }
        const std::shared_ptr<const Trace> job = mergeRankTraces(std::move(parts), "job");
        QCOMPARE(job->report.orphanFlowEvents, uint64_t(24));
        const TraceHealth health = traceHealth(*job);
        const HealthCheck* orphans = health.find("orphan_flow_events");
        QVERIFY(orphans);
        std::vector<std::string> names;
        for (const uint32_t s : orphans->examples)
            names.emplace_back(job->str(job->slices[s].name));
        QCOMPARE(names, (std::vector<std::string>{"a0", "b0", "a1", "b1", "a2"}));
    }

    void asyncNestableAndLegacy() {
        LOAD_FIXTURE(t, "phases/async_nestable_and_legacy.json");
        const Track* read = findTrack(*t, "read");
        QVERIFY(read);
        QCOMPARE(read->kind, TrackKind::Async);
        QCOMPARE(read->sliceCount(), 3u);  // read, parse nested in it, the overlapping second read
        QCOMPARE(read->laneCount, uint16_t(2));
        const Slice* parse = findSlice(*t, "parse");
        QCOMPARE(parse->depth, uint16_t(1));
        QCOMPARE(parse->dur, int64_t(2000));
        const Slice* fetch = findSlice(*t, "fetch");
        QCOMPARE(fetch->dur, int64_t(5000));
        QCOMPARE(t->report.unclosedBegins, uint64_t(1));
        QVERIFY(findSlice(*t, "never ends")->flags & kSliceUnclosed);
    }

    void skippedAndUnknownPhasesAreCounted() {
        LOAD_FIXTURE(t, "phases/skipped_and_unknown_phases_are_counted.json");
        QCOMPARE(t->report.events, uint64_t(12));
        QCOMPARE(t->report.withoutPhase, uint64_t(1));
        QCOMPARE(t->report.phases.at("P"), uint64_t(1));
        QCOMPARE(t->report.phases.at("XXX"), uint64_t(1));
        for (const char* ph : {"P", "O", "N", "D", "V", "v", "R", "c", "Q"})
            QCOMPARE(t->report.skipped.count(ph), size_t(1));
        QCOMPARE(t->report.skipped.count("XXX"), size_t(0));  // modelled as X (Chrome, Perfetto)
        QCOMPARE(t->report.unknown.size(), size_t(1));        // only "Q" is not in the format
        QCOMPARE(t->report.unknown.count("Q"), size_t(1));
        QCOMPARE(t->slices.size(), size_t(2));
        QCOMPARE(t->report.invalidEvents, uint64_t(0));
    }

    void invalidFieldsDropOrClampEvents() {
        LOAD_FIXTURE(t, "phases/invalid_fields_drop_or_clamp_events.json");
        QCOMPARE(t->report.invalidEvents, uint64_t(3));
        QCOMPARE(t->report.negativeDurations, uint64_t(1));
        QCOMPARE(t->slices.size(), size_t(3));
        QCOMPARE(findSlice(*t, "no dur")->dur, int64_t(0));
        QVERIFY(findSlice(*t, "negative")->flags & kSliceNegativeDuration);
        QCOMPARE(findSlice(*t, "negative")->dur, int64_t(0));
        QVERIFY(!t->report.warnings.empty());
    }

    void kinetoGpuClassification() {
        LOAD_FIXTURE(t, "phases/kineto_gpu_classification.json");
        // GPUs first, by device; the empty "GPU 1" process is not listed.
        QCOMPARE(t->processes.size(), size_t(3));
        QCOMPARE(t->processes[0].displayName, std::string("GPU 0"));
        QCOMPARE(t->processes[1].displayName, std::string("GPU 2"));
        QCOMPARE(t->processes[2].displayName, std::string("python3 418"));
        QCOMPARE(t->gpuDevices.size(), size_t(2));
        // Device 0: [10,25] + [40,45] = 20 us; the annotation does not count.
        QCOMPARE(t->gpuDevices[0].busyNs, int64_t(20000));
        QCOMPARE(t->gpuDevices[0].busy.size(), size_t(2));
        QCOMPARE(t->gpuDevices[1].busyNs, int64_t(7000));
        const auto& gpu0 = t->processes[0].tracks;
        QCOMPARE(t->tracks[gpu0[0]].displayName, std::string("stream 7"));
        QCOMPARE(t->tracks[gpu0[0]].kind, TrackKind::GpuStream);
        QCOMPARE(t->tracks[gpu0[0]].laneCount, uint16_t(2));  // k1 and k2 overlap
        QCOMPARE(t->tracks[gpu0[1]].displayName, std::string("stream 7 annotations"));
        QCOMPARE(t->tracks[gpu0[1]].kind, TrackKind::GpuAnnotation);
        QCOMPARE(t->tracks[gpu0[2]].displayName, std::string("stream 13"));
        QCOMPARE(t->report.overlapsMovedToLanes, uint64_t(1));
    }

    void tensorflowGpuClassification() {
        LOAD_FIXTURE(t, "phases/tensorflow_gpu_classification.json");
        QCOMPARE(t->processes[0].displayName, std::string("GPU 0"));
        QCOMPARE(t->gpuDevices.size(), size_t(1));
        QCOMPARE(t->gpuDevices[0].busyNs, int64_t(10000));  // derived lines do not count
        const auto& tracks = t->processes[0].tracks;
        QCOMPARE(t->tracks[tracks[0]].kind, TrackKind::GpuStream);
        QCOMPARE(t->tracks[tracks[1]].kind, TrackKind::GpuOther);
        QCOMPARE(t->report.withoutPhase, uint64_t(1));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestPhases)
#include "tst_phases.moc"
