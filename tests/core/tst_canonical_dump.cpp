// The canonical dump (report/canonical_dump.h) covers every field of the
// model: the tests that compare two read paths (threads, chunks, the index
// cache, ranks merged) by their dumps see a difference in any field only if
// the dump shows it. Each field of the bundled sample's model is changed in
// turn and the dump must change; the fields left out on purpose (how the
// model was loaded, what is derived again after every load) are named with
// their reason, and changing them must leave the dump as it was.
//
// A field added to a model struct fails to compile in fieldsOfEveryStruct()
// until it is dumped (or named as left out) and changed below.

#include <QTest>
#include <functional>
#include <string>
#include <vector>

#include "loader/loader.h"
#include "model/slice_kind.h"
#include "report/canonical_dump.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;

// GCC 12 at -O3 (the release build) takes the small string writes of the
// changes below for copies of up to SIZE_MAX bytes (-Wstringop-overflow,
// -Wrestrict, -Warray-bounds: known false positives of its inliner on
// std::string); nothing here copies more than a few bytes.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wrestrict"
#pragma GCC diagnostic ignored "-Warray-bounds"
#endif

namespace {

// Compiles only while each struct has exactly the fields named here.
[[maybe_unused]] void fieldsOfEveryStruct(Trace& t, Process& p, Track& k, Row& row, Slice& s,
                                          Instant& i, CounterSeries& c, Flow& f, GpuDevice& g,
                                          TraceRank& r, ArgsRecord& a, ArgIds& x, LaunchParams& l,
                                          ImportReport& rep, ImportWarning& w) {
    [[maybe_unused]] auto& [path, compression, inputFormat, objectForm, fileSize, decompressedSize,
                            fileStamp, fromCache, producer, displayTimeUnit, metadata, strings,
                            categories, processes, tracks, slices, instants, counters, flows, args,
                            ids, launches, opShapes, collectives, memoryEvents, argsStore,
                            gpuDevices, ranks, alignedOnStep, report, spanStart, spanEnd, hasSpan] =
        t;
    [[maybe_unused]] auto& [pid, pName, labels, pSortIndex, pHasSortIndex, pKind, pGpuDevice,
                            pDisplayName, pTracks, pGroup] = p;
    [[maybe_unused]] auto& [kKind, kProcess, tid, threadName, kDisplayName, kSortIndex,
                            kHasSortIndex, kGpuDevice, sliceBegin, sliceEnd, instantBegin,
                            instantEnd, laneCount, rows, index, rowBreaks] = k;
    [[maybe_unused]] auto& [rowBegin, rowEnd, lane, rowDepth] = row;
    [[maybe_unused]] auto& [start, dur, sName, sArgs, sCategory, depth, sRow, flags] = s;
    [[maybe_unused]] auto& [ts, iName, iArgs, track, iCategory, scope] = i;
    [[maybe_unused]] auto& [cProcess, cName, cTs, values, memory, memoryDevice, relative,
                            extremes] = c;
    [[maybe_unused]] auto& [from, to, fName, fCategory, fKind, fReserved] = f;
    [[maybe_unused]] auto& [gIndex, gName, gTracks, busy, gInstants, busyNs, gGroup] = g;
    [[maybe_unused]] auto& [rank, host, file, part, rInputFormat, rCompression, offset,
                            firstProcess, processCount, firstTrack, trackCount, firstSlice,
                            sliceCount, rGpuDevices, gpuLocalIndices] = r;
    [[maybe_unused]] auto& [aOffset, length, extracted] = a;
    [[maybe_unused]] auto& [correlation, externalId, device, stream, launch, stepNumber] = x;
    [[maybe_unused]] auto& [grid, block, registersPerThread, occupancyPercent, sharedMemory,
                            bytes] = l;
    [[maybe_unused]] auto& [events, phases, skipped, unknown, withoutPhase, invalidEvents,
                            unmatchedEnds, unclosedBegins, overlapsMovedToLanes, negativeDurations,
                            unresolvedFlows, orphanFlowEvents, orphanFlowSlices, truncated,
                            rankClockDisagreements, warnings, suppressedWarnings,
                            eventsParsedAhead] = rep;
    [[maybe_unused]] auto& [wOffset, message] = w;
}

struct Change {
    const char* field;
    std::function<void(Trace&)> apply;
    // Run before the dump to compare with: what the field needs to exist.
    std::function<void(Trace&)> prepare = nullptr;
};

void addRank(Trace& t) {
    t.ranks.push_back(TraceRank{});
}

// The sample records no collective: one, on its first args.
void addCollective(Trace& t) {
    CollectiveArgs c;
    c.args = 0;
    c.name = c.type = 1;
    c.inElements = c.outElements = 8;
    c.groupSize = 2;
    t.collectives.push_back(c);
}

void addWarning(Trace& t) {
    t.report.warnings.push_back({7, "w"});
}

// One change per dumped field, each to a value the sample does not hold.
std::vector<Change> dumpedFields() {
    return {
        // Trace
        {"Trace::compression", [](Trace& t) { t.compression = Compression::Zstd; }},
        {"Trace::inputFormat", [](Trace& t) { t.inputFormat = InputFormat::XSpace; }},
        {"Trace::producer", [](Trace& t) { t.producer = Producer::NsightSystems; }},
        {"Trace::objectForm", [](Trace& t) { t.objectForm = !t.objectForm; }},
        {"Trace::fileSize", [](Trace& t) { ++t.fileSize; }},
        {"Trace::decompressedSize", [](Trace& t) { ++t.decompressedSize; }},
        {"Trace::displayTimeUnit", [](Trace& t) { t.displayTimeUnit.push_back('x'); }},
        {"Trace::metadata", [](Trace& t) { t.metadata["zz"] = "1"; }},
        {"Trace::strings", [](Trace& t) { t.strings.intern("a string no event names"); }},
        {"Trace::categories", [](Trace& t) { t.categories.push_back(0); }},
        {"Trace::ranks", addRank},
        {"Trace::alignedOnStep", [](Trace& t) { t.alignedOnStep = 3; }},
        {"Trace::spanStart", [](Trace& t) { ++t.spanStart; }},
        {"Trace::spanEnd", [](Trace& t) { ++t.spanEnd; }},
        {"Trace::hasSpan", [](Trace& t) { t.hasSpan = !t.hasSpan; }},
        // Process
        {"Process::pid", [](Trace& t) { ++t.processes[0].pid.number; }},
        {"Process::name", [](Trace& t) { ++t.processes[0].name; }},
        {"Process::labels", [](Trace& t) { ++t.processes[0].labels; }},
        {"Process::sortIndex", [](Trace& t) { ++t.processes[0].sortIndex; }},
        {"Process::hasSortIndex",
         [](Trace& t) { t.processes[0].hasSortIndex = !t.processes[0].hasSortIndex; }},
        {"Process::kind", [](Trace& t) { t.processes[0].kind = ProcessKind::Cpu; }},
        {"Process::gpuDevice", [](Trace& t) { ++t.processes[0].gpuDevice; }},
        {"Process::displayName", [](Trace& t) { t.processes.at(0).displayName.push_back('x'); }},
        {"Process::tracks", [](Trace& t) { t.processes[0].tracks.push_back(0); }},
        {"Process::group", [](Trace& t) { ++t.processes[0].group; }},
        // Track
        {"Track::kind", [](Trace& t) { t.tracks[0].kind = TrackKind::Instants; }},
        {"Track::process", [](Trace& t) { ++t.tracks[0].process; }},
        {"Track::tid", [](Trace& t) { ++t.tracks[0].tid.number; }},
        {"Track::threadName", [](Trace& t) { ++t.tracks[0].threadName; }},
        {"Track::displayName", [](Trace& t) { t.tracks.at(0).displayName.push_back('x'); }},
        {"Track::sortIndex", [](Trace& t) { ++t.tracks[0].sortIndex; }},
        {"Track::hasSortIndex",
         [](Trace& t) { t.tracks[0].hasSortIndex = !t.tracks[0].hasSortIndex; }},
        {"Track::gpuDevice", [](Trace& t) { ++t.tracks[0].gpuDevice; }},
        {"Track::sliceBegin", [](Trace& t) { ++t.tracks[0].sliceBegin; }},
        {"Track::sliceEnd", [](Trace& t) { ++t.tracks[0].sliceEnd; }},
        {"Track::instantBegin", [](Trace& t) { ++t.tracks[0].instantBegin; }},
        {"Track::instantEnd", [](Trace& t) { ++t.tracks[0].instantEnd; }},
        {"Track::laneCount", [](Trace& t) { ++t.tracks[0].laneCount; }},
        {"Track::rows", [](Trace& t) { t.tracks[0].rows.push_back(Row{}); }},
        {"Track::index", [](Trace& t) { t.tracks[0].index = IntervalIndex(); }},
        // Row
        {"Row::begin", [](Trace& t) { ++t.tracks[0].rows[0].begin; }},
        {"Row::end", [](Trace& t) { ++t.tracks[0].rows[0].end; }},
        {"Row::lane", [](Trace& t) { ++t.tracks[0].rows[0].lane; }},
        {"Row::depth", [](Trace& t) { ++t.tracks[0].rows[0].depth; }},
        // Slice
        {"Slice::start", [](Trace& t) { ++t.slices[0].start; }},
        {"Slice::dur", [](Trace& t) { ++t.slices[0].dur; }},
        {"Slice::name", [](Trace& t) { ++t.slices[0].name; }},
        {"Slice::args", [](Trace& t) { ++t.slices[0].args; }},
        {"Slice::category", [](Trace& t) { ++t.slices[0].category; }},
        {"Slice::depth", [](Trace& t) { ++t.slices[0].depth; }},
        {"Slice::row", [](Trace& t) { ++t.slices[0].row; }},
        {"Slice::flags",
         [](Trace& t) { t.slices[0].flags = uint16_t(t.slices[0].flags ^ kSliceOverlapLane); }},
        {"Slice kind",
         [](Trace& t) {
             setSliceKind(t.slices[0], sliceKind(t.slices[0]) == SliceKind::Kernel
                                           ? SliceKind::Memcpy
                                           : SliceKind::Kernel);
         }},
        {"Slice host role",
         [](Trace& t) {
             setHostRole(t.slices[0],
                         hostRole(t.slices[0]) == HostRole::Sync ? HostRole::None : HostRole::Sync);
         }},
        // Instant
        {"Instant::ts", [](Trace& t) { ++t.instants[0].ts; }},
        {"Instant::name", [](Trace& t) { ++t.instants[0].name; }},
        {"Instant::args", [](Trace& t) { ++t.instants[0].args; }},
        {"Instant::track", [](Trace& t) { ++t.instants[0].track; }},
        {"Instant::category", [](Trace& t) { ++t.instants[0].category; }},
        {"Instant::scope", [](Trace& t) { t.instants[0].scope = 'q'; }},
        // CounterSeries
        {"CounterSeries::process", [](Trace& t) { ++t.counters[0].process; }},
        {"CounterSeries::name", [](Trace& t) { ++t.counters[0].name; }},
        {"CounterSeries::ts", [](Trace& t) { ++t.counters[0].ts[0]; }},
        {"CounterSeries::values", [](Trace& t) { t.counters[0].values[0] += 0.5; }},
        {"CounterSeries::memory", [](Trace& t) { t.counters[0].memory = MemoryCurve::Reserved; }},
        {"CounterSeries::memoryDevice", [](Trace& t) { ++t.counters[0].memoryDevice; }},
        {"CounterSeries::relative",
         [](Trace& t) { t.counters[0].relative = !t.counters[0].relative; }},
        // Flow
        {"Flow::from", [](Trace& t) { ++t.flows[0].from; }},
        {"Flow::to", [](Trace& t) { ++t.flows[0].to; }},
        {"Flow::name", [](Trace& t) { ++t.flows[0].name; }},
        {"Flow::category", [](Trace& t) { ++t.flows[0].category; }},
        {"Flow::kind",
         [](Trace& t) {
             t.flows[0].kind =
                 t.flows[0].kind == FlowKind::Launch ? FlowKind::Other : FlowKind::Launch;
         }},
        // GpuDevice
        {"GpuDevice::index", [](Trace& t) { ++t.gpuDevices[0].index; }},
        {"GpuDevice::name", [](Trace& t) { t.gpuDevices.at(0).name.push_back('x'); }},
        {"GpuDevice::tracks", [](Trace& t) { t.gpuDevices[0].tracks.push_back(0); }},
        {"GpuDevice::busy", [](Trace& t) { ++t.gpuDevices[0].busy[0].end; }},
        {"GpuDevice::instants", [](Trace& t) { t.gpuDevices[0].instants.push_back(0); }},
        {"GpuDevice::busyNs", [](Trace& t) { ++t.gpuDevices[0].busyNs; }},
        {"GpuDevice::group", [](Trace& t) { ++t.gpuDevices[0].group; }},
        // TraceRank (one added, then each field changed)
        {"TraceRank::rank", [](Trace& t) { ++t.ranks[0].rank; }, addRank},
        {"TraceRank::host", [](Trace& t) { t.ranks.at(0).host.push_back('h'); }, addRank},
        {"TraceRank::file", [](Trace& t) { t.ranks.at(0).file.push_back('f'); }, addRank},
        {"TraceRank::offset", [](Trace& t) { ++t.ranks[0].offset; }, addRank},
        {"TraceRank::firstProcess", [](Trace& t) { ++t.ranks[0].firstProcess; }, addRank},
        {"TraceRank::processCount", [](Trace& t) { ++t.ranks[0].processCount; }, addRank},
        {"TraceRank::firstTrack", [](Trace& t) { ++t.ranks[0].firstTrack; }, addRank},
        {"TraceRank::trackCount", [](Trace& t) { ++t.ranks[0].trackCount; }, addRank},
        {"TraceRank::firstSlice", [](Trace& t) { ++t.ranks[0].firstSlice; }, addRank},
        {"TraceRank::sliceCount", [](Trace& t) { ++t.ranks[0].sliceCount; }, addRank},
        {"TraceRank::gpuDevices", [](Trace& t) { t.ranks[0].gpuDevices.push_back(0); }, addRank},
        {"TraceRank::gpuLocalIndices", [](Trace& t) { t.ranks[0].gpuLocalIndices.push_back(0); },
         addRank},
        // ArgsRecord, ArgIds, LaunchParams
        {"ArgsRecord::offset", [](Trace& t) { ++t.args[0].offset; }},
        {"ArgsRecord::length", [](Trace& t) { --t.args[0].length; }},
        {"ArgsRecord::extracted", [](Trace& t) { ++t.args[0].extracted; }},
        {"ArgIds::correlation", [](Trace& t) { ++t.ids[0].correlation; }},
        {"ArgIds::externalId", [](Trace& t) { ++t.ids[0].externalId; }},
        {"ArgIds::device", [](Trace& t) { ++t.ids[0].device; }},
        {"ArgIds::stream", [](Trace& t) { ++t.ids[0].stream; }},
        {"ArgIds::launch", [](Trace& t) { ++t.ids[0].launch; }},
        {"ArgIds::stepNumber", [](Trace& t) { ++t.ids[0].stepNumber; }},
        {"LaunchParams::grid", [](Trace& t) { ++t.launches[0].grid[2]; }},
        {"LaunchParams::block", [](Trace& t) { ++t.launches[0].block[2]; }},
        {"LaunchParams::registersPerThread", [](Trace& t) { ++t.launches[0].registersPerThread; }},
        {"LaunchParams::occupancyPercent",
         [](Trace& t) { t.launches[0].occupancyPercent += 0.5f; }},
        {"LaunchParams::sharedMemory", [](Trace& t) { ++t.launches[0].sharedMemory; }},
        {"LaunchParams::bytes", [](Trace& t) { ++t.launches[0].bytes; }},
        {"OpShapes::args", [](Trace& t) { --t.opShapes.at(0).args; }},
        {"OpShapes::shapes", [](Trace& t) { --t.opShapes.at(0).shapes; }},
        {"OpShapes::flops", [](Trace& t) { t.opShapes.at(0).flops += 1; }},
        {"OpShapes::bytes", [](Trace& t) { t.opShapes.at(0).bytes += 1; }},
        {"CollectiveArgs::args", [](Trace& t) { ++t.collectives.at(0).args; }, addCollective},
        {"CollectiveArgs::name", [](Trace& t) { ++t.collectives.at(0).name; }, addCollective},
        {"CollectiveArgs::type", [](Trace& t) { ++t.collectives.at(0).type; }, addCollective},
        {"CollectiveArgs::reserved", [](Trace& t) { ++t.collectives.at(0).reserved; },
         addCollective},
        {"CollectiveArgs::inElements", [](Trace& t) { ++t.collectives.at(0).inElements; },
         addCollective},
        {"CollectiveArgs::outElements", [](Trace& t) { ++t.collectives.at(0).outElements; },
         addCollective},
        {"CollectiveArgs::groupSize", [](Trace& t) { ++t.collectives.at(0).groupSize; },
         addCollective},
        // ImportReport, ImportWarning
        {"ImportReport::events", [](Trace& t) { ++t.report.events; }},
        {"ImportReport::phases", [](Trace& t) { ++t.report.phases["X"]; }},
        {"ImportReport::skipped", [](Trace& t) { ++t.report.skipped["P"]; }},
        {"ImportReport::unknown", [](Trace& t) { ++t.report.unknown["?"]; }},
        {"ImportReport::withoutPhase", [](Trace& t) { ++t.report.withoutPhase; }},
        {"ImportReport::invalidEvents", [](Trace& t) { ++t.report.invalidEvents; }},
        {"ImportReport::unmatchedEnds", [](Trace& t) { ++t.report.unmatchedEnds; }},
        {"ImportReport::unclosedBegins", [](Trace& t) { ++t.report.unclosedBegins; }},
        {"ImportReport::overlapsMovedToLanes", [](Trace& t) { ++t.report.overlapsMovedToLanes; }},
        {"ImportReport::negativeDurations", [](Trace& t) { ++t.report.negativeDurations; }},
        {"ImportReport::unresolvedFlows", [](Trace& t) { ++t.report.unresolvedFlows; }},
        {"ImportReport::orphanFlowEvents", [](Trace& t) { ++t.report.orphanFlowEvents; }},
        {"ImportReport::orphanFlowSlices",
         [](Trace& t) { t.report.orphanFlowSlices.push_back(0); }},
        {"ImportReport::truncated", [](Trace& t) { t.report.truncated = !t.report.truncated; }},
        {"ImportReport::rankClockDisagreements",
         [](Trace& t) { ++t.report.rankClockDisagreements; }},
        {"ImportReport::warnings",
         [](Trace& t) {
             t.report.warnings.push_back({7, "w"});
         }},
        {"ImportReport::suppressedWarnings", [](Trace& t) { ++t.report.suppressedWarnings; }},
        {"ImportWarning::offset", [](Trace& t) { ++t.report.warnings[0].offset; }, addWarning},
        {"ImportWarning::message", [](Trace& t) { t.report.warnings.at(0).message.push_back('v'); },
         addWarning},
    };
}

// Left out of the dump on purpose: changing them must not change it.
std::vector<Change> fieldsLeftOut() {
    return {
        // Where and how the model was loaded, not what it holds: the same
        // model read from a copy, or restored from the index cache, dumps alike.
        {"Trace::path", [](Trace& t) { t.path += ".copy"; }},
        {"Trace::fileStamp", [](Trace& t) { ++t.fileStamp.mtimeNs; }},
        {"Trace::fromCache", [](Trace& t) { t.fromCache = !t.fromCache; }},
        {"ImportReport::eventsParsedAhead", [](Trace& t) { ++t.report.eventsParsedAhead; }},
        // Derived again after every load and cache read (indexRowBreaks,
        // the counters' extremes): not part of what was read.
        {"Track::rowBreaks", [](Trace& t) { t.tracks[0].rowBreaks.clear(); }},
        {"CounterSeries::extremes", [](Trace& t) { t.counters[0].extremes = MinMaxIndex(); }},
        // Trace::argsStore is shown through the args' text (ArgsRecord).
    };
}

// A fresh model of the bundled sample, which the test may change.
std::shared_ptr<const Trace> loadSample() {
    LoadResult r = loadTrace(test::samplePath().toStdString());
    return r.trace;
}

}  // namespace

