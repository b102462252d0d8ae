// The GPUs' peaks (resources/hardware/gpu_peaks.json, built in): the device
// names, SM counts and memory sizes real traces carry (../shared's and
// recorded ones, and each vendor's naming of the others) match the right
// device, partitions and devices the table does not know are unknown; the
// peaks are the vendors' datasheets' (dense), typed here from them; every
// device names its sources; and peaks a person gives parse or say why not.

#include <QFile>
#include <QTest>
#include <nlohmann/json.hpp>

#include "analysis/device_peaks.h"
#include "loader/loader.h"
#include "support/suite_main.h"
#include "support/test_paths.h"

using namespace gapscope;

namespace {

constexpr qint64 GiB = qint64{1} << 30;

const DevicePeaks& known(const char* id) {
    for (const DevicePeaks& d : knownDevicePeaks())
        if (d.id == id) return d;
    throw std::runtime_error(std::string("no device ") + id);
}

}  // namespace

class TestDevicePeaks : public QObject {
    Q_OBJECT
  private slots:
    void matchesTheDevice_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<int>("sms");             // 0: not in the trace
        QTest::addColumn<qint64>("memoryBytes");  // 0: not in the trace
        QTest::addColumn<QString>("id");          // "": unknown
        auto row = [](const char* tag, const char* name, int sms, qint64 memory, const char* id) {
            QTest::newRow(tag) << QString::fromLatin1(name) << sms << memory
                               << QString::fromLatin1(id);
        };
        // As traces in ../shared and tests/data/recorded name them.
        row("V100 SXM2 16GB", "Tesla V100-SXM2-16GB", 80, 16945512448, "v100_sxm2");
        row("V100 SXM2 32GB", "Tesla V100-SXM2-32GB", 80, 34079637504, "v100_sxm2");
        row("V100 DGX Station", "Tesla V100-DGXS-32GB", 80, 34084028416, "v100_sxm2");
        row("A100 SXM4 80GB", "NVIDIA A100-SXM4-80GB", 108, 84990623744, "a100_sxm4_80gb");
        row("A100 PG509 (SXM4 40GB)", "NVIDIA A100-PG509-200", 108, 42297524224, "a100_sxm4_40gb");
        row("H200", "NVIDIA H200", 132, 150149398528, "h200");
        row("ROCm's generic name", "AMD Radeon Graphics", 104, 68702699520, "");
        row("RTX 2080 Ti", "NVIDIA GeForce RTX 2080 Ti", 68, 11554586624, "");
        // As the vendors' drivers name the others.
        row("V100 PCIe", "Tesla V100-PCIE-16GB", 80, 0, "v100_pcie");
        row("A100 SXM4 40GB", "NVIDIA A100-SXM4-40GB", 108, 0, "a100_sxm4_40gb");
        row("A100 PCIe 80GB", "NVIDIA A100 80GB PCIe", 108, 0, "a100_pcie_80gb");
        row("A100 PCIe 40GB", "NVIDIA A100-PCIE-40GB", 108, 0, "a100_pcie_40gb");
        row("H100 SXM", "NVIDIA H100 80GB HBM3", 132, 79 * GiB, "h100_sxm");
        row("H100 PCIe", "NVIDIA H100 PCIe", 114, 79 * GiB, "h100_pcie");
        row("H100 NVL", "NVIDIA H100 NVL", 132, 99960750080, "h100_nvl");
        row("H100, 80 GB", "NVIDIA H100", 132, 79 * GiB, "h100_sxm_by_memory");
        row("H100, 94 GB", "NVIDIA H100", 132, 99960750080, "h100_nvl_by_memory");
        row("H100, no memory said", "NVIDIA H100", 132, 0, "h100_sxm_by_memory");
        row("B200", "NVIDIA B200", 148, 0, "b200");
        row("L4", "NVIDIA L4", 58, 0, "l4");
        row("L40S", "NVIDIA L40S", 142, 0, "l40s");
        row("MI210", "AMD Instinct MI210", 104, 0, "mi210");
        row("MI250X, one die", "AMD Instinct MI250X", 110, 0, "mi250x_gcd");
        row("MI300X", "AMD Instinct MI300X", 304, 0, "mi300x");
        row("MI325X", "AMD Instinct MI325X", 304, 0, "mi325x");
        row("no SM count said", "NVIDIA H100 PCIe", 0, 0, "h100_pcie");
        // What the table does not hold is unknown, not a neighbour's peaks.
        row("L40 (not L4, not L40S)", "NVIDIA L40", 142, 0, "");
        row("H200 NVL", "NVIDIA H200 NVL", 132, 0, "");
        row("GH200", "NVIDIA GH200 480GB", 132, 0, "");
        row("GB200", "NVIDIA GB200", 148, 0, "");
        row("MI250 (not X)", "AMD Instinct MI250", 104, 0, "");
        row("a MIG slice of an H100", "NVIDIA H100 80GB HBM3", 66, 40 * GiB, "");
    }

    void matchesTheDevice() {
        QFETCH(QString, name);
        QFETCH(int, sms);
        QFETCH(qint64, memoryBytes);
        QFETCH(QString, id);
        DeviceIdentity d{name.toStdString(), std::nullopt, std::nullopt};
        if (sms) d.sms = sms;
        if (memoryBytes) d.memoryBytes = memoryBytes;
        const std::optional<DevicePeaks> m = matchDevicePeaks(d);
        QCOMPARE(m ? QString::fromStdString(m->id) : QString(), id);
    }

    // The vendors' datasheets, dense: NVIDIA's Hopper, Ampere and Volta
    // tables (tensor figures halved from "with sparsity"), AMD's CDNA3.
    void peaksAreTheDatasheets() {
        auto tflops = [](const DevicePeaks& d, PeakType t) { return d.peak(t).value_or(0) / 1e12; };
        auto tbps = [](const DevicePeaks& d) { return d.memoryBandwidth / 1e12; };
        const DevicePeaks& h100 = known("h100_sxm");
        QCOMPARE(tflops(h100, PeakType::Bf16), 989.4);
        QCOMPARE(tflops(h100, PeakType::Fp8), 1978.9);
        QCOMPARE(tflops(h100, PeakType::Tf32), 494.7);
        QCOMPARE(tflops(h100, PeakType::Fp32), 66.9);
        QCOMPARE(tbps(h100), 3.35);
        QCOMPARE(tflops(known("h100_pcie"), PeakType::Bf16), 756.0);
        QCOMPARE(tbps(known("h200")), 4.8);
        QCOMPARE(tflops(known("h200"), PeakType::Bf16), 989.4);
        const DevicePeaks& a100 = known("a100_sxm4_80gb");
        QCOMPARE(tflops(a100, PeakType::Bf16), 312.0);
        QCOMPARE(tflops(a100, PeakType::Tf32), 156.0);
        QCOMPARE(tflops(a100, PeakType::Fp32), 19.5);
        QCOMPARE(tbps(a100), 2.039);
        QVERIFY(!a100.peak(PeakType::Fp8));  // no FP8 on Ampere
        const DevicePeaks& v100 = known("v100_sxm2");
        QCOMPARE(tflops(v100, PeakType::Fp16), 125.0);
        QCOMPARE(tflops(v100, PeakType::Fp32), 15.7);
        QVERIFY(!v100.peak(PeakType::Bf16));  // no BF16 on Volta
        const DevicePeaks& mi300x = known("mi300x");
        QCOMPARE(tflops(mi300x, PeakType::Bf16), 1307.4);
        QCOMPARE(tflops(mi300x, PeakType::Fp8), 2614.9);
        QCOMPARE(tbps(mi300x), 5.3);
        // One MI250X die: half the module's 383 TFLOP/s and 3.2768 TB/s.
        QCOMPARE(tflops(known("mi250x_gcd"), PeakType::Bf16), 191.5);
        QCOMPARE(tbps(known("mi250x_gcd")), 1.6384);
    }

    // The file as written: every device with its sources, every number a
    // positive one or none, FP16 and BF16 alike, tensor math above vector.
    void everyDeviceNamesItsSources() {
        QFile f(test::sourceDir() + QStringLiteral("/resources/hardware/gpu_peaks.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto doc = nlohmann::json::parse(f.readAll().toStdString());
        QCOMPARE(doc["devices"].size(), knownDevicePeaks().size());
        for (const auto& d : doc["devices"]) {
            const std::string id = d["id"];
            QVERIFY2(!d["sources"].empty(), id.c_str());
            for (const auto& s : d["sources"])
                QVERIFY2(s["url"].get<std::string>().rfind("http", 0) == 0 ||
                             s["url"].get<std::string>().rfind("search-corpus", 0) == 0,
                         id.c_str());
            QVERIFY2(d["memory_bandwidth_gbps"].get<double>() > 0, id.c_str());
            for (const auto& [type, v] : d["peak_tflops"].items())
                QVERIFY2(v.is_null() || v.get<double>() > 0, (id + " " + type).c_str());
        }
        for (const DevicePeaks& d : knownDevicePeaks()) {
            if (d.peak(PeakType::Fp16) && d.peak(PeakType::Bf16))
                QCOMPARE(*d.peak(PeakType::Fp16), *d.peak(PeakType::Bf16));
            const auto fp32 = d.peak(PeakType::Fp32), half = d.peak(PeakType::Fp16);
            if (fp32 && half) QVERIFY2(*half > *fp32, d.id.c_str());
        }
    }

    // The trace's GPUs as their device properties name them.
    void theTracesDevicesMatch() {
        const LoadResult sample = loadTrace(test::samplePath().toStdString());
        QVERIFY(sample.trace && !sample.trace->gpuDevices.empty());
        const DeviceIdentity d = deviceIdentity(*sample.trace, sample.trace->gpuDevices.front());
        QCOMPARE(d.name, std::string("NVIDIA H200"));
        QVERIFY(d.sms && d.memoryBytes);
        QCOMPARE(*d.sms, 132);
        const auto m = matchDevicePeaks(d);
        QVERIFY(m);
        QCOMPARE(m->id, std::string("h200"));
    }

    void peaksAPersonGives() {
        std::string error;
        const auto p = parsePeaks("bf16=989.4,FP32=66.9,bw=3350", &error);
        QVERIFY2(p, error.c_str());
        QCOMPARE(p->peak(PeakType::Bf16).value_or(0), 989.4e12);
        QCOMPARE(p->peak(PeakType::Fp32).value_or(0), 66.9e12);
        QCOMPARE(p->memoryBandwidth, 3350e9);
        QVERIFY(!p->peak(PeakType::Fp8));
        const std::pair<const char*, const char*> bad[] = {
            {"", "no peak given"},
            {"bf16", "is not TYPE=VALUE"},
            {"bf16=-1", "is not a positive number"},
            {"bf16=12x", "is not a positive number"},
            {"fp4=9000", "\"fp4\" is not a data type"},
            {"bf16=1,,fp32=2", "an empty item"}};
        for (const auto& [text, why] : bad) {
            error.clear();
            QVERIFY2(!parsePeaks(text, &error), text);
            QVERIFY2(error.find(why) != std::string::npos,
                     (std::string(text) + ": " + error).c_str());
        }
    }
};

GAPSCOPE_TEST_MAIN(TestDevicePeaks)
#include "tst_device_peaks.moc"
