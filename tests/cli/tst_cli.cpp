// gapscope-cli as a user runs it: help, version, info on the bundled sample
// (text and JSON), bad input (exit 2, one line on stderr), and log folders
// of profile runs (--run).

#include <sys/resource.h>

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>
#include <map>
#include <nlohmann/json.hpp>
#include <thread>

#include "support/cli_run.h"
#include "support/planted_job.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using json = nlohmann::json;
using gapscope::test::runCli;
using Run = gapscope::test::CliRun;

namespace {}  // namespace

class TestCli : public QObject {
    Q_OBJECT
  private slots:
    void helpAndVersion() {
        Run r = runCli({"--help"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("info TRACE"));
        r = runCli({"--version"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("gapscope-cli "));
        // The libraries it reads with, named with their versions.
        QVERIFY2(QString::fromUtf8(r.out).contains(QRegularExpression("zstd \\d+\\.\\d+\\.\\d+")),
                 qPrintable(r.out));
        QVERIFY2(
            QString::fromUtf8(r.out).contains(QRegularExpression("nlohmann/json 3\\.\\d+\\.\\d+")),
            qPrintable(r.out));
        r = runCli({});
        QCOMPARE(r.exitCode, 1);
        r = runCli({"frobnicate"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("unknown command"));
    }

    // A folder of ranks given to a command of one trace: it says so, and
    // how to compare them (the viewer opens it as ranks).
    void aFolderOfRanksIsNotOneTrace() {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (const char* name : {"worker0.json.gz", "worker1.json.gz"})
            QVERIFY(QFile::copy(gapscope::test::samplePath(), dir.filePath(QLatin1String(name))));
        const Run run = runCli({"info", dir.path(), "--no-cache"});
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(
            run.err.contains("holds the traces of 2 ranks; compare them with gapscope-cli ranks"),
            run.err.constData());
        // Ranks of it compares them.
        const Run ranks = runCli({"ranks", dir.path(), "--no-cache"});
        QCOMPARE(ranks.exitCode, 0);
    }

    // critical-path of a folder of a job's ranks reads them as one trace
    // (the other commands refuse it): the planted late rank bounds the
    // job's step 1 (support/planted_job.h: 990 µs, rank 1's 500 µs op on
    // it), and with rank 1's step starting late, rank 0's 480 µs wait for
    // it in the all-reduce is on the path.
    void aJobsCriticalPathCrossesItsRanks() {
        for (const bool lateStart : {false, true}) {
            QTemporaryDir dir;
            QVERIFY(dir.isValid());
            for (int r = 0; r < 2; ++r) {
                QFile f(dir.filePath(QStringLiteral("rank%1.json").arg(r)));
                QVERIFY(f.open(QIODevice::WriteOnly));
                f.write(QByteArray::fromStdString(gapscope::test::plantedRankOfJob(r, lateStart)));
            }
            const Run run = runCli(
                {"critical-path", dir.path(), "--step", "1", "--format", "json", "--no-cache"});
            QVERIFY2(run.exitCode == 0, run.err.constData());
            QVERIFY2(run.err.contains("the 2 ranks of a job, read as one trace"),
                     run.err.constData());
            const json j = json::parse(run.out.toStdString());
            QCOMPARE(j["path_ns"].get<int64_t>(), int64_t(990000));
            std::map<std::string, int64_t> kinds;
            for (const json& k : j["kinds"])
                kinds[k["kind"].get<std::string>()] = k["ns"].get<int64_t>();
            QCOMPARE(kinds["op"], lateStart ? int64_t(5000) : int64_t(500000));
            QCOMPARE(kinds["peer_wait"], lateStart ? int64_t(480000) : int64_t(0));
        }
    }

    // A job keeps each rank's file open, and a desktop's soft limit on open
    // files is often 1024 (its hard limit far higher): a job of more ranks
    // than the soft limit opens whole, the limit raised as far as it
    // needs. Where the hard limit itself is too low, the ranks past it say
    // why and what to raise.
    void aJobOfMoreRanksThanTheSoftLimitOnOpenFiles() {
        constexpr int kRanks = 320;
        constexpr rlim_t kLimit = 256;
        struct rlimit mine {};
        QVERIFY(getrlimit(RLIMIT_NOFILE, &mine) == 0);
        if (mine.rlim_max != RLIM_INFINITY && mine.rlim_max < kRanks + 256 + 64)
            QSKIP("this machine's hard limit on open files is below what the job needs");
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        for (int r = 0; r < kRanks; ++r) {
            QFile f(dir.filePath(QStringLiteral("rank%1.json").arg(r)));
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(QByteArray::fromStdString(
                gapscope::test::plantedRankOfLargeJob(r, kRanks, r == 5)));
        }
        const QStringList args{"critical-path", dir.path(), "--step",    "2",
                               "--format",      "json",     "--no-cache"};
        const Run raised = runCli(args, 300000, {}, [] {
            struct rlimit low {};
            getrlimit(RLIMIT_NOFILE, &low);
            low.rlim_cur = kLimit;
            setrlimit(RLIMIT_NOFILE, &low);
        });
        QVERIFY2(raised.exitCode == 0, raised.err.constData());
        QVERIFY2(!raised.err.contains("Too many open files"), raised.err.constData());
        QVERIFY2(raised.err.contains("the 320 ranks of a job, read as one trace"),
                 raised.err.constData());
        const Run capped = runCli(args, 300000, {}, [] {
            const struct rlimit low { kLimit, kLimit };
            setrlimit(RLIMIT_NOFILE, &low);
        });
        // (With one loading thread, each rank past the limit opens its file
        // in the one descriptor left and keeps its args in memory instead
        // of the file open: nothing fails. Two or more open at once. Under
        // a sanitizer, whose runtime probes memory through a pipe of its
        // own, a process out of descriptors reports errors that are not.)
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
        return;
#endif
        if (std::thread::hardware_concurrency() < 2) return;
        QVERIFY2(capped.err.contains("Too many open files (this process may have 256 files open "
                                     "at once, and a job keeps each rank's file open: raise "
                                     "`ulimit -n` and its hard limit"),
                 capped.err.constData());
        QVERIFY2(!capped.err.contains("the 320 ranks of a job"), capped.err.constData());
    }

    void theIndexCacheServesASecondOpen() {
        QTemporaryDir dir;
        const QString copy = dir.filePath("sample.json.gz");
        QVERIFY(QFile::copy(gapscope::test::samplePath(), copy));
        const QString cacheDir = dir.filePath("cache");
        auto cacheNote = [](const Run& run) {
            return json::parse(run.out.toStdString())["index_cache"];
        };
        Run r = runCli({"info", copy, "--format", "json", "--cache-dir", cacheDir});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(cacheNote(r).get<std::string>().find("miss") == 0, r.out.constData());
        r = runCli({"info", copy, "--format", "json", "--cache-dir", cacheDir});
        QCOMPARE(cacheNote(r).get<std::string>(), std::string("hit"));
        r = runCli({"info", copy, "--format", "json", "--no-cache", "--cache-dir", cacheDir});
        QVERIFY(cacheNote(r).is_null());
        // The text form says it too.
        r = runCli({"info", copy, "--cache-dir", cacheDir});
        QVERIFY2(r.out.contains("Index cache ") && r.out.contains(" hit\n"), r.out.constData());
        // The restored model is the parsed one, field for field.
        const Run cached = runCli({"dump", copy, "--cache-dir", cacheDir});
        const Run parsed = runCli({"dump", copy, "--no-cache"});
        QCOMPARE(cached.exitCode, 0);
        QVERIFY(cached.out.size() > 100000);
        QVERIFY(cached.out == parsed.out);
    }

    void infoJsonOnTheSample() {
        const Run r = runCli({"info", gapscope::test::samplePath(), "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const json j = json::parse(r.out.toStdString());
        QCOMPARE(j["analysis"].get<std::string>(), std::string("info"));
        const json& f = j;
        QCOMPARE(f["format"].get<std::string>(), std::string("chrome-json"));
        QCOMPARE(f["producer"].get<std::string>(), std::string("kineto"));
        QCOMPARE(f["compression"].get<std::string>(), std::string("gzip"));
        // Counts from Python's json module on the same file.
        QCOMPARE(f["events"].get<int>(), 4043);
        std::map<std::string, int> phases;
        for (const json& p : j["phases"])
            phases[p["phase"].get<std::string>()] = p["events"].get<int>();
        QCOMPARE(phases["X"], 2314);
        QCOMPARE(phases["M"], 62);
        QCOMPARE(f["span_start_ns"].get<int64_t>(), 5203219824795433LL);
        const json& gpus = j["gpus"];
        QCOMPARE(gpus.size(), size_t(1));
        QCOMPARE(gpus[0]["device"].get<int>(), 0);
        QCOMPARE(gpus[0]["name"].get<std::string>(), std::string("NVIDIA H200"));
        QVERIFY(gpus[0]["busy_ns"].get<int64_t>() > 0);
        const json& first = j["tracks"][0];
        QCOMPARE(first["process_kind"].get<std::string>(), std::string("gpu"));
        QCOMPARE(first["pid"].get<std::string>(), std::string("0"));
        QVERIFY(first["slices"].get<int>() > 0);
        QVERIFY(j["warnings"].is_array());
    }

    void infoText() {
        const Run r = runCli({"info", gapscope::test::samplePath()});
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains("NVIDIA H200"), r.out.constData());
        QVERIFY(r.out.contains("stream 7"));
    }

    void badInputExitsTwoWithOneLine_data() {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("what");
        QTest::newRow("not json") << QByteArray("garbage") << "byte 0: expected '[' or '{'";
        QTest::newRow("empty") << QByteArray() << "byte 0: the file is empty";
        QTest::newRow("bad event")
            << QByteArray("[{\"ph\":}]") << "byte 7: malformed JSON in event 0";
    }
    void badInputExitsTwoWithOneLine() {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, what);
        QTemporaryDir dir;
        const QString path = dir.filePath("bad trace ü.json");  // non-ASCII path
        QVERIFY(gapscope::test::writeFile(path.toStdString(), bytes.toStdString()));
        const Run r = runCli({"info", path});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.out.isEmpty());
        QCOMPARE(r.err.count('\n'), 1);
        const QString line = QString::fromUtf8(r.err).trimmed();
        QVERIFY2(line.startsWith("gapscope: " + path + ": "), qPrintable(line));
        QVERIFY2(line.contains(what), qPrintable(line));
    }

    // A TensorBoard log folder with two runs: the newest opens and stderr
    // says so and names the other; --run opens that one; an unknown run is
    // exit 2 with the runs listed; info names the run and its hosts.
    void aLogFolderOpensByRun() {
        QTemporaryDir dir;
        const QString jax = gapscope::test::sourceDir() + "/tests/data/recorded/jax_mlp.xplane.pb";
        const QString older = dir.filePath("logs/plugins/profile/2024_01_01");
        const QString newer = dir.filePath("logs/plugins/profile/2024_02_01");
        QVERIFY(QDir().mkpath(older) && QDir().mkpath(newer));
        QVERIFY(QFile::copy(jax, older + "/alpha.xplane.pb"));
        QVERIFY(QFile::copy(jax, older + "/beta.xplane.pb"));
        QVERIFY(QFile::copy(jax, newer + "/gamma.xplane.pb"));
        for (const char* f : {"/alpha.xplane.pb", "/beta.xplane.pb"}) {
            QFile file(older + f);
            QVERIFY(file.open(QIODevice::ReadWrite));
            QVERIFY(file.setFileTime(QDateTime::currentDateTime().addDays(-1),
                                     QFileDevice::FileModificationTime));
        }
        const QString logs = dir.filePath("logs");
        Run r = runCli({"info", logs, "--format", "json", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        json j = json::parse(r.out.toStdString());
        QCOMPARE(j["profile_run"].get<std::string>(), std::string("2024_02_01"));
        QVERIFY(j["profile_hosts"] == json::array({"gamma"}));
        QCOMPARE(j["file"].get<std::string>(), newer.toStdString());
        QVERIFY2(r.err.contains("2 profile runs; opened the newest, 2024_02_01") &&
                     r.err.contains("2024_01_01"),
                 r.err.constData());
        r = runCli({"info", logs, "--run", "2024_01_01", "--format", "json", "--no-cache"});
        QCOMPARE(r.exitCode, 0);
        j = json::parse(r.out.toStdString());
        QVERIFY(j["profile_hosts"] == json::array({"alpha", "beta"}));
        QVERIFY(r.err.isEmpty());
        r = runCli({"info", logs, "--run", "2024_01_01", "--no-cache"});
        QVERIFY2(r.out.contains("2024_01_01") && r.out.contains("alpha; beta"), r.out.constData());
        r = runCli({"gaps", logs, "--run", "nope", "--no-cache"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.startsWith("gapscope: " + logs.toUtf8() + ": run: no run \"nope\"") &&
                     r.err.contains("2024_01_01") && r.err.contains("2024_02_01"),
                 r.err.constData());
    }

    void limitsCanBeRaised() {
        // 2000 events need more than a 1 MiB model: refused, then accepted with more.
        std::string text = "[";
        for (int i = 0; i < 20000; ++i) {
            text += "{\"ph\":\"X\",\"name\":\"k" + std::to_string(i) +
                    "\",\"ts\":" + std::to_string(i) + ",\"dur\":1},";
        }
        text += "]";
        QTemporaryDir dir;
        const QString path = dir.filePath("big.json");
        QVERIFY(gapscope::test::writeFile(path.toStdString(), text));
        Run r = runCli({"info", path, "--memory-limit-mb", "1"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("needs more memory than the limit of 1 MiB"), r.err.constData());
        QVERIFY(r.err.contains("--memory-limit-mb"));
        r = runCli({"info", path, "--memory-limit-mb", "512", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        r = runCli({"info", path, "--memory-limit-mb", "lots"});
        QCOMPARE(r.exitCode, 1);
    }

    void missingFile() {
        const Run r = runCli({"info", "/nonexistent/trace.json"});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.startsWith("gapscope: /nonexistent/trace.json: open: "));
    }

    // The analysis commands as a script uses them: JSON that parses and adds
    // up, CSV with a header, help, and the exit statuses.
    void timelineAndKernelsOnTheSample() {
        const QString sample = gapscope::test::samplePath();
        Run r = runCli({"timeline", sample, "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const auto t = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(t["timeline"].size(), size_t(1));
        const auto& d = t["timeline"][0];
        QCOMPARE(d["computation_ns"].get<int64_t>() + d["exposed_comm_ns"].get<int64_t>() +
                     d["exposed_memcpy_ns"].get<int64_t>() + d["idle_ns"].get<int64_t>(),
                 d["total_ns"].get<int64_t>());
        QVERIFY(d["comm_overlap"].is_null());  // no communication kernels in this trace
        r = runCli({"kernels", sample, "--format", "json", "--top", "3"});
        QCOMPARE(r.exitCode, 0);
        const auto k = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(k["kernels"].size(), size_t(3));
        QVERIFY(k["kernels"][0]["total_ns"].get<int64_t>() >=
                k["kernels"][1]["total_ns"].get<int64_t>());
        r = runCli({"kernels", sample, "--format", "csv", "--by-device"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.startsWith("GPU,Kernel,Count,Total (ns),"));
        QVERIFY(r.out.contains("\r\n"));  // RFC 4180 line ends
        for (const char* command : {"timeline", "kernels"}) {
            r = runCli({command, "--help"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(r.out.contains("--format"));
            r = runCli({command, sample, "--format", "xml"});
            QCOMPARE(r.exitCode, 1);
            r = runCli({command, sample, "--range", "9:3"});
            QCOMPARE(r.exitCode, 1);
            r = runCli({command, "/nonexistent/trace.json"});
            QCOMPARE(r.exitCode, 2);
        }
        // gaps: the sample's DataLoader stalls come out as input, with evidence.
        r = runCli({"gaps", sample, "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        const auto g = nlohmann::json::parse(r.out.toStdString());
        QCOMPARE(g["threshold_ns"].get<int64_t>(), int64_t(100000));
        const auto& dev = g["gap_totals"][0];
        QVERIFY(dev["by_cause"]["input"].get<int64_t>() > dev["by_cause"]["host"].get<int64_t>());
        // An input gap with the DataLoader as its evidence, in the gap's
        // names and in the evidence table.
        bool inputWithEvidence = false;
        for (const auto& gap : g["gaps"])
            inputWithEvidence |=
                gap["cause"] == "input" && !gap["evidence"].is_null() &&
                gap["evidence"][0].get<std::string>().find("DataLoader") != std::string::npos;
        QVERIFY(inputWithEvidence);
        bool evidenceOfAnInputGap = false;
        for (const auto& e : g["gap_evidence"])
            for (const auto& gap : g["gaps"])
                evidenceOfAnInputGap |=
                    gap["start_ns"] == e["gap_start_ns"] && gap["cause"] == "input" &&
                    e["name"].get<std::string>().find("DataLoader") != std::string::npos;
        QVERIFY(evidenceOfAnInputGap);
        r = runCli({"gaps", sample, "--min-gap-us", "1e9"});  // nothing that long
        QCOMPARE(r.exitCode, 0);
        r = runCli({"gaps", sample, "--min-gap-us", "-3"});
        QCOMPARE(r.exitCode, 1);
        r = runCli({"gaps", "--help"});
        QVERIFY(r.out.contains("--min-gap-us"));
        // A range with no GPU activity: an empty result, said so, exit 0.
        r = runCli({"timeline", sample, "--range", "0:1000"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("No GPU activity"));
        r = runCli({"kernels", sample, "--range", "0:1000", "--format", "json"});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(nlohmann::json::parse(r.out.toStdString())["kernels"].empty());
    }

    // Every analysis command: help, formats, exit statuses, the JSON keys
    // docs/cli.md promises, and an empty result (exit 0) on a trace with
    // no GPU, no steps and no memory events.
    void everyAnalysisCommand() {
        const QString sample = gapscope::test::samplePath();
        const std::vector<std::pair<const char*, std::vector<const char*>>> commands = {
            {"gaps", {"gaps", "gap_totals", "gap_evidence", "threshold_ns"}},
            {"timeline", {"timeline"}},
            {"kernels", {"kernels"}},
            {"memcpy", {"copies"}},
            {"ops", {"ops", "step_time_ns"}},
            {"steps", {"steps", "lead_ins", "source", "step_count", "median_duration_ns"}},
            {"memory", {"memory", "memory_per_step", "other_curves"}},
            {"pipeline",
             {"verdict", "input_share", "input_stages", "dataloader", "input_wait_per_step"}},
            {"launch",
             {"kernels", "kernels_with_launch", "delay", "delay_histogram", "launch",
              "short_kernels"}},
            {"advice", {"findings"}},
            {"health", {"health", "health_instances"}}};
        QTemporaryDir dir;
        const QString cpuOnly = dir.path() + "/cpu_only.json";
        QVERIFY(gapscope::test::writeFile(
            cpuOnly.toStdString(),
            R"([{"ph":"X","pid":1,"tid":1,"name":"work","ts":0,"dur":10}])"));
        for (const auto& [command, keys] : commands) {
            const QString c = command;
            Run r = runCli({c, "--help"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(
                r.out.contains("--format") && r.out.contains("Usage: gapscope-cli " + c.toUtf8()),
                command);
            r = runCli({c, sample, "--format", "json"});
            QCOMPARE(r.exitCode, 0);
            const json j = json::parse(r.out.toStdString());
            for (const char* key : keys)
                QVERIFY2(j.contains(key), (std::string(command) + ": " + key).c_str());
            QCOMPARE(j["analysis"].get<std::string>(), std::string(command));
            for (const char* format : {"table", "csv", "md", "html"}) {
                r = runCli({c, sample, "--format", format});
                QCOMPARE(r.exitCode, 0);
                QVERIFY(!r.out.isEmpty());
            }
            QCOMPARE(runCli({c, sample, "--format", "xml"}).exitCode, 1);
            if (std::string(command) != "health" && std::string(command) != "timeline" &&
                std::string(command) != "launch")
                QCOMPARE(runCli({c, sample, "--step-regex", "("}).exitCode, 1);
            QCOMPARE(runCli({c, "/nonexistent/trace.json"}).exitCode, 2);
            r = runCli({c, cpuOnly, "--format", "json"});
            QCOMPARE(r.exitCode, 0);
            QVERIFY(json::parse(r.out.toStdString()).is_object());
            r = runCli({c, cpuOnly});
            QCOMPARE(r.exitCode, 0);
            QVERIFY2(r.err.isEmpty(), r.err.constData());
        }
        // --step: one step for `steps`, the step's window for the others.
        Run r = runCli({"steps", sample, "--format", "json"});
        const json all = json::parse(r.out.toStdString());
        QVERIFY(all["steps"].size() > 1);
        const json& first = all["steps"][0];
        const std::string n = std::to_string(first["step"].get<int64_t>());
        r = runCli({"steps", sample, "--format", "json", "--step", QString::fromStdString(n)});
        QCOMPARE(r.exitCode, 0);
        const json one = json::parse(r.out.toStdString());
        QCOMPARE(one["steps"].size(), size_t(1));
        QVERIFY(one["steps"][0] == first);
        // The breakdown is over the step's GPU window, and adds up to it.
        const json& b = first;
        int64_t parts = 0;
        for (const char* part :
             {"compute_ns", "exposed_comm_ns", "exposed_memcpy_ns", "idle_input_ns",
              "idle_synchronization_ns", "idle_communication_ns", "idle_host_ns", "idle_other_ns",
              "idle_short_ns"})
            parts += b[part].get<int64_t>();
        QCOMPARE(parts, b["gpu_window_ns"].get<int64_t>());
        r = runCli({"timeline", sample, "--format", "json", "--step", QString::fromStdString(n)});
        QCOMPARE(r.exitCode, 0);
        const json tl = json::parse(r.out.toStdString());
        QVERIFY(tl["timeline"][0]["computation_ns"] == b["compute_ns"]);
        r = runCli({"timeline", sample, "--step", "987654"});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("no step 987654"));
        // The sample waits for its DataLoader: advice says so first, with evidence.
        r = runCli({"advice", sample, "--format", "json"});
        const json advice = json::parse(r.out.toStdString());
        QVERIFY(!advice["findings"].empty());
        QCOMPARE(advice["findings"][0]["rule"].get<std::string>(), std::string("input-bound"));
        for (const json& f : advice["findings"])
            QVERIFY(!f["evidence"]["ranges"].empty() || !f["evidence"]["slices"].empty());
        r = runCli({"advice", sample});
        QVERIFY(r.out.contains("The GPU waits for input"));
        QVERIFY(r.out.contains("num_workers"));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
