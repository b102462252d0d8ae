#include "bench_interaction.h"

#include <QApplication>
#include <QMouseEvent>
#include <cstdio>

#include "analysis/slice_queries.h"
#include "bench_common.h"
#include "loader/loader.h"
#include "main_window.h"
#include "panels/details_panel.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

namespace gapscope::bench {

namespace {

// Processes events until `done` or the timeout; false on timeout.
template <class Done>
bool waitFor(Done done, double timeoutS) {
    const auto t0 = Clock::now();
    while (!done()) {
        if (seconds(t0, Clock::now()) > timeoutS) return false;
        QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    return true;
}

void send(QWidget* w, QEvent::Type type, QPoint at, Qt::MouseButtons buttons) {
    QMouseEvent e(type, QPointF(at), w->mapToGlobal(QPointF(at)),
                  type == QEvent::MouseMove ? Qt::NoButton : Qt::LeftButton, buttons,
                  Qt::ShiftModifier);
    QApplication::sendEvent(w, &e);
}

struct DragFigures {
    std::vector<double> handlerMs;      // the event itself (handler + signals + hand-over)
    std::vector<double> withPaintMs;    // the event plus the repaint it caused
    double summaryAfterReleaseMs = -1;  // until the last range's summary is shown
};

DragFigures dragInWindow(const std::string& path, int moves) {
    DragFigures f;
    app::MainWindow window;
    window.setInteractive(false);
    window.disableCacheForSession();
    window.resize(1600, 1000);
    window.show();
    window.openTrace(QString::fromStdString(path));
    if (!waitFor([&] { return window.tracePage()->trace() != nullptr; }, 600)) return f;
    waitFor([] { return false; }, 0.3);  // let the first paints settle
    ui::TimelineView* view = window.tracePage()->timeline();
    const int y = view->height() / 2;
    const int x0 = view->width() * 3 / 10, x1 = view->width() * 9 / 10;
    send(view, QEvent::MouseButtonPress, {x0, y}, Qt::LeftButton);
    for (int i = 1; i <= moves; ++i) {
        const QPoint at(x0 + (x1 - x0) * i / moves, y);
        const auto t0 = Clock::now();
        send(view, QEvent::MouseMove, at, Qt::LeftButton);
        f.handlerMs.push_back(msSince(t0));
        QApplication::processEvents();  // the repaint, and any summary that arrived
        f.withPaintMs.push_back(msSince(t0));
    }
    send(view, QEvent::MouseButtonRelease, {x1, y}, Qt::NoButton);
    const auto released = Clock::now();
    if (waitFor([&] { return !window.details()->summarising(); }, 120))
        f.summaryAfterReleaseMs = msSince(released);
    return f;
}

}  // namespace

void printInteraction(const std::vector<std::string>& files, bool quick) {
    std::printf(
        "\n| file | load s | range summary, whole trace ms | range summary, 1 %% ms | drag "
        "events | GUI ms per drag event (median / max) | with repaint (median / max) | summary "
        "shown after release ms |\n|---|---|---|---|---|---|---|---|\n");
    for (const std::string& path : files) {
        LoadOptions options;  // no cache: the load time is this run's reference
        const auto t0 = Clock::now();
        const LoadResult r = loadTrace(path, options);
        const double loadS = seconds(t0, Clock::now());
        if (!r.trace) continue;
        const Trace& t = *r.trace;
        std::vector<double> whole, onePercent;
        for (int i = 0; i < (quick ? 1 : 3); ++i) {
            const auto a = Clock::now();
            summarizeRange(t, t.spanStart, t.spanEnd);
            whole.push_back(msSince(a));
        }
        const TimeNs span = t.spanEnd - t.spanStart, mid = t.spanStart + span / 2;
        for (int i = 0; i < (quick ? 3 : 9); ++i) {
            const auto a = Clock::now();
            summarizeRange(t, mid - span / 200, mid + span / 200);
            onePercent.push_back(msSince(a));
        }
        const int moves = quick ? 20 : 100;
        const DragFigures d = dragInWindow(path, moves);
        std::printf("| %s | %.2f | %.1f | %.2f | %zu | %.3f / %.3f | %.1f / %.1f | %.0f |\n",
                    path.c_str(), loadS, median(whole), median(onePercent), d.handlerMs.size(),
                    median(d.handlerMs), maximum(d.handlerMs), median(d.withPaintMs),
                    maximum(d.withPaintMs), d.summaryAfterReleaseMs);
        std::fflush(stdout);
    }
}

}  // namespace gapscope::bench
