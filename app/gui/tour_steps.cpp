#include "tour_steps.h"

#include <QDockWidget>

#include "main_window.h"
#include "timeline/timeline_view.h"
#include "trace_page.h"

namespace gapscope::app {

std::vector<Tour::Step> mainWindowTour(MainWindow* window) {
    auto named = [window](const char* name) {
        return [window, name]() -> QWidget* {
            return window->findChild<QWidget*>(QString::fromLatin1(name));
        };
    };
    return {
        {[window]() -> QWidget* { return window->tracePage()->timeline(); },
         QObject::tr("Where the GPU is idle"),
         QObject::tr("Every GPU comes first. The shaded bands across its tracks are its idle "
                     "gaps, coloured by cause: waiting for <b>input</b>, for a "
                     "<b>synchronization</b>, for <b>communication</b>, or for the "
                     "<b>host</b>, late to launch the next work. Press W/S to zoom, A/D to pan, "
                     "0 to see it all, ? for every key.")},
        {named("overviewDock"), QObject::tr("Why it is idle"),
         QObject::tr("The Overview says where the GPU time goes: busy, idle by cause, exposed "
                     "communication, and the findings behind it. Its links jump to the "
                     "evidence on the timeline; the other tabs list gaps, kernels, ops, "
                     "steps, memory and the input pipeline.")},
        {named("scopePicker"), QObject::tr("What the panels cover"),
         QObject::tr("The panels follow this scope: the whole trace, one step, the visible "
                     "window or a Shift+drag selection.")},
        {named("gapThreshold"), QObject::tr("Which gaps count"),
         QObject::tr("Idle gaps shorter than this are counted as short gaps, not shaded.")},
        {named("detailsDock"), QObject::tr("Details"),
         QObject::tr("Click a slice for its name, timing, launch parameters, args and flows "
                     "(the CPU launch behind a kernel). Help &gt; Tour shows this again.")},
    };
}

}  // namespace gapscope::app
