#include "support/cli_run.h"

#include <QProcess>
#include <QTemporaryDir>

#include "support/test_paths.h"

namespace gapscope::test {

CliRun runCli(const QStringList& args, int timeoutMs, const QString& workingDir,
              const std::function<void()>& inChild) {
    static QTemporaryDir cacheHome;
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("XDG_CACHE_HOME", cacheHome.path());
    p.setProcessEnvironment(env);
    if (!workingDir.isEmpty()) p.setWorkingDirectory(workingDir);
    if (inChild) p.setChildProcessModifier(inChild);
    p.start(cliPath(), args);
    CliRun r;
    if (!p.waitForFinished(timeoutMs)) return r;
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -2;
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

}  // namespace gapscope::test
