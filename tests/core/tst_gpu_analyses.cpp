// The GPU time breakdown, kernel statistics and idle gaps with their causes
// and evidence against an independent
// reference (tests/tools/reference_gpu_analyses.py: Python's json module,
// exact decimals, its own interval sweeps) on generated traces of both
// profiles and on real traces (the bundled H200 sample, an HTA trace with
// NCCL kernels), over the whole trace and over a range; and against the
// generator's ground truth for busy time and per-kernel count, total, min
// and max.

#include <QDir>
#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <nlohmann/json.hpp>

#include "analysis/gap_causes.h"
#include "analysis/kernel_stats.h"
#include "analysis/tensor_cores.h"
#include "analysis/time_breakdown.h"
#include "support/generator.h"
#include "support/reference_run.h"
#include "support/suite_main.h"
#include "support/test_paths.h"
#include "support/trace_files.h"

using namespace gapscope;
using json = nlohmann::json;

namespace {

json reference(const QString& trace, const QString& range = {}) {
    QStringList args{trace};
    if (!range.isEmpty()) args << "--range" << range;
    return test::runReference("reference_gpu_analyses.py", args);
}

bool near(double a, double b) {
    return test::nearlyEqual(a, b);
}

}  // namespace

class TestGpuAnalyses : public QObject {
    Q_OBJECT
    QTemporaryDir dir_;

