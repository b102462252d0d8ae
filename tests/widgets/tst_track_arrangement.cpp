// A person's arrangement of the timeline's rows, on the bundled sample
// (GPU streams, a Python process with its main thread and DataLoader
// workers): pinned rows come first and do not scroll, hidden ones go and
// come back, processes and tracks move by dragging and by the menu, the
// track filter keeps what its pattern names, and the arrangement comes
// back by name when the trace is opened again. The expected rows are
// worked out from the trace's own process and track lists.

#include <QMenu>
#include <QMouseEvent>
#include <QPainter>
#include <QScrollBar>
#include <QSettings>
#include <QStandardPaths>
#include <QTest>

#include "loader/loader.h"
#include "model/merge_traces.h"
#include "picture/picture.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "timeline/arrangement_settings.h"
#include "timeline/timeline_layout.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_view.h"
#include "timeline/view_state.h"

using namespace gapscope;
using namespace gapscope::ui;

namespace {

std::shared_ptr<const Trace> loadSample() {
    LoadResult r = loadTrace(test::samplePath().toStdString());
    if (!r.trace) return nullptr;
    return std::shared_ptr<const Trace>(std::move(r.trace));
}

// The track rows' tracks, in the order shown (each track once).
std::vector<uint32_t> shownTracks(const TimelineLayout& l, bool pinned) {
    std::vector<uint32_t> out;
    for (const DisplayRow& r : l.rows())
        if (r.kind == DisplayRow::Kind::Slices && r.row == 0 && r.pinned == pinned)
            out.push_back(r.track);
    return out;
}

std::vector<uint32_t> shownProcesses(const TimelineLayout& l) {
    std::vector<uint32_t> out;
    for (const DisplayRow& r : l.rows())
        if (r.kind == DisplayRow::Kind::ProcessHeader) out.push_back(r.process);
    return out;
}

// Tracks with slices, in the trace's own order: process by process.
std::vector<uint32_t> naturalTracks(const Trace& t) {
    std::vector<uint32_t> out;
    for (const Process& p : t.processes)
        for (const uint32_t tr : p.tracks)
            if (!t.tracks[tr].rows.empty()) out.push_back(tr);
    return out;
}

size_t rowIndexOf(const TimelineLayout& l, DisplayRow::Kind kind, uint32_t id) {
    for (size_t i = 0; i < l.rows().size(); ++i) {
        const DisplayRow& r = l.rows()[i];
        if (r.kind != kind) continue;
        if (kind == DisplayRow::Kind::ProcessHeader ? r.process == id
                                                    : r.track == id && r.firstOfTrack)
            return i;
    }
    return SIZE_MAX;
}

// The process with the most tracks that have slices (the GPU's streams).
uint32_t busiestProcess(const Trace& t) {
    uint32_t best = 0;
    size_t most = 0;
    for (uint32_t p = 0; p < t.processes.size(); ++p) {
        size_t n = 0;
        for (const uint32_t tr : t.processes[p].tracks)
            n += !t.tracks[tr].rows.empty();
        if (n > most) {
            most = n;
            best = p;
        }
    }
    return best;
}

}  // namespace

class TestTrackArrangement : public QObject {
    Q_OBJECT

    std::shared_ptr<const Trace> trace_;

  private slots:
    void initTestCase() {
        QStandardPaths::setTestModeEnabled(true);
        QSettings().remove(QStringLiteral("arrangements"));
        trace_ = loadSample();
        QVERIFY(trace_);
        QVERIFY2(trace_->processes.size() >= 2, "the sample has GPU and CPU processes");
        QVERIFY(tracksOf(busiestProcess(*trace_)).size() >= 3);
    }

    std::vector<uint32_t> tracksOf(uint32_t p) const {
        std::vector<uint32_t> out;
        for (const uint32_t tr : trace_->processes[p].tracks)
            if (!trace_->tracks[tr].rows.empty()) out.push_back(tr);
        return out;
    }

