// The allocator's events paired into allocations (analysis/memory_
// allocations.h) and what holds memory (analysis/memory_held.h), on the
// planted traces of tests/tools/make_planted_memory.py: every expected
// number is the arithmetic of that description, written out here. (Real
// traces are compared with an independent Python reference:
// tests/tools/memory_reference.py.)

#include <QTest>

#include "analysis/memory_held.h"
#include "analysis/steps.h"
#include "loader/loader.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;

namespace {

constexpr int64_t KiB = 1024, MiB = 1024 * KiB;
constexpr TimeNs us = 1000;

std::shared_ptr<const Trace> load(const char* name) {
    const LoadResult r =
        loadTrace(test::fixture(QStringLiteral("memory/") + QLatin1String(name)).toStdString());
    if (!r.trace) QTest::qFail("did not load", __FILE__, __LINE__);
    return r.trace;
}

std::string opOf(const Trace& t, const MemoryAllocations& m, uint32_t allocation) {
    return allocatingOp(t, m, m.allocations[allocation]);
}

}  // namespace

class TestMemory : public QObject {
    Q_OBJECT

  private slots:
    void pairsThePlantedAllocations() {
        const auto t = load("planted.json");
        const MemoryAllocations m = pairAllocations(*t);
        QCOMPARE(m.allocators.size(), size_t(1));
        const MemoryAllocator& gpu = m.allocators[0];
        QCOMPARE(gpu.name(), std::string("GPU 0"));
        // Per step 1 MiB, 64 KiB, 512 KiB and their two frees (the 64 KiB
        // never); step 3 8 MiB and its free; step 4 two more frees.
        QCOMPARE(gpu.events.size(), size_t(4 * 5 + 2 + 2));
        QCOMPARE(m.allocations.size(), size_t(4 * 3 + 1));
        QVERIFY(gpu.totalsRecorded && gpu.reservedRecorded);
        QCOMPARE(gpu.before, 2 * MiB);
        // After step k: 2 MiB + k·64 KiB; in step 3 at S+345 the 8 MiB on
        // top of 2 MiB + 2·64 KiB + 1 MiB + 64 KiB.
        QCOMPARE(gpu.peakAllocated, 11 * MiB + 192 * KiB);
        QCOMPARE(t->memoryEvents[gpu.peakEvent].ts, 3345 * us);
        QCOMPARE(gpu.reservedAtPeak, 32 * MiB);
        QCOMPARE(gpu.peakReserved, 32 * MiB);
        // The least allocated: 256 KiB after the 2 MiB's free in step 4.
        QCOMPARE(gpu.mostUnused, 32 * MiB - 256 * KiB);
        QCOMPARE(t->memoryEvents[gpu.mostUnusedEvent].ts, 4950 * us);
        QCOMPARE(m.allocations[gpu.largestAllocation].bytes, 8 * MiB);
        // What did not pair: the 2 MiB from before the trace, the 512 KiB
        // freed twice; the allocator did not count the second free.
        QCOMPARE(gpu.unknownFrees, size_t(2));
        QCOMPARE(gpu.freedAgain, size_t(1));
        QCOMPARE(gpu.totalsDisagree, size_t(1));
        QCOMPARE(gpu.allocatedWhileAlive, size_t(0));
        QCOMPARE(gpu.sizeMismatches, size_t(0));
        QCOMPARE(gpu.withoutAddress, size_t(0));
        QCOMPARE(m.unknownFrees.size(), size_t(2));
    }

