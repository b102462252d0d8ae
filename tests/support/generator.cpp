#include "support/generator.h"

#include <QFile>
#include <QProcess>

#include "support/test_paths.h"

namespace gapscope::test {

Generated generateTrace(const QString& dir, const QString& name, const QStringList& options) {
    Generated g;
    g.trace = dir + "/" + name;
    const QString truth = g.trace + ".truth.json";
    QProcess gen;
    gen.start(python(), QStringList{sharedDir() + "/tools/gen_trace.py"}
                            << options << "--out" << g.trace << "--truth" << truth << "--quiet");
    if (!gen.waitForFinished(300000) || gen.exitCode() != 0) {
        g.error = "gen_trace.py failed: " + QString::fromUtf8(gen.readAllStandardError());
        return g;
    }
    QFile f(truth);
    if (!f.open(QIODevice::ReadOnly)) {
        g.error = "no truth file " + truth;
        return g;
    }
    g.truth = nlohmann::json::parse(f.readAll().toStdString());
    return g;
}

}  // namespace gapscope::test
