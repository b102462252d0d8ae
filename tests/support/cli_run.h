#pragma once
// Runs the built gapscope-cli as a user would, with an index cache folder
// of this test process (never the user's).

#include <QByteArray>
#include <QString>
#include <QStringList>
#include <functional>

namespace gapscope::test {

struct CliRun {
    int exitCode = -1;  // -1: did not finish in time; -2: crashed
    QByteArray out, err;
};

// `workingDir`: where it runs (default: this process's folder), so that
// relative paths in the arguments, and in its output, stay relative.
// `inChild` runs in the child before the CLI starts (async-signal-safe
// calls only: a limit to set).
CliRun runCli(const QStringList& args, int timeoutMs = 300000, const QString& workingDir = {},
              const std::function<void()>& inChild = {});

}  // namespace gapscope::test
