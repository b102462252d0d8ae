#include "support/generator.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>

#include "support/input_cache.h"
#include "support/test_paths.h"

namespace gapscope::test {

Generated generateTrace(const QString& dir, const QString& name, const QStringList& options) {
    Generated g;
    g.trace = dir + "/" + name;
    const QString truth = g.trace + ".truth.json";
    const QString script = sharedDir() + "/tools/gen_trace.py";
    // The output's form follows its name's suffix (.json, .json.gz, ...).
    const QByteArray key =
        inputKey({script}, QStringList(options) << QFileInfo(name).completeSuffix());
    if (!fetchKept(key, ".trace", g.trace) || !fetchKept(key, ".truth.json", truth)) {
        QProcess gen;
        gen.start(python(), QStringList{script} << options << "--out" << g.trace << "--truth"
                                                << truth << "--quiet");
        if (!gen.waitForFinished(300000) || gen.exitCode() != 0) {
            g.error = "gen_trace.py failed: " + QString::fromUtf8(gen.readAllStandardError());
            return g;
        }
        keep(key, ".trace", g.trace);
        keep(key, ".truth.json", truth);
    }
    QFile f(truth);
    if (!f.open(QIODevice::ReadOnly)) {
        g.error = "no truth file " + truth;
        return g;
    }
    g.truth = nlohmann::json::parse(f.readAll().toStdString());
    return g;
}

QStringList makeRankSet(const QString& dir, const QStringList& options, QString* error) {
    QProcess p;
    p.start(python(), QStringList{sourceDir() + "/tests/tools/make_rank_set.py", "--gen",
                                  sharedDir() + "/tools/gen_trace.py", "--out", dir} +
                          options);
    if (!p.waitForFinished(600000) || p.exitCode() != 0) {
        if (error)
            *error = "make_rank_set.py failed: " + QString::fromUtf8(p.readAllStandardError());
        return {};
    }
    return QString::fromUtf8(p.readAllStandardOutput()).split('\n', Qt::SkipEmptyParts);
}

}  // namespace gapscope::test
