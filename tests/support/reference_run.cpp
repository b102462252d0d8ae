#include "support/reference_run.h"

#include <QProcess>
#include <QTest>
#include <algorithm>
#include <cmath>

#include "support/test_paths.h"

namespace gapscope::test {

nlohmann::json runReference(const QString& script, const QStringList& args) {
    QProcess p;
    p.start(python(), QStringList{sourceDir() + "/tests/tools/" + script} + args);
    if (!p.waitForFinished(600000) || p.exitCode() != 0) {
        QTest::qFail(qPrintable(script + " failed: " + QString::fromUtf8(p.readAllStandardError())),
                     __FILE__, __LINE__);
        return {};
    }
    return nlohmann::json::parse(p.readAllStandardOutput().toStdString());
}

bool nearlyEqual(double a, double b) {
    return std::abs(a - b) <= 1e-9 * std::max(1.0, std::max(std::abs(a), std::abs(b)));
}

}  // namespace gapscope::test