    // Compares our breakdown and kernel statistics with the reference's.
    void compare(const Trace& t, const json& ref, Interval window) {
        const auto ours = timeBreakdowns(t, window);
        QCOMPARE(ours.size(), ref["devices"].size());
        for (size_t i = 0; i < ours.size(); ++i) {
            const GpuTimeBreakdown& b = ours[i];
            const json& r = ref["devices"][i];
            QCOMPARE(b.device, r["device"].get<int>());
            QCOMPARE(b.computation, r["computation_ns"].get<TimeNs>());
            QCOMPARE(b.exposedComm, r["exposed_comm_ns"].get<TimeNs>());
            QCOMPARE(b.exposedMemcpy, r["exposed_memcpy_ns"].get<TimeNs>());
            QCOMPARE(b.busy, r["busy_ns"].get<TimeNs>());
            QCOMPARE(b.idle, r["idle_ns"].get<TimeNs>());
            QCOMPARE(b.total, r["total_ns"].get<TimeNs>());
            QCOMPARE(b.totalComm, r["total_comm_ns"].get<TimeNs>());
            QCOMPARE(b.totalMemcpy, r["total_memcpy_ns"].get<TimeNs>());
            QCOMPARE(b.computation + b.exposedComm + b.exposedMemcpy + b.idle, b.total);
            QCOMPARE(bool(b.commOverlap), !r["comm_overlap"].is_null());
            if (b.commOverlap) QVERIFY(near(*b.commOverlap, r["comm_overlap"].get<double>()));
        }
        // Idle gaps with causes and evidence, at the default threshold.
        const json& rg = ref["gaps"];
        GapOptions go;
        go.window = window;
        QCOMPARE(go.minGapNs, rg["threshold_ns"].get<TimeNs>());
        const auto gaps = gapsWithCauses(t, go);
        QCOMPARE(gaps.size(), rg["devices"].size());
        for (size_t i = 0; i < gaps.size(); ++i) {
            const DeviceGaps& d = gaps[i];
            const json& r = rg["devices"][i];
            QCOMPARE(d.device, r["device"].get<int>());
            QCOMPARE(d.busy, r["busy_ns"].get<TimeNs>());
            QCOMPARE(d.shortCount, r["short_gaps"]["count"].get<uint64_t>());
            QCOMPARE(d.shortTotal, r["short_gaps"]["total_ns"].get<TimeNs>());
            for (size_t c = 0; c < kGapCauseCount; ++c)
                QCOMPARE(d.byCause[c], r["by_cause"][gapCauseName(GapCause(c))].get<TimeNs>());
            QCOMPARE(d.gaps.size(), r["gaps"].size());
            for (size_t k = 0; k < d.gaps.size(); ++k) {
                const CausedGap& g = d.gaps[k];
                const json& w = r["gaps"][k];
                QCOMPARE(g.gap.start, w["start_ns"].get<TimeNs>());
                QCOMPARE(g.gap.end, w["end_ns"].get<TimeNs>());
                QCOMPARE(std::string(gapCauseName(g.cause)), w["cause"].get<std::string>());
                QCOMPARE(g.evidence.size(), w["evidence"].size());
                for (size_t e = 0; e < g.evidence.size(); ++e) {
                    const Slice& sl = t.slices[g.evidence[e]];
                    QCOMPARE(std::string(t.str(sl.name)),
                             w["evidence"][e]["name"].get<std::string>());
                    QCOMPARE(sl.start, w["evidence"][e]["start_ns"].get<TimeNs>());
                    QCOMPARE(sl.end(), w["evidence"][e]["end_ns"].get<TimeNs>());
                }
            }
        }
        // Kernel statistics of the whole trace (the reference ignores --range).
        if (!(window == kWholeTrace)) return;
        KernelStatsOptions options;
        options.window = window;
        for (const bool byDevice : {false, true}) {
            options.byDevice = byDevice;
            const auto stats = kernelStats(t, options);
            const json& want = ref[byDevice ? "kernels_by_device" : "kernels"];
            QCOMPARE(stats.size(), want.size());
            std::map<std::pair<int, std::string>, const KernelStats*> byName;
            for (const KernelStats& k : stats)
                byName[{k.device, std::string(t.str(k.name))}] = &k;
            for (const json& w : want) {
                const auto it = byName.find({byDevice ? w["device"].get<int>() : -1, w["name"]});
                QVERIFY2(it != byName.end(), w["name"].get<std::string>().c_str());
                const KernelStats& k = *it->second;
                QCOMPARE(k.count, w["count"].get<uint64_t>());
                QCOMPARE(k.total, w["total_ns"].get<TimeNs>());
                QCOMPARE(k.min, w["min_ns"].get<TimeNs>());
                QCOMPARE(k.max, w["max_ns"].get<TimeNs>());
                QCOMPARE(k.median, w["median_ns"].get<TimeNs>());
                QCOMPARE(k.p95, w["p95_ns"].get<TimeNs>());
                QVERIFY(near(k.mean, w["mean_ns"].get<double>()));
                QCOMPARE(bool(k.stddev), !w["stddev_ns"].is_null());
                if (k.stddev) QVERIFY(near(*k.stddev, w["stddev_ns"].get<double>()));
            }
        }
    }

  private slots:
    void initTestCase() { QVERIFY(dir_.isValid()); }

