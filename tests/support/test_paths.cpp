#include "support/test_paths.h"

#include <QDir>
#include <QFileInfo>

namespace gapscope::test {

QString sourceDir() {
    return QStringLiteral(GAPSCOPE_SOURCE_DIR);
}

QString sharedDir() {
    const QString env = qEnvironmentVariable("GAPSCOPE_SHARED_DIR");
    const QString dir = env.isEmpty() ? QStringLiteral(GAPSCOPE_SHARED_DIR) : env;
    return QFileInfo(dir + QStringLiteral("/traces")).isDir() ? QDir(dir).absolutePath()
                                                              : QString();
}

QString sharedTraces() {
    const QString dir = sharedDir();
    return dir.isEmpty() ? QString() : dir + QStringLiteral("/traces");
}

QString fixture(const QString& name) {
    return sourceDir() + QStringLiteral("/tests/fixtures/") + name;
}

QString samplePath() {
    return sourceDir() + QStringLiteral("/resources/samples/h200_cnn_dataloader.pt.trace.json.gz");
}

QString cliPath() {
    return QStringLiteral(GAPSCOPE_CLI);
}

QString python() {
    return QStringLiteral(GAPSCOPE_PYTHON);
}

bool inputsRequired() {
    return qEnvironmentVariableIntValue("GAPSCOPE_REQUIRE_INPUTS") != 0;
}

}  // namespace gapscope::test
