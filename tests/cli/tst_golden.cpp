// Golden outputs of gapscope-cli, in the style of Perfetto's diff tests:
// every command in every --format on the bundled sample, a recorded JAX
// profile and a handful of real traces of ../shared/traces, each output
// checked in under tests/golden/<trace>/<command>.<format> and compared byte
// for byte. A change to a number, a column or a message shows as a diff of
// those files, reviewed in the commit.
//
// To accept a change on purpose: GAPSCOPE_UPDATE_GOLDEN=1 ctest -R tst_golden
// rewrites the files (never under GAPSCOPE_REQUIRE_INPUTS, i.e. never in
// CI); then read `git diff tests/golden` before committing.
//
// The CLI runs in the trace's folder with the file's bare name, so that no
// path of this machine enters the output; --no-cache throughout.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include "report/analysis_registry.h"
#include "report/analysis_schema.h"
#include "support/cli_run.h"
#include "support/generator.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

namespace test = gapscope::test;
using gapscope::Analysis;
using gapscope::analysisRegistry;

namespace {

enum class Where { Repo, Shared };

struct Input {
    const char* id;  // the folder under tests/golden
    Where where;
    const char* path;  // under the repository, or under ../shared/traces
};

// One trace per producer and shape, small enough to keep the outputs short.
const Input kTraces[] = {
    {"sample", Where::Repo, "resources/samples/h200_cnn_dataloader.pt.trace.json.gz"},
    {"jax_mlp_xspace", Where::Repo, "tests/data/recorded/jax_mlp.xplane.pb"},
    {"hta_rank", Where::Shared, "hta/tests/data/rank_unavailable/rank_not_found.json.gz"},
    {"kineto_gpu_metrics", Where::Shared, "kineto/tb_plugin/test/gpu_metrics_input.json"},
    {"tf_trace_viewer", Where::Shared, "xprof/plugin/trace_viewer/tf_trace_viewer/data/trace.json"},
    {"nsight_cloverleaf", Where::Shared,
     "pipit/tests/data/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite"},
};

// The eight ranks of a DLRM job (ranks, and diff of two of them).
const char* const kRanksFolder =
    "param/example_input_files/chakra_traces/dlrm_kineto_extracted/dlrm_kineto";
const char* const kDiffBase = "worker0_step_12.1694128201545.pt.trace.json";
const char* const kDiffNew = "worker1_step_12.1694128201556.pt.trace.json";

// Every registered analysis: a new one gets its goldens without a line here.
std::vector<QString> analysisIds() {
    std::vector<QString> ids;
    for (const Analysis& a : analysisRegistry().all())
        if (a.readsOneTrace()) ids.push_back(QString::fromStdString(a.id));
    return ids;
}

// Before/after pairs: every analysis's JSON of each and the diff of the
// two, the numbers a comparison of runs rests on. Kineto's ResNet50 pair
// (the DataLoader with 0 and with 4 workers) and the bf16 transformer
// recorded on an H200 (the DataLoader in the process, then 8 workers).
struct Pair {
    const char* baseId;
    const char* newId;
    Where where;
    const char* folder;
    const char* base;  // relative to folder
    const char* candidate;
};
const Pair kPairs[] = {
    {"resnet50_workers_0", "resnet50_workers_4", Where::Shared, "kineto/tb_plugin/samples",
     "resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz",
     "resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz"},
    {"h200_transformer_input_bound", "h200_transformer_workers", Where::Repo, "tests/data/recorded",
     "h200_transformer_input_bound.pt.trace.json.gz", "h200_transformer_workers.pt.trace.json.gz"},
};

// A generated two-GPU Kineto trace with a planted input stall: the same
// generator options as tst_gpu_analyses's "kineto 5" row, which checks its
// busy time, kernels and gaps against the generator's truth and the
// Python reference. Generated once per run into a temporary folder ("" when
// ../shared or Python is absent).
const char* const kGeneratedName = "kineto_2gpu_seed5.json";
QString generatedFolder() {
    static QTemporaryDir dir;
    static const QString folder = [] {
        if (test::sharedDir().isEmpty() || test::python().isEmpty() || !dir.isValid())
            return QString();
        const test::Generated g = test::generateTrace(
            dir.path(), QString::fromLatin1(kGeneratedName),
            {"--profile", "kineto", "--gpus", "2", "--steps", "7", "--seed", "5"});
        if (!g.error.isEmpty()) qWarning("the generator failed: %s", qPrintable(g.error));
        return g.error.isEmpty() ? dir.path() : QString();
    }();
    return folder;
}

QString extension(const QString& format) {
    return format == QLatin1String("table") ? QStringLiteral("txt") : format;
}

QString goldenDir() {
    return test::sourceDir() + QStringLiteral("/tests/golden");
}

QString absoluteInput(Where where, const QString& path) {
    if (where == Where::Repo) return test::sourceDir() + QLatin1Char('/') + path;
    const QString traces = test::sharedTraces();
    return traces.isEmpty() ? QString() : traces + QLatin1Char('/') + path;
}

struct Case {
    QString golden;  // relative to tests/golden
    QString folder;  // where the CLI runs; "" when the input is absent
    QStringList args;
};

QList<Case> allCases() {
    QList<Case> cases;
    for (const Input& t : kTraces) {
        const QFileInfo file(absoluteInput(t.where, QString::fromLatin1(t.path)));
        const QString folder = file.exists() ? file.absolutePath() : QString();
        const QString name = file.fileName();
        const QString id = QString::fromLatin1(t.id) + QLatin1Char('/');
        const auto add = [&](const QString& golden, QStringList args) {
            args << QStringLiteral("--no-cache");
            cases.append({id + golden, folder, args});
        };
        // The model without the args' raw text (the file's own bytes).
        add(QStringLiteral("dump.txt"),
            {QStringLiteral("dump"), name, QStringLiteral("--no-args-text")});
        for (const QString& command : analysisIds()) {
            for (const char* format : {"table", "csv", "md", "json"}) {
                add(QStringLiteral("%1.%2").arg(command, extension(QLatin1String(format))),
                    {command, name, QStringLiteral("--format"), QLatin1String(format)});
            }
        }
        for (const char* format : {"md", "csv", "json", "html"}) {
            add(QStringLiteral("summary.%1").arg(QLatin1String(format)),
                {QStringLiteral("summary"), name, QStringLiteral("--format"),
                 QLatin1String(format)});
        }
    }
    const QFileInfo ranks(absoluteInput(Where::Shared, QString::fromLatin1(kRanksFolder)));
    const QString job = ranks.exists() ? ranks.absoluteFilePath() : QString();
    for (const char* format : {"table", "csv", "md", "json"}) {
        cases.append({QStringLiteral("dlrm_job/ranks.%1").arg(extension(QLatin1String(format))),
                      job,
                      {QStringLiteral("ranks"), QStringLiteral("."), QStringLiteral("--format"),
                       QLatin1String(format), QStringLiteral("--no-cache")}});
    }
    for (const char* format : {"table", "md", "json"}) {
        cases.append(
            {QStringLiteral("dlrm_job/diff.%1").arg(extension(QLatin1String(format))),
             job,
             {QStringLiteral("diff"), QLatin1String(kDiffBase), QLatin1String(kDiffNew),
              QStringLiteral("--format"), QLatin1String(format), QStringLiteral("--no-cache")}});
    }
    const auto everyAnalysisJson = [&](const char* id, const QString& folder, const char* file) {
        for (const QString& command : analysisIds())
            cases.append({QStringLiteral("%1/%2.json").arg(QLatin1String(id), command),
                          folder,
                          {command, QLatin1String(file), QStringLiteral("--format"),
                           QStringLiteral("json"), QStringLiteral("--no-cache")}});
        cases.append({QStringLiteral("%1/summary.json").arg(QLatin1String(id)),
                      folder,
                      {QStringLiteral("summary"), QLatin1String(file), QStringLiteral("--format"),
                       QStringLiteral("json"), QStringLiteral("--no-cache")}});
    };
    everyAnalysisJson("generated_kineto_2gpu", generatedFolder(), kGeneratedName);
    for (const Pair& p : kPairs) {
        const QFileInfo dir(absoluteInput(p.where, QString::fromLatin1(p.folder)));
        const QString pairFolder = dir.exists() ? dir.absoluteFilePath() : QString();
        everyAnalysisJson(p.baseId, pairFolder, p.base);
        everyAnalysisJson(p.newId, pairFolder, p.candidate);
        const QString newName = QString::fromLatin1(p.newId);
        for (const char* format : {"md", "json"}) {
            cases.append({QStringLiteral("%1/diff_%2.%3")
                              .arg(QLatin1String(p.baseId), newName, QLatin1String(format)),
                          pairFolder,
                          {QStringLiteral("diff"), QLatin1String(p.base),
                           QLatin1String(p.candidate), QStringLiteral("--format"),
                           QLatin1String(format), QStringLiteral("--no-cache")}});
        }
    }
    // The planted memory trace (tests/tools/make_planted_memory.py): what is
    // alive at the peak and at a moment asked for, what steps leave behind.
    const QString memoryFolder = test::fixture(QStringLiteral("memory"));
    for (const char* format : {"table", "json"}) {
        const QString ext = extension(QLatin1String(format));
        cases.append(
            {QStringLiteral("planted_memory/memory_leaks.%1").arg(ext),
             memoryFolder,
             {QStringLiteral("memory"), QStringLiteral("planted.json"), QStringLiteral("--leaks"),
              QStringLiteral("--format"), QLatin1String(format), QStringLiteral("--no-cache")}});
        cases.append(
            {QStringLiteral("planted_memory/memory_at_2600us.%1").arg(ext),
             memoryFolder,
             {QStringLiteral("memory"), QStringLiteral("planted.json"), QStringLiteral("--at"),
              QStringLiteral("2600000"), QStringLiteral("--format"), QLatin1String(format),
              QStringLiteral("--no-cache")}});
        cases.append(
            {QStringLiteral("planted_memory/hostile.%1").arg(ext),
             memoryFolder,
             {QStringLiteral("memory"), QStringLiteral("hostile.json"), QStringLiteral("--format"),
              QLatin1String(format), QStringLiteral("--no-cache")}});
    }
    return cases;
}

// What a case shows: its output, and when it exits other than 0, the
// status and what it said on stderr.
QByteArray shown(const test::CliRun& r) {
    QByteArray text = r.out;
    if (r.exitCode != 0) {
        text += "\n[exit " + QByteArray::number(r.exitCode) + "]\n" + r.err;
    }
    return text;
}

// The first line where two texts differ, both sides, for the failure message.
QString firstDifference(const QByteArray& expected, const QByteArray& actual) {
    const QList<QByteArray> e = expected.split('\n'), a = actual.split('\n');
    for (qsizetype i = 0; i < std::max(e.size(), a.size()); ++i) {
        const QByteArray le = i < e.size() ? e[i] : QByteArray("<end of file>");
        const QByteArray la = i < a.size() ? a[i] : QByteArray("<end of output>");
        if (le != la) {
            // CSV lines end in \r\n: show the \r rather than a '?'.
            const auto shownLine = [](QByteArray line) {
                return QString::fromUtf8(line.replace('\r', "\\r"));
            };
            return QStringLiteral("line %1:\n  expected: %2\n  actual:   %3")
                .arg(i + 1)
                .arg(shownLine(le), shownLine(la));
        }
    }
    return QStringLiteral("(no line differs)");
}

bool updating() {
    return qEnvironmentVariableIntValue("GAPSCOPE_UPDATE_GOLDEN") != 0;
}

}  // namespace