    void attributesToOpModuleAndPhase() {
        const auto t = load("planted.json");
        const MemoryAllocations m = pairAllocations(*t);
        // Step 1's, in time order: the 1 MiB, the 64 KiB, the 512 KiB.
        QCOMPARE(m.allocations[0].bytes, 1 * MiB);
        QCOMPARE(opOf(*t, m, 0), std::string("Net_0 › aten::empty"));
        QCOMPARE(m.allocations[0].phase, MemoryPhase::Forward);
        QCOMPARE(opOf(*t, m, 1), std::string("Net_0 › aten::cat"));
        QCOMPARE(m.allocations[2].bytes, 512 * KiB);
        QCOMPARE(opOf(*t, m, 2), std::string("aten::mm"));
        QCOMPARE(m.allocations[2].phase, MemoryPhase::Backward);
        // Lifetimes: the 1 MiB freed by the backward at S+600, the 512 KiB
        // by the optimizer at S+850; the 64 KiB never.
        QCOMPARE(t->memoryEvents[m.allocations[0].freeEvent].ts, 1600 * us);
        QCOMPARE(t->memoryEvents[m.allocations[2].freeEvent].ts, 1850 * us);
        QCOMPARE(m.allocations[1].freeEvent, kNone);
        // The 8 MiB: outside the module frame, inside the step.
        const auto spike = std::find_if(m.allocations.begin(), m.allocations.end(),
                                        [](const Allocation& a) { return a.bytes == 8 * MiB; });
        QCOMPARE(allocatingOp(*t, m, *spike), std::string("aten::zeros"));
        QCOMPARE(spike->phase, MemoryPhase::Forward);
    }

    void aliveAtThePeakIsThePlantedSet() {
        const auto t = load("planted.json");
        const MemoryAllocations m = pairAllocations(*t);
        const HeldAt h = heldAt(*t, m, 0, m.allocators[0].peakEvent);
        // Step 3's 1 MiB, the 64 KiB of steps 1-3, the 8 MiB; 2 MiB from
        // before the trace.
        QCOMPARE(h.alive.size(), size_t(5));
        QCOMPARE(h.known, 9 * MiB + 192 * KiB);
        QCOMPARE(h.allocated, 11 * MiB + 192 * KiB);
        QCOMPARE(h.beforeTrace, 2 * MiB);
        QCOMPARE(h.reserved, 32 * MiB);
        QCOMPARE(m.allocations[h.alive[0]].bytes, 8 * MiB);  // the largest first
        const std::vector<HeldGroup> byOp = groupHeld(*t, m, h.alive, HeldBy::Op);
        QCOMPARE(byOp.size(), size_t(3));
        QCOMPARE(byOp[0].name, std::string("aten::zeros"));
        QCOMPARE(byOp[0].bytes, 8 * MiB);
        QCOMPARE(byOp[1].name, std::string("Net_0 › aten::empty"));
        QCOMPARE(byOp[1].bytes, 1 * MiB);
        QCOMPARE(byOp[2].name, std::string("Net_0 › aten::cat"));
        QCOMPARE(byOp[2].allocations, size_t(3));
        QCOMPARE(byOp[2].bytes, 192 * KiB);
        const std::vector<HeldGroup> byPhase = groupHeld(*t, m, h.alive, HeldBy::Phase);
        QCOMPARE(byPhase.size(), size_t(1));
        QCOMPARE(byPhase[0].name, std::string("forward"));
    }

    // At 2600 µs (step 2, after the backward freed the 1 MiB, before the
    // optimizer freed the 512 KiB): the 64 KiB of steps 1-2 and step 2's
    // 512 KiB; the time between events is the last event's.
    void aliveAtAMomentAskedFor() {
        const auto t = load("planted.json");
        const MemoryAllocations m = pairAllocations(*t);
        const uint32_t e = MemoryAllocations::eventAt(*t, 2600 * us);
        QCOMPARE(t->memoryEvents[e].ts, 2600 * us);
        const HeldAt h = heldAt(*t, m, 0, e);
        QCOMPARE(h.alive.size(), size_t(3));
        QCOMPARE(h.known, 128 * KiB + 512 * KiB);
        QCOMPARE(h.allocated, 2 * MiB + 128 * KiB + 512 * KiB);
        QCOMPARE(heldAt(*t, m, 0, MemoryAllocations::eventAt(*t, 2700 * us)).known, h.known);
        // Before the first event: only what was there before the trace.
        QCOMPARE(MemoryAllocations::eventAt(*t, 0), kNone);
        QCOMPARE(heldAt(*t, m, 0, kNone).allocated, 2 * MiB);
    }