    void generatedTraces_data() {
        QTest::addColumn<QString>("profile");
        QTest::addColumn<int>("seed");
        QTest::addColumn<int>("steps");
        // 7 Kineto steps and 6 TensorFlow steps include a planted input stall.
        QTest::newRow("kineto 5") << "kineto" << 5 << 7;
        QTest::newRow("kineto 9") << "kineto" << 9 << 4;
        QTest::newRow("tensorflow 5") << "tensorflow" << 5 << 6;
    }
    void generatedTraces() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the generator and the reference");
        QFETCH(QString, profile);
        QFETCH(int, seed);
        QFETCH(int, steps);
        const test::Generated g =
            test::generateTrace(dir_.path(), QStringLiteral("%1_%2.json").arg(profile).arg(seed),
                                {"--profile", profile, "--gpus", "2", "--steps",
                                 QString::number(steps), "--seed", QString::number(seed)});
        QVERIFY2(g.error.isEmpty(), qPrintable(g.error));
        const LoadResult r = loadTrace(g.trace.toStdString());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        compare(t, reference(g.trace), kWholeTrace);
        if (QTest::currentTestFailed()) return;
        // A range: the middle 40 % of the trace, cutting through kernels.
        const TimeNs span = t.spanEnd - t.spanStart;
        const Interval mid{t.spanStart + span * 3 / 10, t.spanStart + span * 7 / 10};
        compare(t, reference(g.trace, QStringLiteral("%1:%2").arg(mid.start).arg(mid.end)), mid);
        if (QTest::currentTestFailed()) return;
        // The generator's own truth: busy time per device, kernels per name.
        for (const GpuTimeBreakdown& b : timeBreakdowns(t)) {
            const json& d = g.truth["devices"][std::to_string(b.device)];
            QCOMPARE(b.busy, d["busy_ns"].get<TimeNs>());
        }
        // Every planted gap, to the nanosecond, and nothing else (gaps
        // within 1 us of the threshold are listed apart by the truth).
        for (const DeviceGaps& d : gapsWithCauses(t)) {
            const json& truth = g.truth["devices"][std::to_string(d.device)];
            std::vector<std::pair<TimeNs, TimeNs>> want, got;
            for (const json& x : truth["idle_gaps"])
                want.push_back({x["start_ns"].get<TimeNs>(), x["end_ns"].get<TimeNs>()});
            for (const CausedGap& x : d.gaps)
                got.push_back({x.gap.start, x.gap.end});
            QCOMPARE(got, want);
            // The gaps inside a planted input stall are caused by input.
            for (const json& stall : g.truth["input_stall_steps"]) {
                const Interval st{stall["start_ns"].get<TimeNs>(), stall["end_ns"].get<TimeNs>()};
                int inside = 0;
                for (const CausedGap& x : d.gaps) {
                    if (2 * (std::min(x.gap.end, st.end) - std::max(x.gap.start, st.start)) <
                        x.gap.length())
                        continue;  // not mostly inside the stall
                    QCOMPARE(std::string(gapCauseName(x.cause)), std::string("input"));
                    ++inside;
                }
                QVERIFY2(inside > 0, "a planted stall must leave a gap on every device");
            }
        }
        QVERIFY(steps < 6 || !g.truth["input_stall_steps"].empty());
        const auto stats = kernelStats(t);
        for (const auto& [name, k] : g.truth["kernels"].items()) {
            const auto it = std::find_if(stats.begin(), stats.end(), [&](const KernelStats& s) {
                return t.str(s.name) == name;
            });
            QVERIFY2(it != stats.end(), name.c_str());
            QCOMPARE(it->count, k["count"].get<uint64_t>());
            QCOMPARE(it->total, k["total_ns"].get<TimeNs>());
            QCOMPARE(it->min, k["min_ns"].get<TimeNs>());
            QCOMPARE(it->max, k["max_ns"].get<TimeNs>());
        }
    }

    // Zero-duration kernels ran: they count and they cut idle time, but
    // add no time. A negative duration is malformed and is no activity.
    // Expected values worked out by hand from the timeline in the comment.
    void zeroDurationActivityCountsAndSplitsGaps() {
        // GPU 0, in µs: big [0,100) · tiny@300 · big [500,600) with tiny@550
        // inside and tiny@600 at its end · tiny@800 after it · bad dur -5.
        const LoadResult r = test::loadJsonText(
            R"([{"ph":"X","cat":"kernel","name":"big","pid":0,"tid":7,"ts":0,"dur":100},)"
            R"({"ph":"X","cat":"kernel","name":"tiny","pid":0,"tid":7,"ts":300,"dur":0},)"
            R"({"ph":"X","cat":"kernel","name":"bad","pid":0,"tid":7,"ts":400,"dur":-5},)"
            R"({"ph":"X","cat":"kernel","name":"big","pid":0,"tid":7,"ts":500,"dur":100},)"
            R"({"ph":"X","cat":"kernel","name":"tiny","pid":0,"tid":8,"ts":550,"dur":0},)"
            R"({"ph":"X","cat":"kernel","name":"tiny","pid":0,"tid":8,"ts":600,"dur":0},)"
            R"({"ph":"X","cat":"kernel","name":"tiny","pid":0,"tid":7,"ts":800,"dur":0}])");
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QCOMPARE(t.gpuDevices.size(), size_t(1));
        QCOMPARE(t.gpuDevices[0].busyNs, TimeNs(200'000));
        QCOMPARE(t.gpuDevices[0].instants, (std::vector<TimeNs>{300'000, 800'000}));

        const auto stats = kernelStats(t);
        QCOMPARE(stats.size(), size_t(2));  // "bad" is not a kernel that ran
        QCOMPARE(std::string(t.str(stats[0].name)), std::string("big"));
        QCOMPARE(stats[0].count, uint64_t(2));
        QCOMPARE(std::string(t.str(stats[1].name)), std::string("tiny"));
        QCOMPARE(stats[1].count, uint64_t(4));
        QCOMPARE(stats[1].total, TimeNs(0));
        QCOMPARE(stats[1].max, TimeNs(0));

        const auto b = timeBreakdowns(t);
        QCOMPARE(b.size(), size_t(1));
        QCOMPARE(b[0].busy, TimeNs(200'000));
        QCOMPARE(b[0].total, TimeNs(800'000));  // to the last instant
        QCOMPARE(b[0].idle, TimeNs(600'000));

        using Gaps = std::vector<std::pair<TimeNs, TimeNs>>;
        auto gapsOf = [&](GapOptions o) {
            Gaps out;
            for (const DeviceGaps& d : gapsWithCauses(t, o))
                for (const CausedGap& g : d.gaps)
                    out.push_back({g.gap.start, g.gap.end});
            return out;
        };
        QCOMPARE(gapsOf({}), (Gaps{{100'000, 300'000}, {300'000, 500'000}, {600'000, 800'000}}));
        GapOptions longOnly;
        longOnly.minGapNs = 250'000;  // the 400 µs stretch was two gaps of 200
        QCOMPARE(gapsOf(longOnly), Gaps{});
        GapOptions window;
        window.window = {250'000, 800'000};  // the instant at its end is outside
        QCOMPARE(gapsOf(window), (Gaps{{300'000, 500'000}}));
    }

    // The gap causes on small timelines built for them; the expected cause
    // and evidence follow from the rules in docs/analyses.md by hand.
    void gapCauseFixtures_data() {
        QTest::addColumn<QString>("events");
        QTest::addColumn<QStringList>("want");  // per listed gap: "cause: evidence@start_us ..."
        const QString step =
            R"({"ph":"X","cat":"user_annotation","name":"ProfilerStep#1","pid":1,"tid":1,"ts":0,"dur":2000},)";
        auto cpu = [](const char* name, int ts, int dur, int corr = -1) {
            const QString cat = corr >= 0 ? "cuda_runtime" : "cpu_op";
            QString args =
                corr >= 0 ? QStringLiteral(R"(,"args":{"correlation":%1})").arg(corr) : QString();
            return QStringLiteral(
                       R"({"ph":"X","cat":"%1","name":"%2","pid":1,"tid":1,"ts":%3,"dur":%4%5},)")
                .arg(cat, name)
                .arg(ts)
                .arg(dur)
                .arg(args);
        };
        auto gpu = [](const char* cat, const char* name, int ts, int dur, int corr) {
            return QStringLiteral(
                       R"({"ph":"X","cat":"%1","name":"%2","pid":0,"tid":7,"ts":%3,"dur":%4,"args":{"correlation":%5}},)")
                .arg(cat, name)
                .arg(ts)
                .arg(dur)
                .arg(corr);
        };
        // .item(): the host blocks in the sync while the GPU finishes; the GPU
        // runs dry before the sync returns; the host then computes and
        // launches late. The sync calls cover 98 of the gap's 398 µs.
        QTest::newRow("drained queue")
            << step + cpu("aten::_local_scalar_dense", 100, 300) +
                   cpu("cudaMemcpyAsync", 110, 10, 2) + cpu("cudaStreamSynchronize", 120, 270) +
                   cpu("aten::add", 420, 180) + cpu("cudaLaunchKernel", 590, 5, 3) +
                   gpu("kernel", "k1", 0, 300, 1) + gpu("gpu_memcpy", "Memcpy DtoH", 300, 2, 2) +
                   gpu("kernel", "k2", 700, 100, 3)
            << QStringList{
                   "synchronization: aten::_local_scalar_dense@100 cudaStreamSynchronize@120"};
        // A late host: inside aten::linear for the whole first gap, in two
        // ops at depth 1 during the second.
        QTest::newRow("late host")
            << step + cpu("cudaLaunchKernel", 40, 10, 4) + cpu("aten::linear", 100, 800) +
                   cpu("aten::t", 150, 150) + cpu("aten::addmm", 300, 580) +
                   cpu("cudaLaunchKernel", 850, 10, 5) + cpu("aten::sum", 1050, 250) +
                   cpu("aten::mul", 1400, 70) + cpu("cudaLaunchKernel", 1450, 10, 6) +
                   gpu("kernel", "k1", 60, 140, 4) + gpu("kernel", "k2", 900, 100, 5) +
                   gpu("kernel", "k3", 1500, 100, 6)
            << QStringList{"host: aten::linear@100 cudaLaunchKernel@850",
                           "host: aten::sum@1050 aten::mul@1400 cudaLaunchKernel@1450"};
    }
    void gapCauseFixtures() {
        QFETCH(QString, events);
        QFETCH(QStringList, want);
        events.chop(1);  // the last comma
        const LoadResult r = test::loadJsonText(("[" + events + "]").toStdString());
        QVERIFY(r.trace);
        const Trace& t = *r.trace;
        QStringList got;
        for (const DeviceGaps& d : gapsWithCauses(t)) {
            for (const CausedGap& g : d.gaps) {
                QString line = QString(gapCauseName(g.cause)) + ":";
                for (const uint32_t e : g.evidence)
                    line += QStringLiteral(" %1@%2")
                                .arg(QString::fromStdString(std::string(t.str(t.slices[e].name))))
                                .arg(t.slices[e].start / 1000);
                got << line;
            }
        }
        QCOMPARE(got, want);
    }

    // Tensor Core use by name, on kernel names from the real traces (HTA's,
    // Kineto's, PARAM's) and from Hopper and flash-attention runs; each
    // row's answer follows from what the name's family is documented to be.
    void tensorCoreUseByName_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("want");
        QTest::newRow("Volta FP32 SIMT GEMM") << "volta_sgemm_128x64_nn"
                                              << "no";
        QTest::newRow("Ampere FP32 SIMT GEMM") << "ampere_sgemm_128x128_tn"
                                               << "no";
        QTest::newRow("CUTLASS SIMT")
            << "void cutlass::Kernel<cutlass_80_simt_sgemm_128x32_8x5_nn_align1>"
               "(cutlass_80_simt_sgemm_128x32_8x5_nn_align1::Params)"
            << "no";
        QTest::newRow("CUTLASS tensorop")
            << "void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4>"
               "(cutlass_80_tensorop_s1688gemm_128x128_16x4_nn_align4::Params)"
            << "yes";
        QTest::newRow("cuDNN xmma TF32")
            << "sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_tilesize64x128x32_"
               "stage5_warpsize2x2x1_g1_tensor16x8x8_execute_kernel_cudnn_infer"
            << "yes";
        QTest::newRow("mangled CUTLASS MmaTensorOp")
            << "_ZN19cutlass_cudnn_train6KernelINS_4conv6kernel23ImplicitGemmConvolutionINS1_"
               "11threadblock9MmaPolicyINS6_4warp11MmaTensorOpINS7_ILi64ELi64ELi32EEE"
            << "yes";
        QTest::newRow("cuDNN xmma on FP32 FMA (the bundled sample)")
            << "sm80_xmma_fprop_implicit_gemm_f32f32_f32f32_f32_nchwkcrs_nchw_tilesize128x32x8_"
               "stage3_warpsize2x2x1_g1_ffma_aligna4_alignc4_execute_kernel__5x_cudnn"
            << "no";
        QTest::newRow("cuDNN FP32 implicit GEMM") << "void implicit_convolve_sgemm<float, float, "
                                                     "128, 5, 5, 3, 3, 3, 1, false, true, true>"
                                                  << "no";
        QTest::newRow("cuDNN FP32 3D conv")
            << "cudnn_infer_volta_scudnn_128x64_3dconv_fprop_medium_nn_v1"
            << "no";
        QTest::newRow("cuBLAS GEMV")
            << "void gemv2T_kernel_val<int, int, float, float, float, float, "
               "128, 16, 2, 2, false, false, cublasGemvParams<"
            << "no";
        QTest::newRow("cuBLAS split-K reduce") << "void splitKreduce_kernel<32, 16, int, float, "
                                                  "float, float, float, true, false, false>"
                                               << "no";
        QTest::newRow("FBGEMM quantize") << "void at::native::vectorized_elementwise_kernel<4, "
                                            "fbgemm_gpu::_float_to_hfp8_gpu(at::Tensor const&)"
                                         << "no";
        QTest::newRow("elementwise") << "void at::native::vectorized_elementwise_kernel<4, "
                                        "at::native::FillFunctor<float>>"
                                     << "no";
        QTest::newRow("LayerNorm gamma/beta, not an MMA")
            << "void at::native::(anonymous namespace)::GammaBetaBackwardCUDAKernel<float, float>"
            << "no";
        QTest::newRow("a dtype conversion, not a convolution") << "convert_fp32_to_bf16_kernel"
                                                               << "no";
        QTest::newRow("NCCL") << "ncclKernel_AllReduce_RING_LL_Sum_float(ncclWorkElem)"
                              << "no";
        QTest::newRow("Inductor pointwise") << "triton_poi_fused_add_cos_sin_0"
                                            << "no";
        QTest::newRow("Inductor template mm") << "triton_tem_fused_addmm_0"
                                              << "unknown";
        QTest::newRow("Inductor anonymous") << "triton__0d1d2d3d"
                                            << "unknown";
        QTest::newRow("cuBLAS GEMM, precision not named")
            << "void gemmSN_NN_kernel<float, 256, 4, 2, 8, 4, 4, false>"
            << "unknown";
        QTest::newRow("Hopper cuBLASLt nvjet") << "nvjet_tst_128x256_64x4_1x2_h_bz_coopA_NTT"
                                               << "yes";
        QTest::newRow("Hopper CUTLASS 3")
            << "void cutlass::device_kernel<cutlass3x_sm90_tensorop_gemm_bf16_bf16_f32>"
            << "yes";
        QTest::newRow("Hopper wgmma")
            << "sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64_"
               "warpgroupsize1x1x1_execute_segment_k_off_kernel__5x_cublas"
            << "yes";
        QTest::newRow("flash attention")
            << "void flash_fwd_kernel<Flash_fwd_kernel_traits<128, 128, 64, 4, false, false, "
               "cutlass::bfloat16_t>, false, true>(Flash_fwd_params)"
            << "yes";
        QTest::newRow("FMHA FP16") << "fmha_cutlassF_f16_aligned_64x64_rf_sm80"
                                   << "yes";
        QTest::newRow("FMHA FP32") << "fmha_cutlassF_f32_aligned_64x64_rf_sm80"
                                   << "unknown";
        // AMD: Tensile and hipBLASLt name the matrix instruction (MI…, the
        // MFMA shape); MI0 or none is the SIMD path. Composable Kernel's
        // XDLops are MFMA too.
        QTest::newRow("hipBLASLt MFMA GEMM (MI300X)")
            << "Cijk_Alik_Bljk_BBS_BH_Bias_HA_S_SAV_UserArgs_MT128x128x64_MI16x16x1_SN_LDSB1_"
               "AFC1_AFEM1_AFEM1_ASEM1_CLR1_CADS0_EPS0_GRVWA8_GRVWB8_GSUAMB_IU1_K1_LBSPPA128"
            << "yes";
        QTest::newRow("Tensile MFMA GEMM (MI250)")
            << "Cijk_Ailk_Bljk_HHS_BH_MT128x128x32_MI32x32x8x1_SN_1LDSB0_APM1_ABV0_ACED0_AF0EM1"
            << "yes";
        QTest::newRow("Tensile SIMD GEMM") << "Cijk_Ailk_Bljk_SB_MT64x64x8_SN_AMAS0_BL1_GRVW4_MI0"
                                           << "unknown";
        QTest::newRow("Composable Kernel XDLops")
            << "void ck::kernel_gemm_xdl_cshuffle_v3<ck::GridwiseGemm_xdl_cshuffle_v3<"
               "ck::tensor_layout::gemm::RowMajor>>(ck::GridwiseGemm_xdl_cshuffle_v3::Argument)"
            << "yes";
        QTest::newRow("ROCm elementwise (not a GEMM)")
            << "void at::native::elementwise_kernel_manual_unroll<128, 8>(int, "
               "at::native::direct_copy_kernel_cuda)"
            << "no";
    }
    void tensorCoreUseByName() {
        QFETCH(QString, name);
        QFETCH(QString, want);
        QCOMPARE(QString(tensorCoreUseName(tensorCoreUse(name.toStdString()))), want);
    }

    void realTraces_data() {
        QTest::addColumn<QString>("path");
        QTest::newRow("H200 sample") << test::samplePath();
        for (const char* variant : {"input_bound", "workers"})
            QTest::newRow(qPrintable(QString("H200 transformer ") + variant))
                << test::sourceDir() + "/tests/data/recorded/h200_transformer_" + variant +
                       ".pt.trace.json.gz";
        QTest::newRow("HTA, NCCL kernels") << "hta/tests/data/trace_diff/test/test.json.gz";
    }

    // The Kineto ResNet50 samples: with the DataLoader in the training
    // process (num_workers=0) most idle time waits for input; with four
    // workers none does (it is launch-bound instead).
    void resnet50InputBound() {
        GAPSCOPE_REQUIRE_SHARED();
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        for (const char* dir : {"resnet50_num_workers_0", "resnet50_num_workers_4"}) {
            const QString folder = test::sharedTraces() + "/kineto/tb_plugin/samples/" + dir;
            const QStringList files = QDir(folder).entryList({"*.json*"}, QDir::Files);
            QVERIFY2(!files.isEmpty(), qPrintable(folder));
            const QString path = folder + "/" + files.first();
            const LoadResult r = loadTrace(path.toStdString());
            QVERIFY(r.trace);
            compare(*r.trace, reference(path), kWholeTrace);
            if (QTest::currentTestFailed()) return;
            TimeNs input = 0, listed = 0;
            for (const DeviceGaps& d : gapsWithCauses(*r.trace)) {
                input += d.byCause[size_t(GapCause::Input)];
                for (const TimeNs c : d.byCause)
                    listed += c;
            }
            QVERIFY(listed > 0);
            const double share = double(input) / double(listed);
            if (std::string(dir).ends_with("_0")) {
                QVERIFY2(share > 0.5, qPrintable(QString::number(share)));
            } else {
                QCOMPARE(input, TimeNs(0));
            }
        }
    }
    void realTraces() {
        GAPSCOPE_REQUIRE_PYTHON("no python3 for the reference");
        QFETCH(QString, path);
        if (!path.startsWith('/')) {
            GAPSCOPE_REQUIRE_SHARED();
            path = test::sharedTraces() + "/" + path;
        }
        const LoadResult r = loadTrace(path.toStdString());
        QVERIFY2(r.trace, r.failure ? r.failure->message().c_str() : "cancelled");
        compare(*r.trace, reference(path), kWholeTrace);
    }
};

GAPSCOPE_TEST_GUILESS_MAIN(TestGpuAnalyses)
#include "tst_gpu_analyses.moc"
