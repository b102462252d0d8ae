// The efficiency figures (analysis/op_cost.h, analysis/efficiency.h,
// `gapscope-cli efficiency`): each formula against values computed by hand
// or published by TraceLens (docs/peers/tracelens-perf-model.md, §10), and a
// trace with planted ops of known shapes and kernels of known durations,
// whose TFLOP/s, roofline shares and MFU are the planted numbers' own
// arithmetic, written out here.

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/analysis_index.h"
#include "analysis/efficiency.h"
#include "analysis/op_cost.h"
#include "io/compress.h"
#include "loader/loader.h"
#include "report/analysis_registry.h"
#include "support/suite_main.h"
#include "support/trace_files.h"
#include "support/xspace_writer.h"

using namespace gapscope;

namespace {

// One op's recorded inputs, as Trace::opShapes keeps them.
std::string signature(const char* dims, const char* types, const char* concrete = "") {
    return std::string(dims) + "\n" + types + "\n" + concrete;
}

const DevicePeaks& known(const char* id) {
    for (const DevicePeaks& d : knownDevicePeaks())
        if (d.id == id) return d;
    throw std::runtime_error(std::string("no device ") + id);
}

// The planted trace: one step on an H100 SXM, whose ops and kernels are
// listed in plantedTrace(); µs in the file, ns in the figures.
constexpr double kAddmmFlops = 2.0 * 4096 * 4096 * 4096 + 4096.0 * 4096;  // bias: M·N
constexpr double kAddmmBytes = (3.0 * 4096 * 4096 + 4096) * 2;            // A, B, C, bias row
constexpr double kMmFlops = 2.0 * 2048 * 8192 * 1024;
constexpr double kMmBytes = (2048.0 * 1024 + 1024.0 * 8192 + 2048.0 * 8192) * 2;
constexpr double kFlashFlops = 2.0 * 16 * (2.0 * 2048 * 2048 * 128) * 2 / 2;  // causal
constexpr double kFlashBytes = 4.0 * 2 * 2048 * 16 * 128 * 2;
constexpr double kConvProfilerFlops = 123456789;
constexpr double kAddFlops = 1024.0 * 1024;
constexpr double kAddBytes = 1024.0 * 1024 * 2 + 4 + 1024.0 * 1024 * 2;  // bf16 + a Scalar

std::string plantedTrace() {
    std::string ev;
    auto add = [&](const std::string& e) { ev += (ev.empty() ? "" : ",\n") + e; };
    auto op = [&](const char* name, int ts, int dur, const std::string& args) {
        add(std::string(R"({"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":")") + name +
            R"(","ts":)" + std::to_string(ts) + R"(,"dur":)" + std::to_string(dur) +
            R"(,"args":{)" + args + "}}");
    };
    auto launch = [&](int ts, int corr, const char* kernel, int kts, int kdur) {
        add(R"({"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":)" +
            std::to_string(ts) + R"(,"dur":2,"args":{"correlation":)" + std::to_string(corr) +
            "}}");
        add(std::string(R"({"ph":"X","cat":"kernel","pid":0,"tid":7,"name":")") + kernel +
            R"(","ts":)" + std::to_string(kts) + R"(,"dur":)" + std::to_string(kdur) +
            R"(,"args":{"device":0,"stream":7,"correlation":)" + std::to_string(corr) + "}}");
    };
    const std::string bf16x3 = R"("Input type":["c10::BFloat16","c10::BFloat16","c10::BFloat16")";
    add(R"({"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#1","ts":0,"dur":2000})");
    // Two addmm under linear (the linear carries nothing): 275 and 300 µs.
    const std::string addmm = R"("Input Dims":[[4096],[4096,4096],[4096,4096],[],[]],)" + bf16x3 +
                              R"(,"Scalar","Scalar"],"Concrete Inputs":["","","","1","1"])";
    op("aten::linear", 10, 40, R"("Input Dims":[[4096,4096],[4096,4096],[4096]],)" + bf16x3 + "]");
    op("aten::addmm", 15, 30, addmm);
    launch(20, 1, "sm90_xmma_gemm_bf16bf16_bf16f32", 100, 275);
    op("aten::linear", 60, 40, R"("Input Dims":[[4096,4096],[4096,4096],[4096]],)" + bf16x3 + "]");
    op("aten::addmm", 65, 30, addmm);
    launch(70, 2, "sm90_xmma_gemm_bf16bf16_bf16f32", 400, 300);
    // mm under matmul: 100 µs.
    op("aten::matmul", 110, 40, R"("Input Dims":[[2048,1024],[1024,8192]],)" + bf16x3 + "]");
    op("aten::mm", 115, 30, R"("Input Dims":[[2048,1024],[1024,8192]],)" + bf16x3 + "]");
    launch(120, 3, "sm90_xmma_gemm_bf16bf16_bf16f32_nn", 700, 100);
    // Causal flash attention: 80 µs.
    op("aten::_scaled_dot_product_flash_attention", 160, 30,
       R"("Input Dims":[[2,16,2048,128],[2,16,2048,128],[2,16,2048,128],[],[],[],[]],)" + bf16x3 +
           R"(,"Scalar","Scalar","Scalar",""],)" +
           R"("Concrete Inputs":["","","","0.","True","False",""])");
    launch(170, 4, "flash_fwd_kernel", 800, 80);
    // The profiler counted conv2d: its count stands for the convolution inside.
    op("aten::conv2d", 200, 40,
       R"("flops":123456789,"Input Dims":[[8,64,56,56],[128,64,3,3],[]],"Input type":["float","float",""])");
    op("aten::convolution", 205, 30,
       R"("Input Dims":[[8,64,56,56],[128,64,3,3],[],[],[],[],[],[],[]],"Input type":["float","float","","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"],"Concrete Inputs":["","","","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1"])");
    launch(210, 5, "implicit_convolve_sgemm", 900, 50);
    // A memory-bound add: 10 µs.
    op("aten::add", 250, 20,
       R"("Input Dims":[[1024,1024],[],[]],"Input type":["c10::BFloat16","Scalar","Scalar"],"Concrete Inputs":["","2","1"])");
    launch(255, 6, "vectorized_elementwise_kernel", 960, 10);
    // Two collectives on another stream, inside the step's window: an
    // all-reduce whose kernel carries its record, an all-gather whose
    // record is on the record_param_comms op around its launch.
    add(R"({"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":300,"dur":2,"args":{"correlation":7}})");
    add(R"({"ph":"X","cat":"kernel","pid":0,"tid":20,"name":"ncclDevKernel_AllReduce_Sum_bf16_RING_LL","ts":500,"dur":100,"args":{"device":0,"stream":20,"correlation":7,"Collective name":"allreduce","In msg nelems":1048576,"Out msg nelems":1048576,"Group size":8,"dtype":"BFloat16"}})");
    op("record_param_comms", 310, 20,
       R"("Collective name":"allgather","In msg nelems":1024,"Out msg nelems":8192,"Group size":8,"dtype":"Float")");
    add(R"({"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":315,"dur":2,"args":{"correlation":8}})");
    add(R"({"ph":"X","cat":"kernel","pid":0,"tid":20,"name":"ncclDevKernel_AllGather_RING_LL","ts":620,"dur":50,"args":{"device":0,"stream":20,"correlation":8}})");
    return R"({"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3","totalGlobalMem":85520809984,"numSms":132}],
"traceEvents":[)" +
           ev + "]}";
}

