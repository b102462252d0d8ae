// gapscope-screenshot TRACE OUT.png [--size WxH] [--dark] [--select NAME] [--range A,B]
//                     [--zoom A,B] [--search TEXT] [--panel DOCK [--dock-height PX]]
//                     [--step N] [--tour N] [--dim-path] [--what-if PART=F]
//                     [--pin REGEX] [--filter REGEX] [--compare NEW [--compare-tab ID]]
// gapscope-screenshot --welcome - OUT.png [--size WxH] [--dark]
// Opens TRACE in the real main window (offscreen works), waits for the load,
// optionally selects the first slice named NAME or a range (fractions of the
// trace span), and saves the window as a PNG: how we look at what we build.

#include <QApplication>
#include <QCommandLineParser>
#include <QDockWidget>
#include <QElapsedTimer>
#include <QLineEdit>
#include <QPalette>
#include <QRegularExpression>
#include <QStyleFactory>
#include <QTabWidget>
#include <QTimer>
#include <clocale>

#include "compare/compare_controller.h"
#include "compare/compare_panel.h"
#include "loading/trace_loader.h"
#include "main_window.h"
#include "model/trace.h"
#include "panels/analysis_panel.h"
#include "panels/analysis_table.h"
#include "panels/critical_path_panel.h"
#include "panels/panel_host.h"
#include "picture/picture.h"
#include "search/search_bar.h"
#include "timeline/timeline_view.h"
#include "tour.h"
#include "trace_page.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    std::setlocale(LC_NUMERIC, "C");  // as the viewer: numbers as core writes them
    QApplication::setOrganizationName(QStringLiteral("GapscopeScreenshot"));
    QCommandLineParser parser;
    parser.addPositionalArgument("trace", "trace");
    parser.addPositionalArgument("out", "png");
    QCommandLineOption dark("dark", "dark palette");
    QCommandLineOption select("select", "select the first slice with this name", "name");
    QCommandLineOption range("range", "select a range: two fractions of the span, comma separated",
                             "a,b");
    QCommandLineOption zoom("zoom", "visible window: two fractions of the span, comma separated",
                            "a,b");
    QCommandLineOption size("size", "window size WxH", "size", "1600x1000");
    QCommandLineOption search("search", "search query", "text");
    QCommandLineOption panel("panel", "raise this panel's dock (e.g. gapsDock)", "dock");
    QCommandLineOption step("step", "set the scope to this step", "number");
    QCommandLineOption dimPath("dim-path", "the Critical path panel's 'Dim the rest'");
    QCommandLineOption whatIf("what-if", "a what-if of the Critical path panel", "PART=F");
    QCommandLineOption welcome("welcome", "the welcome page (no trace; TRACE is ignored)");
    QCommandLineOption tour("tour", "show this step of the tour (1 = the first)", "number");
    QCommandLineOption pin("pin", "pin the tracks whose \"process › name\" matches", "regex");
    QCommandLineOption filter("filter", "type this into the track filter", "regex");
    QCommandLineOption compare(
        "compare", "compare TRACE with this run (--select then frames a kernel in both)", "trace");
    QCommandLineOption compareTab(
        "compare-tab", "show this table of the Compare panel (kernels, scopes, ...)", "id");
    QCommandLineOption fitted("fitted", "compared: each timeline fitted to its lined-up step");
    QCommandLineOption dockHeight("dock-height", "with --panel: its dock this many pixels tall",
                                  "pixels");
    parser.addOptions({dockHeight});
    parser.addOptions({dark, select, range, zoom, size, search, panel, step, dimPath, whatIf,
                       welcome, tour, pin, filter, compare, compareTab, fitted});
    parser.process(app);
    const QStringList args = parser.positionalArguments();
    if (args.size() != 2) return 1;
    QApplication::setStyle(QStyleFactory::create("Fusion"));
    if (parser.isSet(dark)) QApplication::setPalette(gapscope::ui::picturePalette(true));
    gapscope::app::MainWindow window;
    window.setInteractive(false);
    const QStringList wh = parser.value(size).split('x');
    window.resize(wh.value(0).toInt(), wh.value(1).toInt());
    window.show();
    if (parser.isSet(welcome)) {
        QApplication::processEvents();
        QTimer::singleShot(200, [&] {
            window.grab().save(args[1]);
            app.quit();
        });
        return app.exec();
    }
    window.openTrace(args[0]);
    if (args[0].endsWith(QStringLiteral(".fleet.json"))) {  // read at once, no trace behind it
        if (!window.lastError().isEmpty()) {
            fprintf(stderr, "fleet table refused: %s\n", qPrintable(window.lastError()));
            return 2;
        }
        QTimer::singleShot(200, [&] {
            window.grab().save(args[1]);
            app.quit();
        });
        return app.exec();
    }
    window.loader()->wait();
    auto trace = window.tracePage()->trace();
    if (!trace) {
        fprintf(stderr, "load failed: %s\n", qPrintable(window.lastError()));
        return 2;
    }
    auto* state = window.tracePage()->state();
    auto fractions = [&](const QString& v) {
        const QStringList ab = v.split(',');
        const double a = ab.value(0).toDouble(), b = ab.value(1).toDouble();
        const auto span = static_cast<double>(trace->spanEnd - trace->spanStart);
        return gapscope::ui::TimeWindow{trace->spanStart + static_cast<int64_t>(a * span),
                                        trace->spanStart + static_cast<int64_t>(b * span)};
    };
    if (parser.isSet(zoom))
        state->setVisible(fractions(parser.value(zoom)), gapscope::ui::ViewState::History::Record);
    if (parser.isSet(search)) {
        window.tracePage()->search()->setQuery(parser.value(search), false);
        while (window.tracePage()->search()->searching())
            QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    if (parser.isSet(select)) {
        const std::string name = parser.value(select).toStdString();
        for (uint32_t i = 0; i < trace->slices.size(); ++i) {
            if (trace->str(trace->slices[i].name) == name) {
                state->setSelectedSlice(i);
                window.tracePage()->timeline()->revealSlice(i);
                break;
            }
        }
    }
    if (parser.isSet(range)) state->setSelectedRange(fractions(parser.value(range)));
    if (parser.isSet(pin)) {
        const QRegularExpression re(parser.value(pin));
        gapscope::ui::TrackArrangement a;
        for (uint32_t i = 0; i < trace->tracks.size(); ++i) {
            const QString path = gapscope::ui::itemPrefix(*trace, trace->tracks[i].process) +
                                 QString::fromStdString(trace->tracks[i].displayName);
            if (re.match(path).hasMatch() && !trace->tracks[i].rows.empty())
                a.pinned.push_back({false, i});
        }
        window.tracePage()->timeline()->setArrangement(std::move(a));
    }
    if (parser.isSet(filter)) {
        window.tracePage()->trackFilter()->setText(parser.value(filter));
        QElapsedTimer typed;  // the filter waits for the typing to pause
        typed.start();
        while (typed.elapsed() < 400)
            QApplication::processEvents(QEventLoop::AllEvents, 20);
    }
    gapscope::ui::PanelHost* panels = window.panels();
    auto settle = [&] {
        // Until the index is built and no panel is computing (at most a minute).
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 60000) {
            QApplication::processEvents(QEventLoop::AllEvents, 20);
            bool busy = !panels->session()->indexed();
            for (auto* p : panels->panels())
                busy |= p->computing();
            if (!busy) break;
        }
    };
    settle();
    if (parser.isSet(step)) {
        panels->session()->setStepScope(parser.value(step).toLongLong());
        settle();
    }
    if (parser.isSet(panel)) {
        panels->raisePanel(parser.value(panel));  // a hidden panel computes when shown
        // A dock shown only on demand (Search Results, Ranks) is shown too.
        if (auto* dock = window.findChild<QDockWidget*>(parser.value(panel))) {
            dock->show();
            dock->raise();
            if (parser.isSet(dockHeight))
                window.resizeDocks({dock}, {parser.value(dockHeight).toInt()}, Qt::Vertical);
        }
        settle();
        if (auto* path = qobject_cast<gapscope::ui::CriticalPathPanel*>(
                panels->panel(parser.value(panel)))) {
            path->setDimRest(parser.isSet(dimPath));
            for (const QString& w : parser.values(whatIf))
                path->addWhatIf(w);
            settle();
        }
    }
    if (parser.isSet(compare)) {
        gapscope::ui::CompareController* c = window.comparison();
        window.compareWith(parser.value(compare));
        QElapsedTimer clock;
        clock.start();
        while (clock.elapsed() < 120000 && (c->computing() || !c->result()) &&
               window.lastError().isEmpty())
            QApplication::processEvents(QEventLoop::AllEvents, 20);
        if (!c->result()) {
            fprintf(stderr, "comparison failed: %s\n", qPrintable(window.lastError()));
            return 2;
        }
        if (parser.isSet(fitted)) c->setFitted(true);
        if (parser.isSet(compareTab)) {
            if (auto* t = c->panel()->table(parser.value(compareTab)))
                c->panel()->tabs()->setCurrentWidget(t);
        }
        if (parser.isSet(select)) {
            bool framed = false;
            QObject::connect(c, &gapscope::ui::CompareController::framed, [&] { framed = true; });
            c->frameName(parser.value(select));
            QElapsedTimer waited;
            waited.start();
            while (!framed && waited.elapsed() < 30000)
                QApplication::processEvents(QEventLoop::AllEvents, 20);
        }
        settle();
    }
    if (parser.isSet(tour)) {
        window.startTour();
        window.tour()->showStep(parser.value(tour).toInt() - 1);
    }
    QApplication::processEvents();
    QTimer::singleShot(100, [&] {
        window.grab().save(args[1]);
        app.quit();
    });
    return app.exec();
}
