// What a producer's names mean is decided once, at import, by its
// vocabulary (core/model/vocabulary/), and analyses read the facts: which
// profiler wrote the trace, each category's kind in that profiler's
// vocabulary only, a step marker's number, which ranges name a scope, and
// which host slices are the input wait. Each test builds a small trace in
// the producer's shape and states what its construction implies.

#include <QTest>
#include <string>
#include <vector>

#include "analysis/kernel_scopes.h"
#include "analysis/steps.h"
#include "model/slice_kind.h"
#include "model/vocabulary/vocabulary.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;

namespace {

std::string ev(const char* cat, const std::string& name, int pid, int tid, int64_t ts, int64_t dur,
               const std::string& args = {}) {
    return std::string(R"({"ph":"X","cat":")") + cat + R"(","name":")" + name + R"(","pid":)" +
           std::to_string(pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"ts":)" +
           std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) + R"(,"args":{)" + args + "}}";
}

std::string processName(int pid, const std::string& name) {
    return R"({"ph":"M","name":"process_name","pid":)" + std::to_string(pid) +
           R"(,"args":{"name":")" + name + R"("}})";
}

std::string trace(const std::vector<std::string>& events, const std::string& top = {}) {
    std::string out = "{" + top + (top.empty() ? "" : ",") + R"("traceEvents":[)";
    for (size_t i = 0; i < events.size(); ++i)
        out += (i ? "," : "") + events[i];
    return out + "]}";
}

std::shared_ptr<const Trace> load(const std::string& json) {
    LoadResult r = test::loadJsonText(json);
    if (!r.trace && r.failure) qWarning("%s", r.failure->message().c_str());
    return r.trace;
}

// The slice of that name (the first).
const Slice* named(const Trace& t, std::string_view name) {
    for (const Slice& s : t.slices)
        if (t.str(s.name) == name) return &s;
    return nullptr;
}

}  // namespace

class TestVocabularyFacts : public QObject {
    Q_OBJECT
  private slots:
    void theProducerIsDecidedAtImport_data() {
        QTest::addColumn<QString>("path");
        QTest::addColumn<int>("producer");
        const QString recorded = test::sourceDir() + "/tests/data/recorded/";
        QTest::newRow("Kineto (the sample)") << test::samplePath() << int(Producer::Kineto);
        QTest::newRow("XSpace") << recorded + "jax_mlp.xplane.pb" << int(Producer::TensorFlow);
        // TensorBoard's trace viewer JSON of the same run: "/host:CPU" and
        // "/device:GPU:0" processes.
        QTest::newRow("TensorFlow trace viewer JSON")
            << recorded + "jax_mlp.trace.json.gz" << int(Producer::TensorFlow);
    }
    void theProducerIsDecidedAtImport() {
        QFETCH(QString, path);
        QFETCH(int, producer);
        const LoadResult r = loadTrace(path.toStdString());  // no cache: parsed
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        QCOMPARE(int(r.trace->producer), producer);
    }