    void pinnedRowsComeFirstAndStay() {
        TimelineLayout l;
        l.setTrace(trace_);
        QCOMPARE(shownTracks(l, false), naturalTracks(*trace_));
        QCOMPARE(l.pinnedHeight(), 0);
        const int total = l.totalHeight();
        // Pin the last CPU thread (the DataLoader worker), then a GPU stream.
        uint32_t worker = kNone, stream = kNone;
        for (const uint32_t tr : naturalTracks(*trace_)) {
            const bool gpu = trace_->processes[trace_->tracks[tr].process].kind == ProcessKind::Gpu;
            (gpu ? stream : worker) = tr;
        }
        QVERIFY(stream != kNone && worker != kNone);
        l.setPinned({false, worker}, true);
        l.setPinned({false, stream}, true);
        QCOMPARE(l.rows().front().kind, DisplayRow::Kind::PinnedHeader);
        QCOMPARE(shownTracks(l, true), (std::vector<uint32_t>{worker, stream}));
        std::vector<uint32_t> rest = naturalTracks(*trace_);
        std::erase(rest, worker);
        std::erase(rest, stream);
        QCOMPARE(shownTracks(l, false), rest);
        // Same rows, another place: the height grows only by the header.
        QCOMPARE(l.totalHeight(), total + TimelineLayout::kHeaderHeight);
        const DisplayRow& last = l.rows()[l.pinnedRows() - 1];
        QCOMPARE(l.pinnedHeight(), last.y + last.height);
        // On screen the pinned rows do not scroll; the rest scroll under them.
        for (const int scroll : {0, 37, 400}) {
            for (size_t i = 0; i < l.pinnedRows(); ++i) {
                const DisplayRow& r = l.rows()[i];
                QCOMPARE(l.screenY(r.y, scroll), r.y);
                QCOMPARE(l.rowAtScreen(r.y + r.height / 2, scroll), int(i));
            }
            // The first row wholly below the pinned ones at this scroll.
            size_t below = l.pinnedRows();
            while (below < l.rows().size() && l.rows()[below].y - scroll < l.pinnedHeight())
                ++below;
            QVERIFY(below < l.rows().size());
            const DisplayRow& r = l.rows()[below];
            QCOMPARE(l.screenY(r.y, scroll), r.y - scroll);
            QCOMPARE(l.rowAtScreen(r.y - scroll + 1, scroll), int(below));
            // What scrolled under the pinned rows is not hit there.
            QVERIFY(l.rowAtScreen(l.pinnedHeight() - 1, scroll) < int(l.pinnedRows()));
        }
        // A slice of a pinned track is found in the pinned rows.
        const uint32_t slice = trace_->tracks[worker].rows[0].begin;
        QVERIFY(l.yOfSlice(slice) >= 0 && l.yOfSlice(slice) < l.pinnedHeight());
        // The pinned order changes by a drop among the pinned rows.
        const size_t streamRow = rowIndexOf(l, DisplayRow::Kind::Slices, stream);
        const auto drop = l.dropAt(streamRow, 0);
        QVERIFY(drop);
        l.drop(*drop);
        QCOMPARE(shownTracks(l, true), (std::vector<uint32_t>{stream, worker}));
        l.setPinned({false, worker}, false);
        l.setPinned({false, stream}, false);
        QCOMPARE(shownTracks(l, false), naturalTracks(*trace_));
        QCOMPARE(l.totalHeight(), total);
    }

    // Pinned rows taller than the limit (half the view) scroll with the
    // rest, so that every row stays reachable.
    void tooManyPinnedRowsScrollWithTheRest() {
        TimelineLayout l;
        l.setTrace(trace_);
        for (const uint32_t tr : naturalTracks(*trace_))
            l.setPinned({false, tr}, true);
        const int all = l.pinnedHeight();
        QVERIFY(all > 100);
        l.setStickyLimit(all - 1);
        QCOMPARE(l.pinnedHeight(), 0);
        QCOMPARE(l.pinnedRows(), size_t(0));
        QCOMPARE(l.screenY(50, 30), 20);  // scrolled like any row
        l.setStickyLimit(all);
        QCOMPARE(l.pinnedHeight(), all);
    }

    void hiddenRowsGoAndComeBack() {
        TimelineLayout l;
        l.setTrace(trace_);
        const std::vector<DisplayRow> before = l.rows();
        const uint32_t p = busiestProcess(*trace_);
        const uint32_t track = tracksOf(p)[1];
        l.setHidden({false, track}, true);
        std::vector<uint32_t> expected = naturalTracks(*trace_);
        std::erase(expected, track);
        QCOMPARE(shownTracks(l, false), expected);
        QCOMPARE(l.hiddenCount(), size_t(1));
        // A hidden process takes its header and every track with it.
        uint32_t gpu = kNone;
        for (uint32_t q = 0; q < trace_->processes.size(); ++q)
            if (trace_->processes[q].kind == ProcessKind::Gpu) gpu = q;
        QVERIFY(gpu != kNone);
        l.setProcessHidden(gpu, true);
        const std::vector<uint32_t> left = shownProcesses(l);
        QVERIFY(std::find(left.begin(), left.end(), gpu) == left.end());
        for (const uint32_t tr : tracksOf(gpu))
            std::erase(expected, tr);
        QCOMPARE(shownTracks(l, false), expected);
        QCOMPARE(l.hiddenCount(), size_t(2));
        l.showAllHidden();
        QCOMPARE(l.hiddenCount(), size_t(0));
        QCOMPARE(l.rows().size(), before.size());
        QCOMPARE(shownTracks(l, false), naturalTracks(*trace_));
    }

