#include "support/suite_main.h"

#include <QFile>
#include <QFileInfo>
#include <QMetaMethod>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTextStream>
#include <algorithm>
#include <cstdio>
#include <vector>

#include "support/test_paths.h"

namespace gapscope::test {

namespace {

// The build this suite was compiled in, as tests/not_run.txt names it.
QString buildFlavour() {
#if defined(__SANITIZE_ADDRESS__)
    return QStringLiteral("asan");
#elif defined(__SANITIZE_THREAD__)
    return QStringLiteral("tsan");
#else
    return QStringLiteral("dev");
#endif
}

struct Entry {
    QStringList where;  // builds ("asan", "tsan"), or "skip"
    QString suite;
    QString function;
    QString reason;
    int line = 0;
};

// tests/not_run.txt: "<where> <suite>::<function> <reason>" per line.
// Returns false (with `error` set) when the file is missing or a line is
// malformed: a broken list must not let everything through.
bool readNotRun(std::vector<Entry>& entries, QString& error) {
    const QString path = sourceDir() + QStringLiteral("/tests/not_run.txt");
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        error = path + QStringLiteral(": cannot be read");
        return false;
    }
    static const QRegularExpression form(QStringLiteral(R"(^([a-z,]+)\s+(\w+)::(\w+)\s+(\S.*)$)"));
    QTextStream in(&file);
    for (int line = 1; !in.atEnd(); ++line) {
        const QString text = in.readLine().trimmed();
        if (text.isEmpty() || text.startsWith(QLatin1Char('#'))) continue;
        const QRegularExpressionMatch m = form.match(text);
        if (!m.hasMatch()) {
            error =
                QStringLiteral("%1:%2: expected '<where> <suite>::<function> <reason>', got '%3'")
                    .arg(path)
                    .arg(line)
                    .arg(text);
            return false;
        }
        const QStringList where = m.captured(1).split(QLatin1Char(','));
        for (const QString& w : where) {
            if (w != QStringLiteral("asan") && w != QStringLiteral("tsan") &&
                w != QStringLiteral("skip")) {
                error = QStringLiteral("%1:%2: '%3' is none of asan, tsan, skip")
                            .arg(path)
                            .arg(line)
                            .arg(w);
                return false;
            }
        }
        entries.push_back({where, m.captured(2), m.captured(3), m.captured(4), line});
    }
    return true;
}

// The functions Qt Test would run, in its order: private slots without
// arguments, less the fixtures and the data functions.
QStringList testFunctions(const QMetaObject* meta) {
    static const QSet<QString> fixtures = {
        QStringLiteral("initTestCase"), QStringLiteral("initTestCase_data"),
        QStringLiteral("cleanupTestCase"), QStringLiteral("init"), QStringLiteral("cleanup")};
    QStringList names;
    for (int i = 0; i < meta->methodCount(); ++i) {
        const QMetaMethod m = meta->method(i);
        if (m.methodType() != QMetaMethod::Slot || m.access() != QMetaMethod::Private ||
            m.parameterCount() != 0)
            continue;
        const QString name = QString::fromLatin1(m.name());
        if (fixtures.contains(name) || name.endsWith(QStringLiteral("_data"))) continue;
        names << name;
    }
    return names;
}

struct Skip {
    QString function;  // as Qt Test names it, without the data tag
    QString row;       // the data tag, or ""
    QString reason;
};

struct TapLog {
    std::vector<Skip> skips;
    QSet<QString> ran;  // test functions with a row that ran (not skipped)
};

// A Qt Test TAP log: "ok N - function(tag)", "... # SKIP reason".
TapLog readTap(const QString& tapPath) {
    TapLog log;
    QFile file(tapPath);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) return log;
    static const QRegularExpression result(
        QStringLiteral(R"(^(?:not )?ok \d+ - (\w+)\((.*?)\)( # SKIP ?(.*))?$)"));
    QTextStream in(&file);
    while (!in.atEnd()) {
        const QRegularExpressionMatch m = result.match(in.readLine());
        if (!m.hasMatch()) continue;
        if (m.capturedLength(3) > 0)
            log.skips.push_back({m.captured(1), m.captured(2), m.captured(4)});
        else
            log.ran.insert(m.captured(1));
    }
    return log;
}

void say(const QString& line) {
    std::fprintf(stdout, "%s\n", qPrintable(line));
    std::fflush(stdout);
}

}  // namespace

int runSuite(QObject* suite, int argc, char** argv) {
    // Functions or options chosen by hand: Qt Test as it is.
    if (argc > 1) return QTest::qExec(suite, argc, argv);

    const QString name = QFileInfo(QString::fromLocal8Bit(argv[0])).fileName();
    const QString flavour = buildFlavour();
    std::vector<Entry> entries;
    QString error;
    if (!readNotRun(entries, error)) {
        say(QStringLiteral("FAIL: %1").arg(error));
        return 1;
    }

    // The deny-list: what this build leaves out. An entry naming a function
    // the suite does not have is an error (a renamed function would
    // otherwise start running, or an entry outlive its reason).
    const QStringList all = testFunctions(suite->metaObject());
    QStringList run = all;
    QStringList allowedSkips;
    bool stale = false;
    for (const Entry& e : entries) {
        if (e.suite != name) continue;
        if (!all.contains(e.function)) {
            say(QStringLiteral("FAIL: tests/not_run.txt:%1 names %2::%3, which %2 does not have")
                    .arg(e.line)
                    .arg(name, e.function));
            stale = true;
            continue;
        }
        if (e.where.contains(QStringLiteral("skip"))) allowedSkips << e.function;
        if (e.where.contains(flavour)) {
            run.removeAll(e.function);
            say(QStringLiteral("NOT RUN in the %1 build: %2::%3() - %4")
                    .arg(flavour, name, e.function, e.reason));
        }
    }
    if (stale) return 1;
    if (run.isEmpty()) return 77;

    QTemporaryDir tapDir;
    const QString tap = tapDir.filePath(QStringLiteral("skips.tap"));
    QStringList args = {QString::fromLocal8Bit(argv[0]), QStringLiteral("-o"),
                        QStringLiteral("-,txt"), QStringLiteral("-o"),
                        tap + QStringLiteral(",tap")};
    args += run;
    const int status = QTest::qExec(suite, args);

    const TapLog log = readTap(tap);
    bool unexpected = false;
    bool suiteSkipped = false;
    for (const Skip& s : log.skips) {
        const QString what = s.row.isEmpty()
                                 ? QStringLiteral("%1::%2()").arg(name, s.function)
                                 : QStringLiteral("%1::%2(%3)").arg(name, s.function, s.row);
        const bool allowed = allowedSkips.contains(s.function);
        if (inputsRequired() && !allowed) {
            say(QStringLiteral("FAIL: %1 skipped (%2), and tests/not_run.txt does not allow it "
                               "(GAPSCOPE_REQUIRE_INPUTS is set)")
                    .arg(what, s.reason));
            unexpected = true;
        } else {
            say(QStringLiteral("SKIPPED: %1 - %2").arg(what, s.reason));
        }
        suiteSkipped |= s.function == QStringLiteral("initTestCase");
    }
    if (status != 0) return status;
    if (unexpected) return 1;
    // Nothing ran: initTestCase skipped, or every row of every function did.
    const bool none = suiteSkipped || std::none_of(run.begin(), run.end(), [&](const QString& f) {
                          return log.ran.contains(f);
                      });
    return none ? 77 : 0;
}

}  // namespace gapscope::test