// An XSpace whose HLO ops carry XLA's cost analysis (flops,
// bytes_accessed, shape_with_layout), as the JAX and TensorFlow profilers
// record it: a GEMM fusion twice (its cost on its metadata, as TPU planes
// keep it), an add fusion (its cost on the event), a copy with none; the
// plane names its H100.
constexpr double kXlaDotFlops = 2.0 * 4096 * 4096 * 4096;
constexpr double kXlaDotBytes = 3.0 * 4096 * 4096 * 2;
constexpr double kXlaAddFlops = 1048576;
constexpr double kXlaAddBytes = 3.0 * 1048576 * 4;

std::string xlaSpace() {
    using namespace gapscope::test;
    XsPlane gpu;
    gpu.id = 1;
    gpu.name = "/device:GPU:0";
    gpu.statMetadata = {{1, "gpu_device_name"}, {2, "memory_size"},    {3, "core_count"},
                        {4, "flops"},           {5, "bytes_accessed"}, {6, "shape_with_layout"},
                        {7, "f32[1048576]{0}"}};
    XsStat device = XsStat::text(1, "NVIDIA H100 80GB HBM3");
    gpu.stats = {device, XsStat::integer(2, 85520809984), XsStat::integer(3, 132)};
    XsStat dotBytes;
    dotBytes.metadataId = 5;
    dotBytes.kind = XsStat::Kind::Uint64;
    dotBytes.u = static_cast<uint64_t>(kXlaDotBytes);
    gpu.eventMetadata = {{1,
                          "gemm_fusion_dot.1",
                          "",
                          {XsStat::integer(4, static_cast<int64_t>(kXlaDotFlops)), dotBytes,
                           XsStat::text(6, "bf16[4096,4096]{1,0}")}},
                         {2, "loop_add_fusion", "", {}},
                         {3, "copy.2", "", {}}};
    XsLine stream;
    stream.id = 7;
    stream.name = "Stream #7(Compute)";
    stream.timestampNs = 1'000'000;
    auto event = [](int64_t meta, int64_t atUs, int64_t forUs) {
        XsEvent e;
        e.metadataId = meta;
        e.offsetPs = atUs * 1'000'000;
        e.durationPs = forUs * 1'000'000;
        return e;
    };
    XsEvent add = event(2, 500, 20);
    XsStat addFlops;
    addFlops.metadataId = 4;
    addFlops.kind = XsStat::Kind::Double;
    addFlops.d = kXlaAddFlops;
    add.stats = {addFlops, XsStat::integer(5, static_cast<int64_t>(kXlaAddBytes)),
                 XsStat::ref(6, 7)};
    stream.events = {event(1, 0, 150), event(1, 200, 250), add, event(3, 600, 10)};
    gpu.lines = {stream};
    XsSpace space;
    space.planes = {gpu};
    return encodeXSpace(space);
}

// An fp32 mm of 1024³ on an H100 whose one kernel, of 40 µs, is `kernel`.
std::string fp32MmTrace(const char* kernel) {
    return std::string(
               R"({"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3","totalGlobalMem":85520809984,"numSms":132}],
"traceEvents":[
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::mm","ts":10,"dur":30,"args":{"Input Dims":[[1024,1024],[1024,1024]],"Input type":["float","float"]}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":15,"dur":2,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":")") +
           kernel + R"(","ts":50,"dur":40,"args":{"device":0,"stream":7,"correlation":1}}]})";
}

}  // namespace