std::string readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

class TestGolden : public QObject {
    Q_OBJECT
  private slots:
    void initTestCase() {
        QVERIFY2(!(updating() && test::inputsRequired()),
                 "GAPSCOPE_UPDATE_GOLDEN is refused under GAPSCOPE_REQUIRE_INPUTS (CI compares, "
                 "never rewrites)");
    }

    void outputs_data() {
        QTest::addColumn<QString>("golden");
        QTest::addColumn<QString>("folder");
        QTest::addColumn<QStringList>("args");
        const QList<Case> cases = allCases();
        QVERIFY(cases.size() >= 240);
        for (const Case& c : cases)
            QTest::newRow(qPrintable(c.golden)) << c.golden << c.folder << c.args;
    }

    void outputs() {
        QFETCH(QString, golden);
        QFETCH(QString, folder);
        QFETCH(QStringList, args);
        GAPSCOPE_SKIP_IF_MISSING(folder.isEmpty(),
                                 "its input is in ../shared (or made by its generator with "
                                 "Python), which is absent");
        const test::CliRun r = test::runCli(args, 300000, folder);
        QVERIFY2(r.exitCode >= 0, "gapscope-cli did not finish, or crashed");
        const QByteArray actual = shown(r);
        const QString path = goldenDir() + QLatin1Char('/') + golden;
        if (updating()) {
            QVERIFY(QDir().mkpath(QFileInfo(path).absolutePath()));
            QFile out(path);
            QVERIFY(out.open(QIODevice::WriteOnly | QIODevice::Truncate));
            QCOMPARE(out.write(actual), actual.size());
            return;
        }
        QFile in(path);
        QVERIFY2(in.open(QIODevice::ReadOnly),
                 qPrintable(path + " is missing: run with GAPSCOPE_UPDATE_GOLDEN=1 and review "
                                   "the new file"));
        const QByteArray expected = in.readAll();
        QVERIFY2(expected == actual,
                 qPrintable(QStringLiteral("gapscope-cli %1 (in %2) differs from tests/golden/%3 "
                                           "at %4\n(GAPSCOPE_UPDATE_GOLDEN=1 rewrites it)")
                                .arg(args.join(QLatin1Char(' ')), folder, golden,
                                     firstDifference(expected, actual))));
    }