class TestCanonicalDump : public QObject {
    Q_OBJECT
  private slots:
    void everyDumpedFieldShows_data() {
        QTest::addColumn<int>("which");
        const std::vector<Change> changes = dumpedFields();
        for (size_t i = 0; i < changes.size(); ++i)
            QTest::newRow(changes[i].field) << int(i);
    }

    void everyDumpedFieldShows() {
        QFETCH(int, which);
        const auto trace = loadSample();
        QVERIFY(trace);
        QVERIFY(!trace->processes.empty() && !trace->tracks.empty() && !trace->slices.empty() &&
                !trace->instants.empty() && !trace->counters.empty() && !trace->flows.empty() &&
                !trace->gpuDevices.empty() && !trace->launches.empty() && !trace->ids.empty() &&
                !trace->opShapes.empty());
        Trace& t = const_cast<Trace&>(*trace);  // this test's own copy
        const Change change = dumpedFields()[size_t(which)];
        if (change.prepare) change.prepare(t);
        // Without the args' text: every field of an args record is on its
        // own line (and reading the text back is what makes the dump slow).
        const DumpOptions options{.argsText = false, .onArgsError = {}};
        const std::string before = canonicalDump(t, options);
        change.apply(t);
        QVERIFY2(canonicalDump(t, options) != before, "the dump does not show this field");
    }

    void fieldsLeftOutDoNotShow_data() {
        QTest::addColumn<int>("which");
        const std::vector<Change> changes = fieldsLeftOut();
        for (size_t i = 0; i < changes.size(); ++i)
            QTest::newRow(changes[i].field) << int(i);
    }

    void fieldsLeftOutDoNotShow() {
        QFETCH(int, which);
        const auto trace = loadSample();
        QVERIFY(trace);
        Trace& t = const_cast<Trace&>(*trace);
        const std::string before = canonicalDump(t);
        fieldsLeftOut()[size_t(which)].apply(t);
        QVERIFY2(canonicalDump(t) == before, "a field left out of the dump shows in it");
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestCanonicalDump)
#include "tst_canonical_dump.moc"
