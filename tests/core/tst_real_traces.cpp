// Every file under ../shared/traces against an independent computation
// (tests/tools/reference_counts.py, Python's json module with exact
// decimals), pinned in tests/data/real_traces_expected.json. Traces must match
// event and phase counts, span, slices and GPU busy time per device; files
// that are not traces must fail with a clear message.

#include <fnmatch.h>

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "loader/loader.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;
using json = nlohmann::json;

namespace {

json loadExpected() {
    QFile f(test::sourceDir() + "/tests/data/real_traces_expected.json");
    if (!f.open(QIODevice::ReadOnly)) return json();
    return json::parse(f.readAll().toStdString());
}

QString resolve(const std::string& rel) {
    const QString r = QString::fromStdString(rel);
    if (r.startsWith("recorded/")) return test::sourceDir() + "/tests/data/" + r;
    if (r.startsWith("samples/")) return test::sourceDir() + "/resources/" + r;
    return test::sharedTraces() + "/" + r;
}

// What the message must say for each kind of non-trace file.
std::string expectedErrorText(const std::string& reason) {
    static const std::map<std::string, std::string> kText = {
        {"zip", "ZIP archive"},
        {"tar", "tar archive"},
        {"empty", "empty"},
        {"not JSON", "expected '[' or '{'"},
        {"no traceEvents", "no \"traceEvents\""},
        {"not trace events", "not a Chrome trace"},
    };
    const auto it = kText.find(reason);
    return it == kText.end() ? reason : it->second;
}

}  // namespace

class TestRealTraces : public QObject {
    Q_OBJECT
  private slots:
    void matchesIndependentCount_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<QByteArray>("expected");
        const json all = loadExpected();
        QVERIFY2(all.contains("files"), "tests/data/real_traces_expected.json is missing");
        QVERIFY2(all["files"].size() >= 200, "fewer records than the 209 of the shared traces");
        for (const json& f : all["files"]) {
            const std::string rel = f["path"];
            QTest::newRow(rel.c_str()) << resolve(rel) << QByteArray::fromStdString(f.dump());
        }
    }

    void matchesIndependentCount() {
        QFETCH(QString, path);
        QFETCH(QByteArray, expected);
        if (!path.startsWith(test::sourceDir())) GAPSCOPE_REQUIRE_SHARED();
        const json e = json::parse(expected.toStdString());
        const LoadResult r = loadTrace(path.toStdString());
        if (e.value("error", "") == "xspace") {
            // Not JSON but an XSpace profile, checked event by event against
            // its own reference decoder in tst_xspace. Here: it opens, or (the
            // corrupted upstream file) is refused as malformed, naming the file.
            if (r.trace) {
                QVERIFY(r.trace->report.events > 0);
            } else {
                QVERIFY(r.failure);
                QVERIFY2(r.failure->what.find("malformed XSpace") != std::string::npos,
                         r.failure->message().c_str());
                QVERIFY(r.failure->message().rfind(path.toStdString() + ": ", 0) == 0);
            }
            return;
        }
        if (!e["ok"].get<bool>()) {
            QVERIFY2(!r.trace, "a file that is not a trace must not open");
            QVERIFY(r.failure);
            const std::string want = expectedErrorText(e["error"]);
            QVERIFY2(r.failure->message().find(want) != std::string::npos,
                     (r.failure->message() + " | want: " + want).c_str());
            QVERIFY(r.failure->message().rfind(path.toStdString() + ": ", 0) ==
                    0);  // names the file
            return;
        }
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        const Trace& t = *r.trace;
        QCOMPARE(t.report.events, e["events"].get<uint64_t>());
        std::map<std::string, uint64_t> phases;
        for (const auto& [ph, n] : e["phases"].items())
            phases[ph] = n.get<uint64_t>();
        QCOMPARE(t.report.phases, phases);
        QCOMPARE(t.report.truncated, e["truncated"].get<bool>());
        QCOMPARE(t.objectForm, e["form"] == "object");
        if (e["span_ns"].is_null()) {
            QVERIFY(!t.hasSpan);
        } else {
            QCOMPARE(t.spanStart, e["span_ns"][0].get<int64_t>());
            QCOMPARE(t.spanEnd, e["span_ns"][1].get<int64_t>());
        }
        uint64_t slices = 0;  // X and B/E slices (async slices are extra)
        for (const Track& tr : t.tracks) {
            if (tr.kind != TrackKind::Async) slices += tr.sliceCount();
        }
        QCOMPARE(slices, e["slices"].get<uint64_t>());
        std::map<std::string, int64_t> busy, wantBusy;
        for (const GpuDevice& d : t.gpuDevices)
            busy[std::to_string(d.index)] = d.busyNs;
        for (const auto& [dev, ns] : e["gpu_busy_ns"].items())
            wantBusy[dev] = ns.get<int64_t>();
        QCOMPARE(busy, wantBusy);
    }

    // Every file under ../shared/traces is checked above, or named in
    // tests/data/real_traces_excluded.txt with its reason: a new trace is
    // never silently left out.
    void everySharedFileIsCoveredOrExcluded() {
        GAPSCOPE_REQUIRE_SHARED();
        std::set<std::string> covered;
        const json expected = loadExpected();
        for (const json& f : expected["files"])
            covered.insert(f["path"].get<std::string>());
        QFile list(test::sourceDir() + "/tests/data/real_traces_excluded.txt");
        QVERIFY(list.open(QIODevice::ReadOnly | QIODevice::Text));
        std::vector<std::pair<std::string, bool>> excluded;  // glob, used
        for (const QByteArray& line : list.readAll().split('\n')) {
            const QByteArray text = line.trimmed();
            if (text.isEmpty() || text.startsWith('#')) continue;
            const qsizetype space = text.indexOf(' ');
            QVERIFY2(space > 0, text.constData());  // a glob and its reason
            excluded.push_back({text.left(space).toStdString(), false});
        }
        const QDir root(test::sharedTraces());
        QStringList uncovered;
        int files = 0;
        QDirIterator it(root.path(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const std::string rel = root.relativeFilePath(it.next()).toStdString();
            ++files;
            if (covered.count(rel)) continue;
            bool matched = false;
            for (auto& [glob, used] : excluded) {
                if (fnmatch(glob.c_str(), rel.c_str(), 0) == 0) matched = used = true;
            }
            if (!matched) uncovered << QString::fromStdString(rel);
        }
        QVERIFY2(files >= 290,
                 qPrintable(QString("only %1 files under ").arg(files) + root.path()));
        QVERIFY2(uncovered.isEmpty(),
                 qPrintable("neither tested nor excluded (tests/tools/reference_counts.py, "
                            "tests/data/real_traces_excluded.txt): " +
                            uncovered.join(", ")));
        for (const auto& [glob, used] : excluded)
            QVERIFY2(used, ("an exclusion that matches nothing: " + glob).c_str());
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestRealTraces)
#include "tst_real_traces.moc"