    // Without Kineto's top-level keys, its categories say it; a trace of
    // none of the producers' categories is nobody's.
    void theProducerOfAPlainTrace() {
        auto t = load(trace({ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 0, 5)}));
        QVERIFY(t);
        QCOMPARE(t->producer, Producer::Kineto);
        // "Operator": Kineto of 2021 wrote it as TensorFlow does.
        t = load(trace({ev("Operator", "MatMul", 1, 1, 0, 5)}));
        QVERIFY(t);
        QCOMPARE(t->producer, Producer::Kineto);
        t = load(trace({ev("render", "frame", 1, 1, 0, 5), ev("", "layout", 1, 1, 10, 5)}));
        QVERIFY(t);
        QCOMPARE(t->producer, Producer::Unknown);
        t = load(trace({ev("cpu_op", "aten::mm", 1, 1, 0, 5)}, R"("schemaVersion":1)"));
        QVERIFY(t);
        QCOMPARE(t->producer, Producer::Kineto);
    }

    // A category means what its producer's vocabulary says, not another's:
    // Nsight's "CUDA runtime" and "NVTX" nothing in a Kineto trace, Kineto's
    // "cuda_runtime" and "user_annotation" nothing in a TensorFlow trace.
    // (Kineto of 2021 wrote "Kernel", "Operator", … as TensorFlow does: its
    // vocabulary has them too.)
    void eachProducerItsOwnVocabulary() {
        auto kineto = load(
            trace({ev("cpu_op", "aten::mm", 1, 1, 0, 50), ev("Operator", "aten::add", 1, 1, 60, 5),
                   ev("CUDA runtime", "cuLaunchKernel", 1, 1, 70, 5),
                   ev("NVTX", "nvtx_range", 1, 1, 80, 5)},
                  R"("schemaVersion":1)"));
        QVERIFY(kineto);
        QCOMPARE(kineto->producer, Producer::Kineto);
        QCOMPARE(sliceKind(*named(*kineto, "aten::mm")), SliceKind::CpuOp);
        QCOMPARE(sliceKind(*named(*kineto, "aten::add")), SliceKind::CpuOp);
        QCOMPARE(sliceKind(*named(*kineto, "cuLaunchKernel")), SliceKind::Other);
        QCOMPARE(sliceKind(*named(*kineto, "nvtx_range")), SliceKind::Other);

        auto tf = load(trace({processName(1, "/host:CPU"), ev("Operator", "MatMul", 1, 1, 0, 50),
                              ev("cuda_runtime", "cudaLaunchKernel", 1, 1, 100, 5),
                              ev("user_annotation", "## step ##", 1, 1, 110, 5)}));
        QVERIFY(tf);
        QCOMPARE(tf->producer, Producer::TensorFlow);
        QCOMPARE(sliceKind(*named(*tf, "MatMul")), SliceKind::CpuOp);
        QCOMPARE(sliceKind(*named(*tf, "cudaLaunchKernel")), SliceKind::Other);
        QCOMPARE(sliceKind(*named(*tf, "## step ##")), SliceKind::Other);

        // Nobody's trace: every vocabulary applies.
        auto plain = load(trace({ev("NVTX", "nvtx_range", 1, 1, 0, 5)}));
        QVERIFY(plain);
        QCOMPARE(plain->producer, Producer::Unknown);
        QCOMPARE(sliceKind(*named(*plain, "nvtx_range")), SliceKind::UserAnnotation);
    }

    // TensorFlow's train / test markers carry their number as step_num: an
    // integer, a string of digits, or a number with a zero fraction. Read
    // at import; a fraction, a string with one, a negative or a word is no
    // step number, so that marker is no step.
    void stepNumbersAreReadAtImport() {
        auto t = load(trace({ev("", "train", 1, 1, 0, 10, R"("step_num":5)"),
                             ev("", "train", 1, 1, 20, 10, R"("step_num":"6")"),
                             ev("", "train", 1, 1, 40, 10, R"("step_num":7.0)"),
                             ev("", "train", 1, 1, 60, 10, R"("step_num":7.5)"),
                             ev("", "train", 1, 1, 70, 5, R"("step_num":"7.0")"),
                             ev("", "train", 1, 1, 80, 10, R"("step_num":-1)"),
                             ev("", "train", 1, 1, 100, 10, R"("step_num":"eight")"),
                             ev("", "test", 1, 1, 120, 10, R"("step_num":9)")}));
        QVERIFY(t);
        const StepList steps = findSteps(*t);
        QCOMPARE(steps.source, StepSource::TrainTest);
        std::vector<int64_t> numbers;
        for (const Step& s : steps.steps)
            numbers.push_back(s.number);
        QCOMPARE(numbers, (std::vector<int64_t>{5, 6, 7, 9}));
        const auto first = t->extractedArgs(t->slices[steps.steps[0].slice].args);
        QVERIFY(first);
        QCOMPARE(first->stepNumber, int64_t(5));
    }

    // Which ranges name a scope (record_function, NVTX, nn.Module frames),
    // decided at import; torch.compile's ranges, emit_nvtx's per-op ranges,
    // ops and steps do not.
    void namedScopesAreDecidedAtImport() {
        auto t = load(trace({ev("user_annotation", "## mlp ##", 1, 1, 0, 100),
                             ev("python_function", "nn.Module: Linear_0", 1, 1, 1, 90),
                             ev("user_annotation", "## Call CompiledFxGraph fx3k ##", 1, 1, 2, 80),
                             ev("user_annotation", "aten::mm, seq = 4, op_id = 9", 1, 1, 3, 70),
                             ev("cpu_op", "aten::mm", 1, 1, 4, 60),
                             ev("user_annotation", "ProfilerStep#3", 1, 2, 0, 200)}));
        QVERIFY(t);
        auto scope = [&](std::string_view name) { return isScopeSlice(*t, *named(*t, name)); };
        QVERIFY(scope("## mlp ##"));
        QVERIFY(scope("nn.Module: Linear_0"));
        QVERIFY(!scope("## Call CompiledFxGraph fx3k ##"));
        QVERIFY(!scope("aten::mm, seq = 4, op_id = 9"));
        QVERIFY(!scope("aten::mm"));
        QVERIFY(!scope("ProfilerStep#3"));
        QCOMPARE(sliceKind(*named(*t, "ProfilerStep#3")), SliceKind::Step);
    }

    // One input wait: the host role decided at import is what the gap
    // causes count as input and what the input pipeline reads, which the
    // vocabulary splits into a stage working and the loop waiting.
    void theInputWaitHasOneDefinition() {
        auto t = load(trace(
            {ev("", "Iterator::Prefetch::ParallelMap", 1, 2, 0, 40),
             ev("", "IteratorGetNext", 1, 1, 0, 50),
             ev("python_function", "enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
                1, 1, 60, 30),
             ev("cpu_op", "aten::copy_", 1, 1, 100, 5)}));
        QVERIFY(t);
        using vocabulary::InputRole;
        const std::pair<const char*, InputRole> expected[] = {
            {"Iterator::Prefetch::ParallelMap", InputRole::Stage},
            {"IteratorGetNext", InputRole::GetNext},
            {"enumerate(DataLoader)#_MultiProcessingDataLoaderIter.__next__",
             InputRole::DataLoaderNext}};
        for (const auto& [name, role] : expected) {
            QCOMPARE(hostRole(*named(*t, name)), HostRole::InputWait);
            QCOMPARE(vocabulary::inputRoleOfName(name), role);
        }
        QCOMPARE(hostRole(*named(*t, "aten::copy_")), HostRole::None);
        QCOMPARE(vocabulary::inputRoleOfName("aten::copy_"), InputRole::None);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestVocabularyFacts)
#include "tst_vocabulary_facts.moc"
