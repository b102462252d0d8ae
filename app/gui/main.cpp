// gapscope: the viewer. `gapscope [TRACE | FOLDER [--run NAME]]` opens it at start.

#include <QApplication>
#include <QCommandLineParser>
#include <QStyleHints>

#include "main_window.h"

int main(int argc, char** argv) {
    QApplication app(argc, argv);
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
        QStringLiteral("A trace to open (.json, .json.gz, .json.zst, .xplane.pb), or a "
                       "TensorBoard log folder"));
    const QCommandLineOption run(
        QStringLiteral("run"),
        QStringLiteral("The profile run to open when TRACE is a folder (default: choose)"),
        QStringLiteral("NAME"));
    parser.addOption(run);
    const QCommandLineOption noCache(
        QStringLiteral("no-cache"),
        QStringLiteral("Parse traces even when the index cache has them (this session only)"));
    parser.addOption(noCache);
    parser.process(app);

    gapscope::app::MainWindow window;
    if (parser.isSet(noCache)) window.disableCacheForSession();
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openTrace(parser.positionalArguments().first(), parser.value(run));
    return app.exec();
}