    void processesAndTracksMoveByDropAndMenu() {
        TimelineLayout l;
        l.setTrace(trace_);
        const std::vector<uint32_t> processes = shownProcesses(l);
        QVERIFY(processes.size() >= 2);
        // Drag the last process's header onto the top half of the first's.
        const uint32_t last = processes.back(), first = processes.front();
        const size_t from = rowIndexOf(l, DisplayRow::Kind::ProcessHeader, last);
        const auto drop =
            l.dropAt(from, l.rows()[rowIndexOf(l, DisplayRow::Kind::ProcessHeader, first)].y + 2);
        QVERIFY(drop);
        l.drop(*drop);
        std::vector<uint32_t> expected = processes;
        expected.pop_back();
        expected.insert(expected.begin(), last);
        QCOMPARE(shownProcesses(l), expected);
        // Down one step by the menu's drop: back behind the next one.
        const auto down = l.moveStep(rowIndexOf(l, DisplayRow::Kind::ProcessHeader, last), +1);
        QVERIFY(down);
        l.drop(*down);
        std::swap(expected[0], expected[1]);
        QCOMPARE(shownProcesses(l), expected);
        QVERIFY(!l.moveStep(rowIndexOf(l, DisplayRow::Kind::ProcessHeader, expected.front()), -1));

        // Tracks move within their process: the first below the last.
        const uint32_t p = busiestProcess(*trace_);
        const std::vector<uint32_t> tracks = tracksOf(p);
        const size_t firstTrack = rowIndexOf(l, DisplayRow::Kind::Slices, tracks.front());
        const auto toEnd = l.dropAt(firstTrack, l.processExtent(p).second + 500);
        QVERIFY(toEnd);
        l.drop(*toEnd);
        std::vector<uint32_t> own;
        for (const uint32_t tr : shownTracks(l, false))
            if (trace_->tracks[tr].process == p) own.push_back(tr);
        std::vector<uint32_t> moved(tracks.begin() + 1, tracks.end());
        moved.push_back(tracks.front());
        QCOMPARE(own, moved);
        // Not into another process: a track's drops stay in its own.
        for (size_t r = 0; r < l.rows().size(); ++r) {
            const auto d =
                l.dropAt(rowIndexOf(l, DisplayRow::Kind::Slices, tracks[1]), l.rows()[r].y);
            QVERIFY(d);
            QVERIFY(d->before == l.rows().size() || l.rows()[d->before].process == p);
        }
        // Collapse all and expand all.
        l.setAllCollapsed(true);
        QCOMPARE(shownTracks(l, false).size(), size_t(0));
        l.setAllCollapsed(false);
        QCOMPARE(shownTracks(l, false).size(), naturalTracks(*trace_).size());
    }

    void theArrangementComesBackByName() {
        TimelineLayout l;
        l.setTrace(trace_);
        const uint32_t p = busiestProcess(*trace_);
        const std::vector<uint32_t> tracks = tracksOf(p);
        l.setPinned({false, tracks[2]}, true);
        l.setHidden({false, tracks[1]}, true);
        l.moveTrack(tracks[0], kNone);
        l.moveProcess(p, shownProcesses(l).front());
        l.toggleTrack(tracks[0]);
        const TrackArrangement arranged = l.arrangement();
        // Another load of the same file (new indices could differ; names do not).
        const auto again = loadSample();
        QVERIFY(again);
        const QString path = QDir::temp().filePath(QStringLiteral("arranged.pt.trace.json.gz"));
        saveArrangement(path, *trace_, arranged);
        const TrackArrangement restored = loadArrangement(path, *again);
        QCOMPARE(restored.pinned, arranged.pinned);
        QCOMPARE(restored.hidden, arranged.hidden);
        QCOMPARE(restored.processOrder, arranged.processOrder);
        QCOMPARE(restored.collapsedTracks, arranged.collapsedTracks);
        TimelineLayout back;
        back.setTrace(again);
        back.setArrangement(restored);
        QCOMPARE(shownTracks(back, true), shownTracks(l, true));
        QCOMPARE(shownTracks(back, false), shownTracks(l, false));
        QCOMPARE(shownProcesses(back), shownProcesses(l));
        // Another file has no arrangement; names it lacks are dropped.
        QVERIFY(loadArrangement(path + "x", *again).empty());
        QVariantMap saved = arrangementToVariant(*trace_, arranged);
        saved["pinned"] = QStringList{QStringLiteral("no such process/no such thread")};
        QVERIFY(arrangementFromVariant(*again, saved).pinned.empty());
        // Undone, it is forgotten.
        saveArrangement(path, *trace_, {});
        QVERIFY(loadArrangement(path, *again).empty());
    }

