// gapscope: the viewer. `gapscope [TRACE | FOLDER [--run NAME]]` opens it at start;
// --quit-after-load opens it and quits (to check an installed package).

#include <QApplication>
#include <QCommandLineParser>
#include <QStyleHints>
#include <QTimer>
#include <clocale>
#include <cstdio>

#include "loading/trace_loader.h"
#include "main_window.h"
#include "model/trace.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
    // Qt takes the environment's locale; core writes numbers with printf
    // (util/readable_units.h), which must read "1.50 ms" as the CLI and the
    // reports do, never "1,50 ms".
    std::setlocale(LC_NUMERIC, "C");
    QApplication::setOrganizationName(QStringLiteral("Gapscope"));
    QApplication::setApplicationName(QStringLiteral("gapscope"));
    QApplication::setApplicationDisplayName(QStringLiteral("Gapscope"));
    QApplication::setApplicationVersion(QStringLiteral(GAPSCOPE_VERSION));

    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("Where and why is the GPU idle? A viewer for GPU/CPU traces."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(
        QStringLiteral("trace"),
        QStringLiteral("A trace to open (.json, .json.gz, .json.zst, .xplane.pb, or an Nsight "
                       "Systems .sqlite export), a TensorBoard log folder, a folder of per-rank "
                       "traces or several traces (the ranks of one job, side by side), or a fleet "
                       "table (*.fleet.json)"),
        QStringLiteral("[trace...]"));
    const QCommandLineOption run(
        QStringLiteral("run"),
        QStringLiteral("The profile run to open when TRACE is a folder (default: choose)"),
        QStringLiteral("NAME"));
    parser.addOption(run);
    const QCommandLineOption noCache(
        QStringLiteral("no-cache"),
        QStringLiteral("Parse traces even when the index cache has them (this session only)"));
    parser.addOption(noCache);
    const QCommandLineOption quitAfterLoad(
        QStringLiteral("quit-after-load"),
        QStringLiteral("Open TRACE, say on stdout what was opened (or the error on stderr) and "
                       "quit: exit status 0 when it opened, 2 when not (checks an installation)"));
    parser.addOption(quitAfterLoad);
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("Compare two runs: the first trace is the baseline, the second the "
                       "candidate (gapscope --compare BASE NEW)"));
    parser.addOption(compare);
    parser.process(app);
    const QStringList traces = parser.positionalArguments();
    if (parser.isSet(compare) && traces.size() != 2) {
        std::fprintf(stderr, "gapscope: --compare needs BASE and NEW\n");
        return 1;
    }
    const bool checkOnly = parser.isSet(quitAfterLoad);
    if (checkOnly && traces.isEmpty()) {
        std::fprintf(stderr, "gapscope: --quit-after-load needs a TRACE\n");
        return 1;
    }

    gapscope::app::MainWindow window;
    if (parser.isSet(noCache)) window.disableCacheForSession();
    if (checkOnly) {
        window.setInteractive(false);
        using gapscope::ui::TraceLoader;
        QObject::connect(window.loader(), &TraceLoader::loaded, &app,
                         [&app](std::shared_ptr<const gapscope::Trace> trace, const QString& path) {
                             std::printf("gapscope: opened %s: %llu events\n", qPrintable(path),
                                         static_cast<unsigned long long>(trace->report.events));
                             QTimer::singleShot(0, &app, [&app] { app.exit(0); });
                         });
        QObject::connect(window.loader(), &TraceLoader::failed, &app,
                         [&app](const QString& message) {
                             std::fprintf(stderr, "gapscope: %s\n", qPrintable(message));
                             QTimer::singleShot(0, &app, [&app] { app.exit(2); });
                         });
    }
    window.show();
    if (parser.isSet(compare))
        window.openComparison(traces[0], traces[1]);
    else if (!traces.isEmpty())
        window.openTraces(traces, parser.value(run));
    if (checkOnly && !window.lastError().isEmpty()) {  // refused before loading (a folder)
        std::fprintf(stderr, "gapscope: %s\n", qPrintable(window.lastError()));
        return 2;
    }
    if (checkOnly && !window.loader()->isLoading()) {  // opened without loading (a fleet table)
        std::printf("gapscope: opened %s\n", qPrintable(traces.first()));
        return 0;
    }
    return app.exec();
}
