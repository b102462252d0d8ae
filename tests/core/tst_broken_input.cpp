// Hostile and broken input: every case of tests/tools/make_broken_corpus.py
// (generated at test time into a temporary folder) gets the error, warning
// or clean open its manifest names; plus the file-system cases (directory,
// FIFO, permissions, symlink loop, non-ASCII path, a file cut while it
// loads) and cancellation.

#include <grp.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <atomic>
#include <nlohmann/json.hpp>

#include "loader/loader.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using json = nlohmann::json;

namespace {

bool anyWarningContains(const Trace& t, const std::string& what) {
    for (const ImportWarning& w : t.report.warnings) {
        if (w.message.find(what) != std::string::npos) return true;
    }
    return false;
}

}  // namespace

class TestBrokenInput : public QObject {
    Q_OBJECT

    QTemporaryDir corpus_;
    json manifest_;

  private slots:
    void initTestCase() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 to generate the corpus");
        QProcess gen;
        gen.start(test::python(),
                  {test::sourceDir() + "/tests/tools/make_broken_corpus.py", corpus_.path()});
        QVERIFY(gen.waitForFinished(300000));
        QVERIFY2(gen.exitCode() == 0, gen.readAllStandardError().constData());
        QFile f(corpus_.filePath("manifest.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        manifest_ = json::parse(f.readAll().toStdString());
    }

    void corpus_data() {
        QTest::addColumn<QByteArray>("spec");
        for (const json& c : manifest_["cases"]) {
            QTest::newRow(c["file"].get<std::string>().c_str())
                << QByteArray::fromStdString(c.dump());
        }
    }

    void corpus() {
        QFETCH(QByteArray, spec);
        const json c = json::parse(spec.toStdString());
        const std::string path = corpus_.filePath(QString::fromStdString(c["file"])).toStdString();
        LoadOptions options;
        if (c.contains("max_event_mb"))
            options.maxEventBytes = c["max_event_mb"].get<size_t>() << 20;
        if (c.contains("memory_limit_mb"))
            options.memoryLimitBytes = c["memory_limit_mb"].get<uint64_t>() << 20;
        const LoadResult r = loadTrace(path, options);
        const std::string expect = c["expect"], where = c["where"], what = c["what"];
        if (expect == "error") {
            QVERIFY2(!r.trace, "must not open");
            QVERIFY(r.failure);
            const std::string message = r.failure->message();
            QVERIFY2(message.rfind(path + ": ", 0) == 0, message.c_str());  // names the file
            QVERIFY2(r.failure->where.rfind(where, 0) == 0, message.c_str());
            QVERIFY2(r.failure->what.find(what) != std::string::npos, message.c_str());
            return;
        }
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        const Trace& t = *r.trace;
        if (expect == "warning") {
            QVERIFY2(anyWarningContains(t, what), ("no warning contains: " + what).c_str());
        } else {
            const std::string first =
                t.report.warnings.empty() ? "" : t.report.warnings.front().message;
            QVERIFY2(t.report.warnings.empty(), first.c_str());
        }
        if (c.contains("slices")) QCOMPARE(t.slices.size(), c["slices"].get<size_t>());
        if (c.contains("tracks")) QCOMPARE(t.tracks.size(), c["tracks"].get<size_t>());
        if (c.contains("invalid")) QCOMPARE(t.report.invalidEvents, c["invalid"].get<uint64_t>());
        if (c.contains("negative"))
            QCOMPARE(t.report.negativeDurations, c["negative"].get<uint64_t>());
        if (c.contains("first_start_ns")) {
            QCOMPARE(t.slices.at(0).start, c["first_start_ns"].get<int64_t>());
            QCOMPARE(t.slices.at(0).dur, c["first_dur_ns"].get<int64_t>());
        }
        // Whatever was kept can be inspected without trouble.
        for (uint32_t i = 0; i < t.slices.size() && i < 16; ++i)
            t.argsText(t.slices[i].args).json;
    }

    void directory() {
        const LoadResult r = loadTrace(corpus_.path().toStdString());
        QVERIFY(!r.trace);
        // A folder is looked at as a TensorBoard log folder: none here.
        QCOMPARE(r.failure->where, std::string("folder"));
        QVERIFY2(r.failure->what.find("no *.xplane.pb profile") != std::string::npos,
                 r.failure->what.c_str());
    }

    void fifoDoesNotHang() {
        const QString fifo = corpus_.filePath("pipe.json");
        QCOMPARE(mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
        const LoadResult r = loadTrace(fifo.toStdString());  // nobody writes: must not block
        QVERIFY(!r.trace);
        QVERIFY(r.failure->what.find("not a regular file") != std::string::npos);
    }

    void noPermission() {
        const QString path = corpus_.filePath("secret.json");
        QVERIFY(test::writeFile(path.toStdString(), "[]"));
        QVERIFY(QFile::setPermissions(path, QFileDevice::WriteOwner));
        const auto refused = [&] {
            const LoadResult r = loadTrace(path.toStdString());
            return !r.trace && r.failure &&
                   r.failure->what.find("Permission denied") != std::string::npos;
        };
        if (geteuid() != 0) {
            QVERIFY(refused());
            return;
        }
        // Root reads every file (CI runs as root): the load runs in a child
        // that has become nobody, in a folder nobody may enter but not list.
        QVERIFY(QFile::setPermissions(corpus_.path(),
                                      QFileDevice::ReadOwner | QFileDevice::WriteOwner |
                                          QFileDevice::ExeOwner | QFileDevice::ExeOther));
        const pid_t child = fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            const uid_t nobody = 65534;
            if (setgroups(0, nullptr) != 0 || setgid(nobody) != 0 || setuid(nobody) != 0) _exit(2);
            _exit(refused() ? 0 : 1);
        }
        int status = 0;
        QCOMPARE(waitpid(child, &status, 0), child);
        QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) != 2, "could not become nobody");
        QVERIFY2(WIFEXITED(status) && WEXITSTATUS(status) == 0,
                 "as nobody, the load did not fail with 'Permission denied'");
    }

    void symlinkLoop() {
        const QString a = corpus_.filePath("loop_a.json"), b = corpus_.filePath("loop_b.json");
        QVERIFY(QFile::link(b, a));
        QVERIFY(QFile::link(a, b));
        const LoadResult r = loadTrace(a.toStdString());
        QVERIFY(!r.trace);
        QCOMPARE(r.failure->where, std::string("open"));
        QVERIFY(r.failure->what.find("symbolic links") != std::string::npos);
    }

    void nonAsciiPath() {
        const QString path = corpus_.filePath(QStringLiteral("трасса 追踪 ü.json"));
        QVERIFY(test::writeFile(QFile::encodeName(path).toStdString(),
                                "[{\"ph\":\"X\",\"name\":\"a\",\"ts\":1,\"dur\":1}]"));
        const LoadResult r = loadTrace(QFile::encodeName(path).toStdString());
        QVERIFY(r.trace);
        QCOMPARE(r.trace->slices.size(), size_t(1));
    }

    void fileCutWhileLoading() {
        // The profiler (or the user) truncates the file while it loads: what
        // was read is kept, and the report says the trace was cut.
        std::string text = "[";
        for (int i = 0; i < 200000; ++i) {
            text +=
                "{\"ph\":\"X\",\"name\":\"op\",\"pid\":1,\"tid\":1,\"ts\":" + std::to_string(i) +
                ",\"dur\":1},";
        }
        text += "]";
        const QString path = corpus_.filePath("shrinking.json");
        QVERIFY(test::writeFile(path.toStdString(), text));
        LoadOptions options;
        bool cut = false;
        options.progress = [&](LoadPhase phase, uint64_t, uint64_t) {
            if (phase == LoadPhase::Reading && !cut) {
                cut = true;
                QVERIFY(::truncate(QFile::encodeName(path).constData(), 1 << 20) == 0);
            }
        };
        const LoadResult r = loadTrace(path.toStdString(), options);
        QVERIFY(r.trace);
        QVERIFY(r.trace->report.truncated);
        QVERIFY(r.trace->report.events > 1000 && r.trace->report.events < 200000);
    }

    void tinyReadsOfAHugeEventStayLinear() {
        // Regression (fuzzer timeout): a source that returns a few bytes per
        // read made every refill restart the unfinished event, quadratic in
        // its size. The reader now fills its whole buffer per refill, so this
        // 2 MB event costs a handful of restarts, not a million.
        // (Appended, not concatenated: GCC 12 at -O3 takes the temporaries
        // of `a + std::string(n, c) + b` for an out-of-bounds copy.)
        std::string text =
            "[{\"ph\":\"X\",\"name\":\"big\",\"ts\":1,\"dur\":1,\"args\":{\"blob\":\"";
        text.append(2u << 20, 'x');
        text += "\"}}]";
        const LoadResult r = loadTraceFromBytes(text, "memory", LoadOptions{}, 3);
        QVERIFY(r.trace);
        QCOMPARE(r.trace->slices.size(), size_t(1));
        QCOMPARE(r.trace->argsText(r.trace->slices[0].args).json.size(),
                 size_t((2 << 20) + 11));  // {"blob":"…"}
    }

    void cancelStopsAndFreesEverything() {
        std::string text = "[";
        for (int i = 0; i < 300000; ++i) {
            text += "{\"ph\":\"X\",\"name\":\"op" + std::to_string(i % 977) +
                    "\",\"ts\":" + std::to_string(i) + ",\"dur\":1},";
        }
        text += "]";
        CancelToken cancel;
        LoadOptions options;
        options.cancel = &cancel;
        int calls = 0;
        options.progress = [&](LoadPhase, uint64_t, uint64_t) {
            if (++calls == 2) cancel.cancel();
        };
        const LoadResult r = loadTraceFromBytes(text, "memory", options, 64 * 1024);
        QVERIFY(r.cancelled);
        QVERIFY(!r.trace);
        QVERIFY(!r.failure);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestBrokenInput)
#include "tst_broken_input.moc"