    void anExportedPictureIsArrangedAsTheView() {
        TimelineLayout l;
        l.setTrace(trace_);
        const uint32_t p = busiestProcess(*trace_);
        const auto [top, bottom] = l.processExtent(p);
        PictureSpec spec;
        spec.trace = trace_;
        spec.range = {trace_->spanStart, trace_->spanEnd};
        const int full = pictureSize(spec).height();
        spec.arrangement.hiddenProcesses = {p};
        QCOMPARE(pictureSize(spec).height(), full - (bottom - top));
        // Pinned rows come first in the picture too: one header more.
        spec.arrangement = {};
        spec.arrangement.pinned = {{false, tracksOf(p).back()}};
        QCOMPARE(pictureSize(spec).height(), full + TimelineLayout::kHeaderHeight);
    }

    void theFilterKeepsWhatItNames() {
        ViewState state;
        TimelineView view(&state);
        view.resize(1200, 700);
        view.setTrace(trace_);
        const Trace& t = *trace_;
        // A plain word: the tracks whose thread or process name holds it.
        const QString word =
            QString::fromStdString(t.tracks[tracksOf(busiestProcess(t))[1]].displayName)
                .section(' ', 0, 0);
        QVERIFY(!word.isEmpty());
        std::vector<uint32_t> expected;
        for (const uint32_t tr : naturalTracks(t)) {
            const QString where = QString::fromStdString(
                t.processes[t.tracks[tr].process].displayName + " " + t.tracks[tr].displayName);
            if (where.contains(word, Qt::CaseInsensitive)) expected.push_back(tr);
        }
        QVERIFY(!expected.empty() && expected.size() < naturalTracks(t).size());
        view.setTrackFilter(word);
        QCOMPARE(shownTracks(view.layout(), false), expected);
        // A regex alternation: GPU processes or that word.
        std::vector<uint32_t> either;
        for (const uint32_t tr : naturalTracks(t))
            if (t.processes[t.tracks[tr].process].kind == ProcessKind::Gpu ||
                std::ranges::find(expected, tr) != expected.end())
                either.push_back(tr);
        view.setTrackFilter(QStringLiteral("^GPU \\d|") + word);
        QCOMPARE(shownTracks(view.layout(), false), either);
        // Nothing matches: nothing shown, and the count says so.
        QCOMPARE(view.setTrackFilter(QStringLiteral("no such track anywhere")), 0);
        QVERIFY(view.layout().rows().empty());
        // Not a regex: matched as text, not refused.
        view.setTrackFilter(QStringLiteral("(unclosed"));
        QVERIFY(view.layout().rows().empty());
        view.setTrackFilter({});
        QCOMPARE(shownTracks(view.layout(), false), naturalTracks(t));
    }

