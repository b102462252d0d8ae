#include "support/reference_run.h"

#include <QFileInfo>
#include <QProcess>
#include <QTest>
#include <algorithm>
#include <cmath>

#include "support/input_cache.h"
#include "support/test_paths.h"

namespace gapscope::test {

nlohmann::json runReference(const QString& script, const QStringList& args) {
    const QString path = sourceDir() + "/tests/tools/" + script;
    const QByteArray key = inputKey({path}, args);
    if (const auto kept = fetchKeptText(key, ".json"))
        return nlohmann::json::parse(kept->toStdString());
    QProcess p;
    p.start(python(), QStringList{path} + args);
    if (!p.waitForFinished(600000) || p.exitCode() != 0) {
        QTest::qFail(qPrintable(script + " failed: " + QString::fromUtf8(p.readAllStandardError())),
                     __FILE__, __LINE__);
        return {};
    }
    const QByteArray text = p.readAllStandardOutput();
    // The key has the inputs' content, not their paths: an output that
    // names an input (the ranks' files) is not kept.
    for (const QString& arg : args) {
        const QFileInfo input(arg);
        if (input.exists() &&
            (text.contains(arg.toUtf8()) || text.contains(input.absoluteFilePath().toUtf8()) ||
             text.contains(input.fileName().toUtf8())))
            return nlohmann::json::parse(text.toStdString());
    }
    keepText(key, ".json", text);
    return nlohmann::json::parse(text.toStdString());
}

bool nearlyEqual(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

}  // namespace gapscope::test
