#pragma once
// Waiting for the viewer's panels in the window suites: until the trace's
// index is built and no panel is computing, and a panel raised and settled.

#include <QApplication>
#include <QElapsedTimer>

#include "panels/analysis_panel.h"
#include "panels/analysis_session.h"
#include "panels/panel_host.h"

namespace gapscope::test {

// False after `timeoutMs` with a panel still computing.
inline bool settlePanels(ui::PanelHost* host, int timeoutMs) {
    QElapsedTimer clock;
    clock.start();
    while (clock.elapsed() < timeoutMs) {
        QApplication::processEvents(QEventLoop::AllEvents, 20);
        bool busy = host->session()->trace() && !host->session()->indexed();
        for (ui::AnalysisPanel* p : host->panels())
            busy |= p->computing();
        if (!busy) return true;
    }
    return false;
}

// The panel of a dock, raised (a hidden panel computes when shown) and with
// its results in.
template <class P>
P* settledPanel(ui::PanelHost* host, const char* dock, int timeoutMs) {
    host->raisePanel(QString::fromLatin1(dock));
    if (!settlePanels(host, timeoutMs)) qWarning("the panels did not settle in time");
    return qobject_cast<P*>(host->panel(QString::fromLatin1(dock)));
}

}  // namespace gapscope::test