    // Ranks of a job: "rank 1 · …" names a rank's processes, so a filter
    // keeps one rank's GPU and another's main thread; pinned rows say
    // which rank they come from, once.
    void ranksAreFilteredAndPinnedByName() {
        std::vector<RankPart> parts;
        for (int64_t r = 0; r < 2; ++r) {
            LoadResult one = loadTrace(test::samplePath().toStdString());
            QVERIFY(one.trace);
            parts.push_back({r,
                             "host",
                             "rank" + std::to_string(r) + ".json",
                             0,
                             std::const_pointer_cast<Trace>(std::move(one.trace)),
                             {}});
        }
        const std::shared_ptr<const Trace> job = mergeRankTraces(std::move(parts), "job");
        ViewState state;
        TimelineView view(&state);
        view.resize(1200, 700);
        view.setTrace(job);
        const Trace& t = *job;
        std::vector<uint32_t> expected;  // rank 1's GPU streams, rank 0's Python threads
        for (const uint32_t tr : naturalTracks(t)) {
            const Process& p = t.processes[t.tracks[tr].process];
            if ((p.group == 1 && p.kind == ProcessKind::Gpu) ||
                (p.group == 0 && t.tracks[tr].displayName.find("python3") != std::string::npos))
                expected.push_back(tr);
        }
        QVERIFY(!expected.empty());
        view.setTrackFilter(QStringLiteral("rank 1 · GPU|rank 0 · .*› python3"));
        QCOMPARE(shownTracks(view.layout(), false), expected);
        const auto gpuTrack = std::find_if(expected.begin(), expected.end(), [&](uint32_t tr) {
            return t.processes[t.tracks[tr].process].kind == ProcessKind::Gpu;
        });
        QVERIFY(gpuTrack != expected.end());
        TrackArrangement pinned;
        pinned.pinned = {{false, *gpuTrack}};
        view.setArrangement(pinned);
        QCOMPARE(shownTracks(view.layout(), true), std::vector<uint32_t>{*gpuTrack});
        const QString label = itemPrefix(t, t.tracks[*gpuTrack].process);
        QVERIFY2(label.startsWith(QStringLiteral("rank 1 · GPU 0")) && label.count("rank") == 1,
                 qPrintable(label));
    }

    void theGutterDragsAndItsMenuActs() {
        ViewState state;
        TimelineView view(&state);
        view.resize(1200, 200);  // smaller than the rows: it scrolls
        view.setTrace(trace_);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QSignalSpy changed(&view, &TimelineView::arrangementChanged);
        const TimelineLayout& l = view.layout();
        const std::vector<uint32_t> processes = shownProcesses(l);
        // Drag the second process's header above the first.
        const DisplayRow second =
            l.rows()[rowIndexOf(l, DisplayRow::Kind::ProcessHeader, processes[1])];
        const QPoint from(40, second.y + second.height / 2), to(40, 3);
        QTest::mousePress(&view, Qt::LeftButton, {}, from);
        for (int step = 1; step <= 4; ++step) {
            QMouseEvent move(QEvent::MouseMove, from + (to - from) * step / 4,
                             view.mapToGlobal(from + (to - from) * step / 4), Qt::NoButton,
                             Qt::LeftButton, Qt::NoModifier);
            QApplication::sendEvent(&view, &move);
        }
        QTest::mouseRelease(&view, Qt::LeftButton, {}, to);
        QCOMPARE(shownProcesses(l)[0], processes[1]);
        QCOMPARE(shownProcesses(l)[1], processes[0]);
        QCOMPARE(changed.count(), 1);

        // The menu of a track: pin it; of the pinned header: unpin all.
        const uint32_t track = tracksOf(busiestProcess(*trace_)).back();
        const int trackY = l.rows()[rowIndexOf(l, DisplayRow::Kind::Slices, track)].y;
        view.findChild<QScrollBar*>()->setValue(trackY - 40);
        const int y = trackY - view.findChild<QScrollBar*>()->value();
        auto trigger = [&](int atY, const QString& prefix) {
            QMenu menu;
            view.fillGutterMenu(menu, atY);
            for (QAction* a : menu.actions())
                if (a->text().startsWith(prefix) && a->isEnabled()) {
                    a->trigger();
                    return true;
                }
            return false;
        };
        QVERIFY(y > 0 && y < view.height());
        QVERIFY(trigger(y + 2, QStringLiteral("Pin ")));
        QCOMPARE(shownTracks(l, true), std::vector<uint32_t>{track});
        QCOMPARE(changed.count(), 2);
        // Scrolled to the end, the pinned row is still drawn at the top.
        QScrollBar* bar = view.findChild<QScrollBar*>();
        const QImage top = view.grab(QRect(0, 0, 1100, l.pinnedHeight())).toImage();
        bar->setValue(bar->maximum());
        QVERIFY(bar->value() > 0);
        QCOMPARE(view.grab(QRect(0, 0, 1100, l.pinnedHeight())).toImage(), top);
        QVERIFY(trigger(4, QStringLiteral("Unpin all")));
        QVERIFY(shownTracks(l, true).empty());
        QVERIFY(trigger(view.height() - 5, QStringLiteral("Collapse all")));
        QVERIFY(shownTracks(l, false).empty());
        QVERIFY(trigger(5, QStringLiteral("Reset the arrangement")));
        QCOMPARE(shownTracks(l, false), naturalTracks(*trace_));
        QCOMPARE(shownProcesses(l), processes);
    }
};

GAPSCOPE_TEST_MAIN(TestTrackArrangement)
#include "tst_track_arrangement.moc"
