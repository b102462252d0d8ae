// A job of 1024 ranks opens within its memory bound: the peak a load adds
// to the process stays under 0.4x the bytes of the ranks' files, as one
// file's load does (docs/performance.md, "Many ranks"). The ranks are
// written here (Kineto-shaped: a step, ops, launches, kernels with their
// flows and args, distributedInfo), 1024 of about 400 KB; the load runs in
// a child process, whose peak is reset before it starts, so that nothing
// else the test process did counts.

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QTemporaryDir>
#include <QTest>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "loader/rank_set.h"
#include "loader/rank_view.h"
#include "support/suite_main.h"

using namespace gapscope;

namespace {

constexpr int kRanks = 1024;
constexpr int kSteps = 2;
constexpr int kKernelsPerStep = 150;

// One rank's trace; its times a little later on each rank.
std::string rankTrace(int rank) {
    std::ostringstream s;
    s << R"({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": )" << rank
      << R"(, "world_size": )" << kRanks << R"(}, "traceEvents": [)" << '\n'
      << R"({"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "python"}},)"
      << '\n'
      << R"({"ph": "M", "name": "process_name", "pid": 0, "tid": 0, "args": {"name": "GPU 0"}})";
    int64_t t = 1'000'000 + rank * 7;
    int64_t id = 1;
    for (int step = 0; step < kSteps; ++step) {
        const int64_t stepStart = t;
        const int64_t stepDur = kKernelsPerStep * 40 + 20;
        s << ",\n"
          << R"({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#)" << step
          << R"(", "pid": 100, "tid": 1, "ts": )" << stepStart << R"(, "dur": )" << stepDur
          << R"(, "args": {"External id": )" << id++ << "}}";
        for (int k = 0; k < kKernelsPerStep; ++k) {
            // As PyTorch 2 writes them: an op, its launch, its kernel, the
            // flow between them.
            const int64_t op = stepStart + 5 + k * 40;
            const int64_t correlation = id++;
            s << ",\n"
              << R"({"ph": "X", "cat": "cpu_op", "name": "aten::addmm", "pid": 100, "tid": 1, )"
              << R"("ts": )" << op << R"(.125, "dur": 30.250, "args": {"External id": )"
              << correlation << R"(, "Record function id": 0, "Ev Idx": )" << k
              << R"(, "Sequence number": )" << 4000 + k
              << R"(, "Fwd thread id": 0, "Input Dims": [[1024], [512, 4096], [4096, 1024], [], )"
              << R"([]], "Input type": ["float", "float", "float", "Scalar", "Scalar"], )"
              << R"("Input Strides": [[1], [4096, 1], [1, 4096], [], []], )"
              << R"("Concrete Inputs": ["", "", "", "1", "1"]}})"
              << ",\n"
              << R"({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 100, )"
              << R"("tid": 1, "ts": )" << op + 10 << R"(.500, "dur": 8.375, "args": {"cbid": 211, )"
              << R"("correlation": )" << correlation << R"(, "External id": )" << correlation
              << "}},\n"
              << R"({"ph": "X", "cat": "kernel", "name": "void cutlass::Kernel2<)"
              << R"(cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>)"
              << R"x((cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4::Params)", )x"
              << R"("pid": 0, "tid": 7, "ts": )" << op + 20 << R"(.750, "dur": 25.125, )"
              << R"("args": {"queued": 0, "device": 0, "context": 1, "stream": 7, )"
              << R"("correlation": )" << correlation << R"(, "registers per thread": 128, )"
              << R"("shared memory": 65536, "blocks per SM": 1.509434, "warps per SM": 12.075472, )"
              << R"("grid": [8, 32, 1], "block": [128, 1, 1], )"
              << R"("est. achieved occupancy %": 12}},)" << '\n'
              << R"({"ph": "f", "id": )" << correlation << R"(, "pid": 0, "tid": 7, "ts": )"
              << op + 20 << R"(.750, "cat": "ac2g", "name": "ac2g", "bp": "e"},)" << '\n'
              << R"({"ph": "s", "id": )" << correlation << R"(, "pid": 100, "tid": 1, "ts": )"
              << op + 10 << R"(.500, "cat": "ac2g", "name": "ac2g"})";
        }
        t += stepDur + 30;
    }
    s << "\n]}\n";
    return s.str();
}

