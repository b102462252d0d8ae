#pragma once
// What a GPU can do at most: peak dense throughput per data type and memory
// bandwidth, the roofs efficiency is measured against (achieved TFLOP/s
// against the roof, MFU, the roofline). From a table kept with its sources
// (resources/hardware/gpu_peaks.json, built into the program), matched
// against the trace's device properties; a device the table does not know
// is unknown, and takes the peaks a person gives (`--peak`, Settings).

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/trace.h"

namespace gapscope {

// The data types a peak is given for, in the table's order.
enum class PeakType : uint8_t { Fp64, Fp64Tensor, Fp32, Tf32, Bf16, Fp16, Fp8, Int8 };
inline constexpr size_t kPeakTypeCount = 8;
const char* peakTypeName(PeakType t);  // "fp64", "fp64_tensor", "fp32", "tf32", "bf16", ...
std::optional<PeakType> peakTypeNamed(std::string_view name);

struct DevicePeaks {
    std::string id;              // "h100_sxm"; "" for peaks a person gave
    std::string name;            // "NVIDIA H100 SXM5 (80 GB)"
    double memoryBandwidth = 0;  // bytes per second; 0 where unknown
    // One way over the GPU-to-GPU links (NVLink, Infinity Fabric), bytes
    // per second: what a collective's bus bandwidth is held against; 0
    // where unknown (PCIe-only GPUs, sources that do not say).
    double linkBandwidth = 0;
    // FLOP/s (int8: operations per second), dense; none where the device has
    // no such mode or its sources do not state it.
    std::array<std::optional<double>, kPeakTypeCount> flops{};
    std::optional<double> peak(PeakType t) const { return flops[static_cast<size_t>(t)]; }
};

// What identifies a device in a trace: its name, SM (CU) count and memory,
// each where the trace says it.
struct DeviceIdentity {
    std::string name;
    std::optional<int> sms;
    std::optional<int64_t> memoryBytes;
};

// The table, in its order of matching (parsed once from the built-in file).
const std::vector<DevicePeaks>& knownDevicePeaks();

// The table's first device whose every condition holds for `device` (its
// name holds one of the device's names and none of its exclusions,
// case-insensitively; its SM count and memory, where both sides have them,
// agree); none for a device the table does not know.
std::optional<DevicePeaks> matchDevicePeaks(const DeviceIdentity& device);

// Each GPU of the trace as its device properties describe it (Kineto's
// deviceProperties: name, numSms, totalGlobalMem; else the GPU's name).
DeviceIdentity deviceIdentity(const Trace& trace, const GpuDevice& gpu);

// Peaks a person gives for a device the table does not know (or to
// override it): "bf16=989.4,fp32=66.9,bw=3350,link=450" in TFLOP/s and
// GB/s, the units of the table. None, with `error` set, for anything else.
std::optional<DevicePeaks> parsePeaks(std::string_view text, std::string* error);

}  // namespace gapscope
