#pragma once
// Runs the built gapscope-cli as a user would, with an index cache folder
// of this test process (never the user's).

#include <QByteArray>
#include <QString>
#include <QStringList>

namespace gapscope::test {

struct CliRun {
    int exitCode = -1;  // -1: did not finish in time; -2: crashed
    QByteArray out, err;
};

// `workingDir`: where it runs (default: this process's folder), so that
// relative paths in the arguments, and in its output, stay relative.
CliRun runCli(const QStringList& args, int timeoutMs = 300000, const QString& workingDir = {});

}  // namespace gapscope::test