// A field of /proc/self/status, in kB (-1 when missing).
long statusKb(const char* field) {
    std::ifstream in("/proc/self/status");
    std::string line;
    const std::string key = std::string(field) + ":";
    while (std::getline(in, line))
        if (line.rfind(key, 0) == 0) return std::stol(line.substr(key.size()));
    return -1;
}

struct ChildFigures {
    long addedKb = -1;  // peak RSS during the load minus the RSS before it
    uint64_t ranks = 0, modelBytes = 0;
    bool mergedAsLoaded = false;
};

}  // namespace

class TestJobMemory : public QObject {
    Q_OBJECT

    QTemporaryDir dir_;

  private slots:
    void aThousandRanksOpenWithinTheMemoryBound() {
        QVERIFY(dir_.isValid());
        std::vector<std::string> files;
        uint64_t bytes = 0;
        for (int r = 0; r < kRanks; ++r) {
            const std::string path =
                dir_.filePath("rank" + QString::number(r) + ".pt.trace.json").toStdString();
            const std::string text = rankTrace(r);
            std::ofstream(path, std::ios::binary) << text;
            bytes += text.size();
            files.push_back(path);
        }
        int pipeFd[2];
        QVERIFY(pipe(pipeFd) == 0);
        const pid_t pid = fork();
        QVERIFY(pid >= 0);
        if (pid == 0) {
            close(pipeFd[0]);
            ChildFigures f;
            // The peak so far is the parent's: reset it ("5": VmHWM := VmRSS).
            std::ofstream("/proc/self/clear_refs") << "5";
            const long before = statusKb("VmRSS");
            RankViewOptions options;
            options.load.workers = 2;
            const RankView view = loadRankView(wholeFiles(files), "job", options);
            const long peak = statusKb("VmHWM");
            if (view.trace && before >= 0 && peak >= 0) {
                f.addedKb = peak - before;
                f.ranks = view.trace->ranks.size();
                f.modelBytes = view.trace->memoryBytes();
                f.mergedAsLoaded = view.mergedAsLoaded;
            }
            _exit(write(pipeFd[1], &f, sizeof f) == sizeof f ? 0 : 1);
        }
        close(pipeFd[1]);
        // A load that hangs fails here rather than stalling the suite.
        pollfd ready{pipeFd[0], POLLIN, 0};
        const bool answered = poll(&ready, 1, 300'000) == 1;
        if (!answered) kill(pid, SIGKILL);
        ChildFigures f;
        const bool got = answered && read(pipeFd[0], &f, sizeof f) == sizeof f;
        close(pipeFd[0]);
        int status = 0;
        waitpid(pid, &status, 0);
        QVERIFY2(answered, "the load did not finish in 5 minutes");
        QVERIFY(got);
        const double ratio = double(f.addedKb) * 1024.0 / double(bytes);
        std::printf(
            "%d ranks, %.1f MB of files: the load added %.1f MB at its peak (%.2fx), the model "
            "%.1f MB\n",
            kRanks, double(bytes) / 1e6, double(f.addedKb) * 1024.0 / 1e6, ratio,
            double(f.modelBytes) / 1e6);
        QCOMPARE(f.ranks, uint64_t(kRanks));
        QVERIFY(f.mergedAsLoaded);
        QVERIFY(f.addedKb > 0);
        // Were every rank held until all had loaded, several times: a rank's
        // own trace holds far more than its bytes (its arrays' reserve, its
        // indices and tables).
        QVERIFY2(ratio <= 0.4, qPrintable(QStringLiteral("peak %1x the files").arg(ratio)));
    }
};

GAPSCOPE_TEST_APPLESS_MAIN(TestJobMemory)
#include "tst_job_memory.moc"