    // The band under the curve: the two largest groups at the peak, then
    // the rest, over time.
    void theBandFollowsTheGroupsOverTime() {
        const auto t = load("planted.json");
        const MemoryAllocations m = pairAllocations(*t);
        const HeldBand band = heldBand(*t, m, 0, m.allocators[0].peakEvent, 2);
        QCOMPARE(band.names,
                 (std::vector<std::string>{"aten::zeros", "Net_0 › aten::empty", "other"}));
        QCOMPARE(band.ts.size(), m.allocators[0].events.size());
        const auto at = [&](TimeNs ts) {  // the index of the event at that time
            return size_t(std::find(band.ts.begin(), band.ts.end(), ts) - band.ts.begin());
        };
        const size_t peak = at(3345 * us);
        QCOMPARE(band.bytes[0][peak], 8 * MiB);
        QCOMPARE(band.bytes[1][peak], 1 * MiB);
        QCOMPARE(band.bytes[2][peak], 192 * KiB);  // the 64 KiB of steps 1-3
        // Step 2 after the backward: no 1 MiB; 128 KiB and the 512 KiB in "other".
        QCOMPARE(band.bytes[1][at(2600 * us)], 0);
        QCOMPARE(band.bytes[2][at(2600 * us)], 128 * KiB + 512 * KiB);
        // At the end: the four 64 KiB never freed.
        QCOMPARE(band.bytes[0].back(), 0);
        QCOMPARE(band.bytes[2].back(), 256 * KiB);
    }

    void theLeakIsFoundWithItsOp() {
        const auto t = load("planted.json");
        const MemoryAllocations m = pairAllocations(*t);
        const std::vector<Step> steps = findSteps(*t).steps;
        QCOMPARE(steps.size(), size_t(4));
        const MemoryLeaks leaks = memoryLeaks(*t, m, steps);
        QCOMPARE(leaks.neverFreed.size(), size_t(4));
        QCOMPARE(leaks.perStep.size(), size_t(4));
        for (size_t k = 0; k < 4; ++k) {
            const StepLeftover& s = leaks.perStep[k];
            QCOMPARE(s.step, k);
            QCOMPARE(s.allocations, size_t(k == 2 ? 4 : 3));
            QCOMPARE(s.bytes, MiB + 64 * KiB + 512 * KiB + (k == 2 ? 8 * MiB : 0));
            QCOMPARE(s.judged, k < 3);  // the last step has no next step to outlive
            if (!s.judged) continue;
            QCOMPARE(s.left.size(), size_t(1));  // the 64 KiB: all else is freed in time
            QCOMPARE(s.leftBytes, 64 * KiB);
        }
        QCOMPARE(leaks.candidates.size(), size_t(1));
        const LeakCandidate& c = leaks.candidates[0];
        QCOMPARE(c.op, std::string("Net_0 › aten::cat"));
        QCOMPARE(c.steps, size_t(3));
        QCOMPARE(c.allocations, size_t(3));
        QCOMPARE(c.bytes, 192 * KiB);
        QCOMPARE(c.neverFreed, size_t(3));
    }

    // Nothing here pairs cleanly; nothing crashes and every oddity counts.
    void hostileEventsAreCountedNotGuessed() {
        const auto t = load("hostile.json");
        // A change of INT64_MIN bytes reads as none (the reader's mark
        // for a missing "Bytes"): 8 events. The addresses -1 and 2^64-1
        // are no addresses.
        QCOMPARE(t->memoryEvents.size(), size_t(8));
        const MemoryAllocations m = pairAllocations(*t);
        QCOMPARE(m.allocators.size(), size_t(1));
        const MemoryAllocator& a = m.allocators[0];
        QVERIFY(!a.totalsRecorded);
        QCOMPARE(a.withoutAddress, size_t(3));
        QCOMPARE(a.allocatedWhileAlive, size_t(1));
        // 0x1000's second allocation freed with -100 (not 8192).
        QCOMPARE(a.sizeMismatches, size_t(1));
        QCOMPARE(a.unknownFrees, size_t(0));
        QCOMPARE(m.allocations.size(), size_t(4));
        QCOMPARE(m.allocations[0].freeEvent, 1u);  // ended where its address came again
        QVERIFY(m.allocations[0].endedByReuse);
        // The running total saturates instead of wrapping.
        QCOMPARE(a.peakAllocated, INT64_MAX);
    }
};

GAPSCOPE_TEST_MAIN(TestMemory)
#include "tst_memory.moc"