    // Every file under tests/golden is some case's output: a renamed
    // command or trace leaves no stale file behind.
    // docs/schema holds each built-in analysis's schema as its
    // registration makes it (GAPSCOPE_UPDATE_GOLDEN=1 writes them). Here,
    // where no test registers an analysis of its own: the summary's shape
    // is the built-in analyses' parts.
    void publishedSchemasAreTheRegistrys() {
        const QString folder = test::sourceDir() + "/docs/schema";
        const bool update = qEnvironmentVariableIsSet("GAPSCOPE_UPDATE_GOLDEN");
        QStringList expected;
        for (const Analysis& a : analysisRegistry().all()) {
            const QString file = QString::fromStdString(a.id) + ".schema.json";
            expected << file;
            const std::string want = analysisSchema(a).dump(2) + "\n";
            if (update) {
                QFile f(folder + "/" + file);
                QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
                f.write(want.data(), static_cast<qint64>(want.size()));
                continue;
            }
            QVERIFY2(readText(folder + "/" + file) == want,
                     qPrintable(file + " is not what the registration makes (run with "
                                       "GAPSCOPE_UPDATE_GOLDEN=1 and review the diff)"));
        }
        QStringList present = QDir(folder).entryList({"*.schema.json"}, QDir::Files);
        expected.sort();
        present.sort();
        QCOMPARE(present, expected);
    }

    void noGoldenFileIsStale() {
        QSet<QString> expected;
        for (const Case& c : allCases())
            expected.insert(c.golden);
        QStringList stale;
        QDirIterator it(goldenDir(), QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString relative = QDir(goldenDir()).relativeFilePath(it.next());
            if (!expected.contains(relative)) stale << relative;
        }
        QVERIFY2(stale.isEmpty(), qPrintable("no case writes tests/golden/" + stale.join(", ")));
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestGolden)
#include "tst_golden.moc"