class TestEfficiency : public QObject {
    Q_OBJECT
  private slots:
    void formulas_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("shapes");
        QTest::addColumn<double>("flops");
        QTest::addColumn<double>("bytes");  // -1: unknown
        auto row = [](const char* tag, const char* name, const std::string& shapes, double f,
                      double b) {
            QTest::newRow(tag) << QString(name) << QString::fromStdString(shapes) << f << b;
        };
        // TraceLens's published example (docs/reference/perf-report-columns.md):
        // 773.35 GFLOPS, 618.01 MB (MiB), 1193.38 FLOPS/Byte.
        row("addmm, TraceLens's published example", "aten::addmm",
            signature("[[6144], [40960, 1536], [1536, 6144], [], []]",
                      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])"),
            773345771520.0, 648032256.0);
        row("mm bf16 4096³", "aten::mm",
            signature("[[4096, 4096], [4096, 4096]]", R"(["c10::BFloat16", "c10::BFloat16"])"),
            2.0 * 4096 * 4096 * 4096, 3.0 * 4096 * 4096 * 2);
        row("mm fp32 4096³", "aten::mm",
            signature("[[4096, 4096], [4096, 4096]]", R"(["float", "float"])"),
            2.0 * 4096 * 4096 * 4096, 3.0 * 4096 * 4096 * 4);
        row("bmm fp16", "aten::bmm",
            signature("[[32, 512, 64], [32, 64, 512]]", R"(["c10::Half", "c10::Half"])"),
            1073741824.0, 20971520.0);
        row("baddbmm: bias row counted", "aten::baddbmm",
            signature("[[32, 512, 512], [32, 512, 64], [32, 64, 512], [], []]",
                      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])"),
            1082130432.0, 21004288.0);
        // TraceLens's test: baddbmm [[2,4,16],[2,4,8],[2,8,16]] is 2 · (2·4·16·8 + 4·16).
        row("baddbmm, TraceLens's test", "aten::baddbmm",
            signature("[[2, 4, 16], [2, 4, 8], [2, 8, 16]]", R"(["float", "float", "float"])"),
            2176.0, 2.0 * (4 * 8 + 8 * 16 + 4 * 16 + 16) * 4);
        row("linear with bias: x (8, 512, 1024), W (3072, 1024)", "aten::linear",
            signature("[[8, 512, 1024], [3072, 1024], [3072]]",
                      R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16"])"),
            2.0 * 4096 * 3072 * 1024 + 4096.0 * 3072,
            (4096.0 * 1024 + 1024.0 * 3072 + 4096.0 * 3072 + 3072) * 2);
        row("linear without bias", "aten::linear",
            signature("[[4096, 1024], [3072, 1024], []]",
                      R"(["c10::BFloat16", "c10::BFloat16", ""])"),
            2.0 * 4096 * 3072 * 1024, (4096.0 * 1024 + 1024.0 * 3072 + 4096.0 * 3072) * 2);
        row("matmul broadcast: (4, 1, 64, 32) @ (3, 32, 16)", "aten::matmul",
            signature("[[4, 1, 64, 32], [3, 32, 16]]", R"(["float", "float"])"),
            12.0 * 2 * 64 * 16 * 32, (4.0 * 64 * 32 + 3.0 * 32 * 16 + 12.0 * 64 * 16) * 4);
        row("scaled_mm fp8: 2-byte output, no bias", "aten::_scaled_mm",
            signature(
                "[[8192, 4096], [4096, 8192], [], [], [], [], [], []]",
                R"(["c10::Float8_e4m3fn", "c10::Float8_e4m3fn", "float", "float", "", "", "", "Scalar"])"),
            549755813888.0, 201326592.0);
        // TraceLens's test: grouped GEMM [[24576,2048],[8,2048,2816]] bf16.
        row("grouped mm", "aten::_grouped_mm",
            signature("[[24576, 2048], [8, 2048, 2816], [8]]",
                      R"(["c10::BFloat16", "c10::BFloat16", "int"])"),
            283467841536.0, 331350016.0);
        row("flash attention, causal", "aten::_scaled_dot_product_flash_attention",
            signature(
                "[[2, 16, 2048, 128], [2, 16, 2048, 128], [2, 16, 2048, 128], [], [], [], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar", "Scalar", ""])",
                R"(["", "", "", "0.", "True", "False", ""])"),
            34359738368.0, 67108864.0);
        row("flash attention, not causal", "aten::_scaled_dot_product_flash_attention",
            signature(
                "[[2, 16, 2048, 128], [2, 16, 2048, 128], [2, 16, 2048, 128], [], [], [], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar", "Scalar", ""])",
                R"(["", "", "", "0.", "False", "False", ""])"),
            68719476736.0, 67108864.0);
        row("cuDNN attention with GQA, causal", "aten::_scaled_dot_product_cudnn_attention",
            signature(
                "[[1, 32, 4096, 128], [1, 8, 4096, 128], [1, 8, 4096, 128], [], [], [], [], [], "
                "[]]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "", "Scalar", "Scalar", "Scalar", "Scalar", ""])",
                R"(["", "", "", "", "True", "0.", "True", "False", ""])"),
            137438953472.0, 83886080.0);
        row("flash attention backward, causal",
            "aten::_scaled_dot_product_flash_attention_backward",
            signature(
                "[[2, 16, 2048, 128], [2, 16, 2048, 128], [2, 16, 2048, 128], [2, 16, 2048, 128], "
                "[2, 16, 2048, 128], [2, 16, 2048], [], [], [], [], [], [], [], [], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "float", "", "", "Scalar", "Scalar", "Scalar", "Scalar", "", "", "Scalar"])",
                R"(["", "", "", "", "", "", "", "", "2048", "2048", "0.", "True", "", "", ""])"),
            85899345920.0, 117440512.0);
        row("convolution 3×3, stride 1, padding 1, no bias", "aten::convolution",
            signature(
                "[[8, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], [], [], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"])",
                R"(["", "", "", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"])"),
            3699376128.0, 9781248.0);
        // With a bias (TraceLens leaves it out): + prod(out) FLOPs, + C_out elements.
        row("convolution with bias, stride 2", "aten::convolution",
            signature(
                "[[8, 64, 56, 56], [128, 64, 3, 3], [128], [], [], [], [], [], []]",
                R"(["float", "float", "float", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar"])",
                R"(["", "", "", "[2, 2]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1"])"),
            8.0 * 128 * 28 * 28 * 2 * 64 * 9 + 8.0 * 128 * 28 * 28,
            (8.0 * 64 * 56 * 56 + 128.0 * 64 * 9 + 8.0 * 128 * 28 * 28 + 128) * 4);
        row("convolution backward, both grads", "aten::convolution_backward",
            signature(
                "[[8, 128, 56, 56], [8, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], [], [], [], "
                "[]]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar", "ScalarList"])",
                R"(["", "", "", "[0]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[True, True, False]"])"),
            7398752256.0, 19562496.0);
        row("convolution backward, the first layer's (no input grad)", "aten::convolution_backward",
            signature(
                "[[8, 128, 56, 56], [8, 64, 56, 56], [128, 64, 3, 3], [], [], [], [], [], [], [], "
                "[]]",
                R"(["c10::BFloat16", "c10::BFloat16", "c10::BFloat16", "ScalarList", "ScalarList", "ScalarList", "ScalarList", "Scalar", "ScalarList", "Scalar", "ScalarList"])",
                R"(["", "", "", "[0]", "[1, 1]", "[1, 1]", "[1, 1]", "False", "[0, 0]", "1", "[False, True, False]"])"),
            3699376128.0, 9781248.0);
        const double n = 8.0 * 1024 * 4096;
        row("layer norm", "aten::layer_norm",
            signature(
                "[[8, 1024, 4096], [], [4096], [4096], [], []]",
                R"(["c10::BFloat16", "ScalarList", "c10::BFloat16", "c10::BFloat16", "Scalar", "Scalar"])",
                R"(["", "[4096]", "", "", "1e-05", "True"])"),
            167796736.0, 134266880.0);
        row("layer norm backward", "aten::native_layer_norm_backward",
            signature(
                "[[8, 1024, 4096], [8, 1024, 4096], [], [8, 1024, 1], [8, 1024, 1], [4096], "
                "[4096], []]",
                R"(["c10::BFloat16", "c10::BFloat16", "ScalarList", "float", "float", "c10::BFloat16", "c10::BFloat16", "ScalarList"])",
                R"(["", "", "[4096]", "", "", "", "", "[True, True, True]"])"),
            301989888.0, 201359360.0);
        row("RMS norm", "aten::_fused_rms_norm",
            signature("[[8, 1024, 4096], [], [4096], []]",
                      R"(["c10::BFloat16", "ScalarList", "c10::BFloat16", "Scalar"])",
                      R"(["", "[4096]", "", ""])"),
            134234112.0, 134225920.0);
        row("batch norm in eval mode", "aten::batch_norm",
            signature(
                "[[32, 256, 56, 56], [256], [256], [256], [256], [], [], [], []]",
                R"(["float", "float", "float", "float", "float", "Scalar", "Scalar", "Scalar", "Scalar"])",
                R"(["", "", "", "", "", "False", "0.1", "1e-05", "True"])"),
            6.0 * 256 + 2.0 * 32 * 256 * 56 * 56, (2.0 * 32 * 256 * 56 * 56 + 4.0 * 256) * 4);
        row("add, broadcast bias", "aten::add",
            signature("[[8, 1024, 4096], [4096], []]",
                      R"(["c10::BFloat16", "c10::BFloat16", "Scalar"])"),
            n, n * 2 + 4096 * 2 + n * 2);
        row("add a Scalar", "aten::add",
            signature("[[8, 1024, 4096], [], []]", R"(["c10::BFloat16", "Scalar", "Scalar"])"), n,
            n * 2 + 4 + n * 2);
        row("mul float by bf16: the wider output", "aten::mul",
            signature("[[8, 1024, 4096], [8, 1024, 4096]]", R"(["float", "c10::BFloat16"])"), n,
            n * 4 + n * 2 + n * 4);
        row("copy_ bf16 from float", "aten::copy_",
            signature("[[8, 1024, 4096], [8, 1024, 4096], []]",
                      R"(["c10::BFloat16", "float", "Scalar"])"),
            n, n * 2 + n * 4);
        row("silu", "aten::silu", signature("[[8, 1024, 4096]]", R"(["c10::BFloat16"])"), n, n * 4);
        // The output: the dims not reduced (1024 of them).
        row("sum over dim 0", "aten::sum",
            signature("[[8192, 1024], [], [], []]",
                      R"(["c10::BFloat16", "ScalarList", "Scalar", ""])",
                      R"(["", "[0]", "True", ""])"),
            8192.0 * 1024, (8192.0 * 1024 + 1024) * 2);
        row("sum of everything", "aten::sum",
            signature("[[8192, 1024], []]", R"(["float", ""])", R"(["", ""])"), 8192.0 * 1024,
            (8192.0 * 1024 + 1) * 4);
        row("embedding", "aten::embedding",
            signature("[[50304, 1024], [32, 2048], [], [], []]",
                      R"(["c10::BFloat16", "long int", "Scalar", "Scalar", "Scalar"])"),
            0.0, 32.0 * 2048 * 8 + 2.0 * 32 * 2048 * 1024 * 2);
        row("a type without a size: bytes unknown", "aten::add",
            signature("[[16], [16], []]",
                      R"(["c10::complex<double>", "c10::complex<double>", "Scalar"])"),
            16.0, -1.0);
    }
    void formulas() {
        QFETCH(QString, name);
        QFETCH(QString, shapes);
        QFETCH(double, flops);
        QFETCH(double, bytes);
        std::string why;
        const auto c = opCost(name.toStdString(), shapes.toStdString(), -1, &why);
        QVERIFY2(c, why.c_str());
        QCOMPARE(c->flops, flops);
        QCOMPARE(c->flopsSource, CostSource::Shapes);
        if (bytes < 0) {
            QVERIFY(!c->bytes);
        } else {
            QVERIFY(c->bytes);
            QCOMPARE(*c->bytes, bytes);
        }
    }

    // What the formulas cannot cost is said, never guessed.
    void noFigureWhereTheShapesDoNotSay() {
        std::string why;
        QVERIFY(!opCost("aten::mm", signature("[[], []]", R"(["", ""])"), -1, &why));
        QVERIFY(!why.empty());
        QVERIFY(!opCost("aten::view", signature("[[4, 4], []]", R"(["float", ""])"), -1, &why));
        QVERIFY(!opCost("aten::mm", "not json\nat all\n", -1, &why));
        // Operands that do not multiply or broadcast: the shapes are not the op's.
        QVERIFY(!opCost("aten::mm", signature("[[64, 32], [31, 16]]", R"(["float", "float"])"), -1,
                        &why));
        QVERIFY(!opCost("aten::add",
                        signature("[[64, 32], [31], []]", R"(["float", "float", "Scalar"])"), -1,
                        &why));
        // Old traces record no concrete inputs: a convolution's stride, a
        // batch norm's training and a reduction's dims are then unknown.
        QVERIFY(!opCost("aten::convolution",
                        signature("[[32, 3, 224, 224], [64, 3, 7, 7], [], [], [], [], [], [], []]",
                                  R"(["float", "float", "", "", "", "", "", "", ""])"),
                        -1, &why));
        QVERIFY(!opCost("aten::batch_norm",
                        signature("[[32, 64, 56, 56], [64], [64], [64], [64]]",
                                  R"(["float", "float", "float", "float", "float"])"),
                        -1, &why));
        QVERIFY(!opCost("aten::sum",
                        signature("[[8192, 1024], [], [], []]", R"(["float", "", "", ""])"), -1,
                        &why));
        // Causal attention of q and k of different lengths: no defined count.
        QVERIFY(!opCost("aten::_scaled_dot_product_flash_attention",
                        signature("[[1, 8, 128, 64], [1, 8, 256, 64], [1, 8, 256, 64]]",
                                  R"(["c10::Half", "c10::Half", "c10::Half"])",
                                  R"(["", "", "", "0.", "True"])"),
                        -1, &why));
        // The profiler's own count wins; the shapes still give the bytes.
        const auto c = opCost(
            "aten::mm", signature("[[64, 64], [64, 64]]", R"(["float", "float"])"), 1234, &why);
        QVERIFY(c);
        QCOMPARE(c->flops, 1234.0);
        QCOMPARE(c->flopsSource, CostSource::Profiler);
        QCOMPARE(*c->bytes, 3.0 * 64 * 64 * 4);
    }

    void plantedOpsGiveThePlantedThroughput_data() {
        QTest::addColumn<bool>("withIndex");
        QTest::newRow("without the index") << false;
        QTest::newRow("with the index") << true;
    }
    void plantedOpsGiveThePlantedThroughput() {
        QFETCH(bool, withIndex);
        const LoadResult loaded = test::loadJsonText(plantedTrace());
        QVERIFY(loaded.trace);
        const Trace& t = *loaded.trace;
        const AnalysisIndex index(t);
        Scope scope;
        if (withIndex) scope.index = &index;
        const AnalysisResult r = computeAnalysis(*analysisRegistry().find("efficiency"), t, scope);
        const ResultTable* sig = r.table("signatures");
        QVERIFY(sig);
        const DevicePeaks& h100 = known("h100_sxm");
        const double bf16 = *h100.peak(PeakType::Bf16), fp32 = *h100.peak(PeakType::Fp32);
        const double bw = h100.memoryBandwidth;
        auto rowOf = [&](const char* name) -> size_t {
            for (size_t i = 0; i < sig->rows.size(); ++i)
                if (textOr(sig->at(i, "name")) == name) return i;
            return SIZE_MAX;
        };
        auto number = [&](size_t row, const char* key) {
            return std::get<double>(sig->at(row, key));
        };
        // The wrappers carry nothing: linear, matmul, the convolution inside conv2d.
        QCOMPARE(sig->rows.size(), size_t(5));
        QCOMPARE(rowOf("aten::linear"), SIZE_MAX);
        QCOMPARE(rowOf("aten::matmul"), SIZE_MAX);
        QCOMPARE(rowOf("aten::convolution"), SIZE_MAX);

        const size_t addmm = rowOf("aten::addmm");
        QVERIFY(addmm != SIZE_MAX);
        QCOMPARE(integerOr(sig->at(addmm, "count")), int64_t(2));
        QCOMPARE(integerOr(sig->at(addmm, "flops")), int64_t(kAddmmFlops));
        QCOMPARE(integerOr(sig->at(addmm, "bytes")), int64_t(kAddmmBytes));
        QCOMPARE(integerOr(sig->at(addmm, "gpu_ns")), int64_t(575000));
        QCOMPARE(number(addmm, "tflops"), 2 * kAddmmFlops / 575e-6 / 1e12);
        QCOMPARE(number(addmm, "tflops_min"), kAddmmFlops / 300e-6 / 1e12);
        QCOMPARE(number(addmm, "tflops_max"), kAddmmFlops / 275e-6 / 1e12);
        QCOMPARE(number(addmm, "tflops_median"), kAddmmFlops / 287.5e-6 / 1e12);
        QCOMPARE(number(addmm, "tbps"), 2 * kAddmmBytes / 575e-6 / 1e12);
        QCOMPARE(textOr(sig->at(addmm, "bound")), std::string("compute"));
        QCOMPARE(textOr(sig->at(addmm, "precision")), std::string("bf16"));
        const double addmmBound = 2 * std::max(kAddmmFlops / bf16, kAddmmBytes / bw);
        QVERIFY(std::abs(number(addmm, "of_roofline") - addmmBound / 575e-6) < 1e-12);

        const size_t mm = rowOf("aten::mm");
        QCOMPARE(integerOr(sig->at(mm, "flops")), int64_t(kMmFlops));
        QCOMPARE(integerOr(sig->at(mm, "bytes")), int64_t(kMmBytes));
        QCOMPARE(number(mm, "tflops"), kMmFlops / 100e-6 / 1e12);

        const size_t flash = rowOf("aten::_scaled_dot_product_flash_attention");
        QCOMPARE(integerOr(sig->at(flash, "flops")), int64_t(kFlashFlops));
        QCOMPARE(integerOr(sig->at(flash, "bytes")), int64_t(kFlashBytes));
        QCOMPARE(number(flash, "tflops"), kFlashFlops / 80e-6 / 1e12);

        const size_t conv = rowOf("aten::conv2d");
        QCOMPARE(textOr(sig->at(conv, "flops_source")), std::string("profiler"));
        QCOMPARE(integerOr(sig->at(conv, "flops")), int64_t(kConvProfilerFlops));
        QCOMPARE(integerOr(sig->at(conv, "gpu_ns")), int64_t(50000));
        QCOMPARE(textOr(sig->at(conv, "precision")), std::string("fp32"));

        const size_t add = rowOf("aten::add");
        QCOMPARE(integerOr(sig->at(add, "bytes")), int64_t(kAddBytes));
        QCOMPARE(textOr(sig->at(add, "bound")), std::string("memory"));
        const double addBound = std::max(kAddFlops / fp32, kAddBytes / bw);
        QVERIFY(std::abs(number(add, "of_roofline") - addBound / 10e-6) < 1e-12);
        QCOMPARE(number(add, "roofline_tflops"), kAddFlops / addBound / 1e12);

        // Sorted by GPU time: the two addmm first.
        QCOMPARE(addmm, size_t(0));

        // The step: every op's FLOPs over its GPU window (the first kernel's
        // start to the last's end), at the bf16 peak (most matrix FLOPs).
        const ResultTable* steps = r.table("steps");
        QVERIFY(steps && steps->rows.size() == 1);
        const double total =
            2 * kAddmmFlops + kMmFlops + kFlashFlops + kConvProfilerFlops + kAddFlops;
        const double window = (970.0 - 100.0) * 1e-6;
        QCOMPARE(integerOr(steps->at(0, "window_ns")), int64_t(870000));
        QCOMPARE(integerOr(steps->at(0, "flops")), int64_t(total));
        QCOMPARE(textOr(steps->at(0, "precision")), std::string("bf16"));
        QVERIFY(std::abs(std::get<double>(steps->at(0, "mfu")) - total / (window * bf16)) < 1e-12);
        QVERIFY(std::abs(std::get<double>(r.figure("mfu")) - total / (window * bf16)) < 1e-12);
        // Kernels named for Tensor Cores (the xmma GEMMs, flash_fwd): 755 of
        // 815 µs of compute kernels; an sgemm and an element-wise kernel not.
        QVERIFY(std::abs(std::get<double>(steps->at(0, "tensor_core_share")) - 755.0 / 815.0) <
                1e-12);
        QCOMPARE(integerOr(r.figure("costed_gpu_ns")), int64_t(815000));

        const ResultTable* devices = r.table("devices");
        QCOMPARE(textOr(devices->at(0, "roofs_from")), std::string("table"));
    }

    // NCCL's tests' definitions: the algorithm bandwidth is the operation's
    // bytes over its time; the bus bandwidth that times 2(n−1)/n for an
    // all-reduce, (n−1)/n for an all-gather (whose bytes are its whole
    // output); held against the H100 SXM's 450 GB/s one way.
    void collectivesAtTheirBusBandwidth() {
        const LoadResult loaded = test::loadJsonText(plantedTrace());
        QVERIFY(loaded.trace);
        const AnalysisResult r =
            computeAnalysis(*analysisRegistry().find("efficiency"), *loaded.trace, Scope{});
        const ResultTable* c = r.table("collectives");
        QVERIFY(c);
        QCOMPARE(c->rows.size(), size_t(2));
        // By kernel time: the all-reduce first.
        QCOMPARE(textOr(c->at(0, "collective")), std::string("allreduce"));
        QCOMPARE(integerOr(c->at(0, "bytes")), int64_t(1048576 * 2));
        QCOMPARE(integerOr(c->at(0, "group_size")), int64_t(8));
        const double allReduce = 1048576.0 * 2 / 100e-6;
        QCOMPARE(std::get<double>(c->at(0, "algbw_gbps")), allReduce / 1e9);
        QCOMPARE(std::get<double>(c->at(0, "busbw_gbps")), allReduce * 2 * 7 / 8 / 1e9);
        QCOMPARE(std::get<double>(c->at(0, "of_link")), allReduce * 2 * 7 / 8 / 450e9);
        QCOMPARE(textOr(c->at(1, "collective")), std::string("allgather"));
        QCOMPARE(integerOr(c->at(1, "bytes")), int64_t(8192 * 4));
        const double allGather = 8192.0 * 4 / 50e-6;
        QCOMPARE(std::get<double>(c->at(1, "algbw_gbps")), allGather / 1e9);
        QCOMPARE(std::get<double>(c->at(1, "busbw_gbps")), allGather * 7 / 8 / 1e9);
    }

    // Advice names the signatures far below their roofline (at most half
    // of it, at least 2 % of the busy time), those losing the most time
    // against the roof first, each with its kernel.
    void adviceNamesWhatIsFarBelowItsRoofline() {
        const LoadResult loaded = test::loadJsonText(plantedTrace());
        QVERIFY(loaded.trace);
        const AnalysisResult r =
            computeAnalysis(*analysisRegistry().find("advice"), *loaded.trace, Scope{});
        const DevicePeaks& h100 = known("h100_sxm");
        const double bf16 = *h100.peak(PeakType::Bf16), bw = h100.memoryBandwidth;
        // GPU busy: the kernels' union, the collectives inside it.
        const double busy = 815e-6;
        struct Expected {
            const char* name;
            double time, bound;
        };
        // The add (10 µs, 1.2 % of busy) is too small to name.
        const Expected expected[] = {
            {"aten::addmm", 575e-6, 2 * std::max(kAddmmFlops / bf16, kAddmmBytes / bw)},
            {"aten::mm", 100e-6, std::max(kMmFlops / bf16, kMmBytes / bw)},
            {"aten::_scaled_dot_product_flash_attention", 80e-6,
             std::max(kFlashFlops / bf16, kFlashBytes / bw)}};
        std::vector<const Finding*> found;
        for (const Finding& f : r.findings)
            if (f.rule == "below-roofline") found.push_back(&f);
        QCOMPARE(found.size(), size_t(3));
        for (size_t i = 0; i < 3; ++i) {
            const Finding& f = *found[i];
            const Expected& e = expected[i];
            QVERIFY2(f.message.starts_with(e.name), f.message.c_str());
            QVERIFY(std::abs(f.figure("of_roofline")->real() - e.bound / e.time) < 1e-12);
            QCOMPARE(f.figure("gpu_ns")->real(), std::round(e.time * 1e9));
            QCOMPARE(f.severity, e.time / busy >= 0.1 ? Severity::Medium : Severity::Low);
            QCOMPARE(f.slices.size(), size_t(2));  // the op, its kernel
        }
        QVERIFY(found[0]->message.find("sm90_xmma_gemm_bf16bf16_bf16f32") != std::string::npos);
    }

    // A convolution carries its bias add, even one the profiler counted:
    // one signature, its GPU time both kernels' union.
    void aMatrixOpCarriesWhatIsInsideIt() {
        const std::string trace = R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::convolution","ts":10,"dur":50,"args":{"Input Dims":[[8,64,56,56],[128,64,3,3],[128],[],[],[],[],[],[]],"Input type":["float","float","float","ScalarList","ScalarList","ScalarList","Scalar","ScalarList","Scalar"],"Concrete Inputs":["","","","[1, 1]","[1, 1]","[1, 1]","False","[0, 0]","1"]}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":12,"dur":2,"args":{"correlation":1}},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::add_","ts":20,"dur":20,"args":{"flops":3211264,"Input Dims":[[8,128,56,56],[1,128,1,1],[]],"Input type":["float","float","Scalar"]}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":25,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"implicit_convolve_sgemm","ts":100,"dur":40,"args":{"device":0,"stream":7,"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"elementwise_kernel","ts":140,"dur":5,"args":{"device":0,"stream":7,"correlation":2}}]})";
        const LoadResult loaded = test::loadJsonText(trace);
        QVERIFY(loaded.trace);
        // Without the index (the walk up from each launch) and with it (each
        // carrying op's insides): the same.
        const AnalysisIndex index(*loaded.trace);
        Scope indexed;
        indexed.index = &index;
        for (const Scope& scope : {Scope{}, indexed}) {
            const AnalysisResult r =
                computeAnalysis(*analysisRegistry().find("efficiency"), *loaded.trace, scope);
            const ResultTable* sig = r.table("signatures");
            QCOMPARE(sig->rows.size(), size_t(1));
            QCOMPARE(textOr(sig->at(0, "name")), std::string("aten::convolution"));
            QCOMPARE(integerOr(sig->at(0, "gpu_ns")), int64_t(45000));
            // The bias is the formula's: + prod(out) FLOPs.
            const double out = 8.0 * 128 * 56 * 56;
            QCOMPARE(integerOr(sig->at(0, "flops")), int64_t(out * 2 * 64 * 9 + out));
        }
    }

    // A trace re-saved indented (JSON's whitespace anywhere) holds the same
    // signatures, written as Kineto writes them.
    void anIndentedTraceHasTheSameSignatures() {
        const LoadResult compact = test::loadJsonText(plantedTrace());
        const LoadResult indented =
            test::loadJsonText(nlohmann::json::parse(plantedTrace()).dump(2));
        QVERIFY(compact.trace && indented.trace);
        const Analysis& a = *analysisRegistry().find("efficiency");
        const AnalysisResult xResult = computeAnalysis(a, *compact.trace, Scope{});
        const ResultTable* x = xResult.table("signatures");
        const AnalysisResult y = computeAnalysis(a, *indented.trace, Scope{});
        QCOMPARE(y.table("signatures")->rows.size(), x->rows.size());
        for (size_t i = 0; i < x->rows.size(); ++i)
            for (const char* key :
                 {"name", "input_dims", "input_types", "concrete_inputs", "flops"})
                QVERIFY(x->at(i, key) == y.table("signatures")->at(i, key));
        QCOMPARE(textOr(y.table("signatures")->at(0, "input_dims")),
                 std::string("[[4096], [4096, 4096], [4096, 4096], [], []]"));
    }

    // A person's peaks replace the table's, for every GPU.
    // XLA's cost analysis where the XSpace records it: each HLO op's own
    // FLOPs and bytes, its type from its result's shape, against the
    // roofs of the GPU its plane names; read where the file lies and from
    // a compressed copy (decoded whole).
    void hloOpsCarryTheirRecordedCost_data() {
        QTest::addColumn<bool>("compressed");
        QTest::newRow("xplane.pb") << false;
        QTest::newRow("xplane.pb.gz") << true;
    }
    void hloOpsCarryTheirRecordedCost() {
        QFETCH(bool, compressed);
        QTemporaryDir dir;
        const QString path = dir.filePath(compressed ? "xla.xplane.pb.gz" : "xla.xplane.pb");
        {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly));
            const std::string bytes = compressed ? gzipCompress(xlaSpace()) : xlaSpace();
            f.write(bytes.data(), qint64(bytes.size()));
        }
        const LoadResult loaded = loadTrace(path.toStdString());
        QVERIFY(loaded.trace);
        const AnalysisIndex index(*loaded.trace);
        Scope scope;
        scope.index = &index;
        const AnalysisResult r =
            computeAnalysis(*analysisRegistry().find("efficiency"), *loaded.trace, scope);
        QCOMPARE(textOr(r.table("devices")->at(0, "roofs_from")), std::string("table"));
        const ResultTable* sig = r.table("signatures");
        QVERIFY(sig);
        QCOMPARE(sig->rows.size(), size_t(2));  // the copy records no cost
        const DevicePeaks& h100 = known("h100_sxm");
        const double bf16 = *h100.peak(PeakType::Bf16), fp32 = *h100.peak(PeakType::Fp32);
        const double bw = h100.memoryBandwidth;

        QCOMPARE(textOr(sig->at(0, "name")), std::string("gemm_fusion_dot.1"));
        QCOMPARE(textOr(sig->at(0, "result_shape")), std::string("bf16[4096,4096]{1,0}"));
        QCOMPARE(textOr(sig->at(0, "input_dims")), std::string());
        QCOMPARE(textOr(sig->at(0, "flops_source")), std::string("profiler"));
        QCOMPARE(textOr(sig->at(0, "precision")), std::string("bf16"));
        QCOMPARE(integerOr(sig->at(0, "count")), int64_t(2));
        QCOMPARE(integerOr(sig->at(0, "flops")), int64_t(kXlaDotFlops));
        QCOMPARE(integerOr(sig->at(0, "bytes")), int64_t(kXlaDotBytes));
        QCOMPARE(integerOr(sig->at(0, "gpu_ns")), int64_t(400000));
        QCOMPARE(std::get<double>(sig->at(0, "tflops")), 2 * kXlaDotFlops / 400e-6 / 1e12);
        QCOMPARE(std::get<double>(sig->at(0, "tflops_max")), kXlaDotFlops / 150e-6 / 1e12);
        QCOMPARE(textOr(sig->at(0, "bound")), std::string("compute"));
        const double dotBound = 2 * std::max(kXlaDotFlops / bf16, kXlaDotBytes / bw);
        QVERIFY(std::abs(std::get<double>(sig->at(0, "of_roofline")) - dotBound / 400e-6) < 1e-12);

        QCOMPARE(textOr(sig->at(1, "name")), std::string("loop_add_fusion"));
        QCOMPARE(textOr(sig->at(1, "result_shape")), std::string("f32[1048576]{0}"));
        QCOMPARE(textOr(sig->at(1, "precision")), std::string("fp32"));
        QCOMPARE(integerOr(sig->at(1, "flops")), int64_t(kXlaAddFlops));
        QCOMPARE(integerOr(sig->at(1, "bytes")), int64_t(kXlaAddBytes));
        QCOMPARE(textOr(sig->at(1, "bound")), std::string("memory"));
        const double addBound = std::max(kXlaAddFlops / fp32, kXlaAddBytes / bw);
        QVERIFY(std::abs(std::get<double>(sig->at(1, "of_roofline")) - addBound / 20e-6) < 1e-12);

        QCOMPARE(integerOr(r.figure("costed_gpu_ns")), int64_t(420000));
        QCOMPARE(integerOr(r.figure("gpu_busy_ns")), int64_t(430000));
        QCOMPARE(integerOr(r.figure("flops")), int64_t(2 * kXlaDotFlops + kXlaAddFlops));
    }

    // A kernel whose trace records its own cost (xprof's trace-viewer JSON
    // keeps XLA's as args) is its own op: the PyTorch-shaped op around its
    // launch does not count it again.
    void gpuWorkWithItsOwnCostIsNotCountedTwice() {
        const std::string trace = R"({"traceEvents":[
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::mm","ts":10,"dur":30,"args":{"Input Dims":[[64,64],[64,64]],"Input type":["float","float"]}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":15,"dur":2,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"dot.3","ts":50,"dur":4,"args":{"device":0,"stream":7,"correlation":1,"flops":1000,"bytes_accessed":600,"shape_with_layout":"f16[10,\n10]{1,0}"}},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::mm","ts":60,"dur":30,"args":{"Input Dims":[[64,64],[64,64]],"Input type":["float","float"]}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":65,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"sgemm_64x64","ts":100,"dur":5,"args":{"device":0,"stream":7,"correlation":2}}
]})";
        const LoadResult loaded = test::loadJsonText(trace);
        QVERIFY(loaded.trace);
        for (const bool withIndex : {false, true}) {
            const AnalysisIndex index(*loaded.trace);
            Scope scope;
            if (withIndex) scope.index = &index;
            const AnalysisResult r =
                computeAnalysis(*analysisRegistry().find("efficiency"), *loaded.trace, scope);
            const ResultTable* sig = r.table("signatures");
            QCOMPARE(sig->rows.size(), size_t(2));
            for (size_t i = 0; i < sig->rows.size(); ++i) {
                const std::string name = textOr(sig->at(i, "name"));
                if (name == "dot.3") {
                    QCOMPARE(integerOr(sig->at(i, "flops")), int64_t(1000));
                    QCOMPARE(integerOr(sig->at(i, "bytes")), int64_t(600));
                    QCOMPARE(textOr(sig->at(i, "precision")), std::string("fp16"));
                    // (A break in the recorded shape is no part of the signature.)
                    QCOMPARE(textOr(sig->at(i, "result_shape")), std::string("f16[10, 10]{1,0}"));
                    QCOMPARE(integerOr(sig->at(i, "gpu_ns")), int64_t(4000));
                } else {
                    // The second mm's kernel only: 2·64³ FLOPs over 5 µs.
                    QCOMPARE(name, std::string("aten::mm"));
                    QCOMPARE(integerOr(sig->at(i, "count")), int64_t(1));
                    QCOMPARE(integerOr(sig->at(i, "flops")), int64_t(2 * 64 * 64 * 64));
                    QCOMPARE(integerOr(sig->at(i, "gpu_ns")), int64_t(5000));
                }
            }
        }
    }

    // A step without matrix work is held against the peak of the type that
    // did most of the trace's matrix FLOPs, so every step has one measure.
    void aStepWithoutMatrixWorkTakesTheTracesType() {
        const std::string trace =
            R"({"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3","totalGlobalMem":85520809984,"numSms":132}],
"traceEvents":[
{"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#1","ts":0,"dur":100},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::mm","ts":10,"dur":30,"args":{"Input Dims":[[256,256],[256,256]],"Input type":["c10::BFloat16","c10::BFloat16"]}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":15,"dur":2,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"nvjet_hsh_gemm","ts":50,"dur":10,"args":{"device":0,"stream":7,"correlation":1}},
{"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#2","ts":200,"dur":100},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::add","ts":210,"dur":30,"args":{"Input Dims":[[1024],[1024],[]],"Input type":["float","float","Scalar"],"Concrete Inputs":["","","1"]}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":215,"dur":2,"args":{"correlation":2}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"vectorized_elementwise_kernel","ts":250,"dur":8,"args":{"device":0,"stream":7,"correlation":2}}
]})";
        const LoadResult loaded = test::loadJsonText(trace);
        QVERIFY(loaded.trace);
        const AnalysisResult r =
            computeAnalysis(*analysisRegistry().find("efficiency"), *loaded.trace, Scope{});
        const ResultTable* steps = r.table("steps");
        QVERIFY(steps && steps->rows.size() == 2);
        const double bf16 = *known("h100_sxm").peak(PeakType::Bf16);
        QCOMPARE(integerOr(steps->at(1, "step")), int64_t(2));
        QCOMPARE(textOr(steps->at(1, "precision")), std::string("bf16"));
        QCOMPARE(integerOr(steps->at(1, "window_ns")), int64_t(8000));
        QVERIFY(std::abs(std::get<double>(steps->at(1, "mfu")) - 1024.0 / (8e-6 * bf16)) < 1e-15);
    }

    // fp32 matrix work whose kernel runs on Tensor Cores ran as TF32: held
    // against the TF32 peak; on SIMT kernels, against fp32.
    void fp32OnTensorCoresIsHeldToTheTf32Peak() {
        const DevicePeaks& h100 = known("h100_sxm");
        const double flops = 2.0 * 1024 * 1024 * 1024, bytes = 3.0 * 1024 * 1024 * 4;
        const struct {
            const char* kernel;
            const char* precision;
            PeakType peak;
        } cases[] = {
            {"sm80_xmma_gemm_f32f32_tf32f32_f32_nn_n_tilesize128x128x16", "tf32", PeakType::Tf32},
            {"ampere_sgemm_128x64_nn", "fp32", PeakType::Fp32}};
        for (const auto& c : cases) {
            const LoadResult loaded = test::loadJsonText(fp32MmTrace(c.kernel));
            QVERIFY(loaded.trace);
            const AnalysisResult r =
                computeAnalysis(*analysisRegistry().find("efficiency"), *loaded.trace, Scope{});
            const ResultTable* sig = r.table("signatures");
            QCOMPARE(sig->rows.size(), size_t(1));
            QCOMPARE(textOr(sig->at(0, "precision")), std::string(c.precision));
            const double bound = std::max(flops / *h100.peak(c.peak), bytes / h100.memoryBandwidth);
            QVERIFY(std::abs(std::get<double>(sig->at(0, "of_roofline")) - bound / 40e-6) < 1e-12);
        }
    }

    void givenPeaksReplaceTheTables() {
        const LoadResult loaded = test::loadJsonText(plantedTrace());
        QVERIFY(loaded.trace);
        Scope scope;
        scope.peaks = parsePeaks("bf16=500,fp32=50,bw=2000", nullptr);
        const AnalysisResult r =
            computeAnalysis(*analysisRegistry().find("efficiency"), *loaded.trace, scope);
        const ResultTable* steps = r.table("steps");
        const double total =
            2 * kAddmmFlops + kMmFlops + kFlashFlops + kConvProfilerFlops + kAddFlops;
        QVERIFY(std::abs(std::get<double>(steps->at(0, "mfu")) - total / (870e-6 * 500e12)) <
                1e-12);
        QCOMPARE(textOr(r.table("devices")->at(0, "roofs_from")), std::string("given"));
        // Kernels, Ops and Advice hold the same work against the same roofs.
        const AnalysisResult opsResult =
            computeAnalysis(*analysisRegistry().find("ops"), *loaded.trace, scope);
        const ResultTable* ops = opsResult.table("ops");
        bool addmm = false;
        for (size_t i = 0; i < ops->rows.size(); ++i) {
            if (textOr(ops->at(i, "name")) != "aten::addmm") continue;
            addmm = true;
            const double bound = 2 * std::max(kAddmmFlops / 500e12, kAddmmBytes / 2000e9);
            QVERIFY(std::abs(std::get<double>(ops->at(i, "of_roofline")) - bound / 575e-6) < 1e-12);
        }
        QVERIFY(addmm);
    }
};

GAPSCOPE_TEST_MAIN(TestEfficiency)
#include "tst_efficiency.moc"
