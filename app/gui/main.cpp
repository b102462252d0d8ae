// gapscope: the viewer. `gapscope [TRACE]` opens TRACE at start.

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
    parser.addPositionalArgument(QStringLiteral("trace"),
                                 QStringLiteral("A trace to open (.json, .json.gz, .json.zst)"));
    parser.process(app);

    gapscope::app::MainWindow window;
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openTrace(parser.positionalArguments().first());
    return app.exec();
}
