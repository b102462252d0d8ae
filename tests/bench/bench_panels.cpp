#include "bench_panels.h"

#include <QApplication>
#include <QTimer>
#include <cstdio>

#include "bench_common.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "panels/analysis_panel.h"
#include "panels/panel_host.h"
#include "timed_application.h"
#include "trace_page.h"

namespace gapscope::bench {

namespace {

// The GUI thread's largest gap between two ticks of a 1 ms timer, and the
// CPU time the thread had in it (the rest it was not running: a busy core,
// a page fault, a lock).
class StallMeter {
  public:
    StallMeter() {
        timer_.setInterval(1);
        QObject::connect(&timer_, &QTimer::timeout, [this] {
            const auto now = Clock::now();
            const double cpu = threadCpuMs();
            const double gap = seconds(last_, now) * 1000;
            if (gap > worst_.ms) worst_ = {gap, cpu - lastCpu_};
            last_ = now;
            lastCpu_ = cpu;
        });
    }
    struct Stall {
        double ms = 0;
        double cpuMs = 0;
    };
    void start() {
        worst_ = {};
        last_ = Clock::now();
        lastCpu_ = threadCpuMs();
        timer_.start();
    }
    Stall stop() {
        timer_.stop();
        return worst_;
    }

  private:
    QTimer timer_;
    Clock::time_point last_;
    double lastCpu_ = 0;
    Stall worst_;
};

bool settled(ui::PanelHost* host) {
    if (!host->session()->indexed()) return false;
    for (ui::AnalysisPanel* p : host->panels())
        if (p->computing()) return false;
    return true;
}

// Processes events until every panel is done; ms, or -1 after a timeout.
double untilSettled(ui::PanelHost* host) {
    const auto t0 = Clock::now();
    while (!settled(host)) {
        if (seconds(t0, Clock::now()) > 600) return -1;
        QApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return msSince(t0);
}

}  // namespace

void printPanels(const std::vector<std::string>& files) {
    std::printf(
        "\n| file | load s | panels in view, whole trace, after the load ms | opening each "
        "other panel, whole trace ms (slowest) | scope to a step ms (median / max of 5) | "
        "longest GUI stall ms (CPU ms) | slowest event ms (CPU ms; receiver, type) | "
        "whole-window repaint ms (median of 5) |\n"
        "|---|---|---|---|---|---|---|---|\n");
    for (const std::string& path : files) {
        app::MainWindow window;
        window.setInteractive(false);
        window.disableCacheForSession();
        window.resize(1920, 1080);
        window.show();
        StallMeter stalls;
        const auto t0 = Clock::now();
        window.openTrace(QString::fromStdString(path));
        while (!window.tracePage()->trace() && window.lastError().isEmpty())
            QApplication::processEvents(QEventLoop::AllEvents, 5);
        if (!window.tracePage()->trace()) continue;
        const double loadS = seconds(t0, Clock::now());
        ui::PanelHost* host = window.panels();
        stalls.start();
        if (auto* app = TimedApplication::instance()) app->resetSlowest();
        // The panels in view compute at once (the index first); each other
        // one when its dock is raised, as a click on its tab does.
        const double inView = untilSettled(host);
        double slowestOpen = 0;
        QString slowestName;
        for (ui::AnalysisPanel* p : host->panels()) {
            if (p->inView()) continue;
            const auto s = Clock::now();
            host->raisePanel(p->dockName());
            untilSettled(host);
            const double ms = msSince(s);
            if (ms > slowestOpen) {
                slowestOpen = ms;
                slowestName = p->title();
            }
        }
        // Steps from the Steps panel, with what is in view then.
        host->raisePanel(QStringLiteral("stepsDock"));
        untilSettled(host);
        std::vector<double> steps;
        const auto indexed = host->session()->indexed();
        const auto& list = indexed->index->steps().steps;
        for (size_t i = 0; i < 5 && i < list.size(); ++i) {
            const auto s = Clock::now();
            host->session()->setStepScope(
                list[list.size() / 2 + i < list.size() ? list.size() / 2 + i : i].number);
            untilSettled(host);
            steps.push_back(msSince(s));
        }
        const StallMeter::Stall stall = stalls.stop();
        const TimedApplication::Slowest slowest = TimedApplication::instance()
                                                      ? TimedApplication::instance()->slowest()
                                                      : TimedApplication::Slowest{};
        // The reference: repainting the whole window with every frame and
        // panel already computed (what Qt does when a dock changes), which
        // depends on the window's size and style, not on the trace.
        std::vector<double> repaints;
        for (int i = 0; i < 5; ++i) {
            const auto s = Clock::now();
            window.repaint();
            repaints.push_back(msSince(s));
        }
        std::printf(
            "| %s | %.2f | %.0f | %.0f (%s) | %.1f / %.1f | %.1f (%.1f) | %.1f (%.1f; %s) | %.1f "
            "|\n",
            path.c_str(), loadS, inView, slowestOpen, qPrintable(slowestName), median(steps),
            maximum(steps), stall.ms, stall.cpuMs, slowest.ms, slowest.cpuMs,
            qPrintable(slowest.what), median(repaints));
        std::fflush(stdout);
    }
}

}  // namespace gapscope::bench
