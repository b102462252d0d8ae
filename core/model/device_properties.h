#pragma once
// GPU names and memory sizes from Kineto's top-level "deviceProperties"
// array, or an XSpace GPU plane's stats (gpu_device_name, memory_size,
// core_count).

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "model/trace.h"

namespace gapscope {

// Device index -> name (e.g. 0 -> "NVIDIA H200"); empty without the array.
std::map<int, std::string> deviceNamesFromProperties(const Trace& trace);
// Device index -> its memory in bytes ("totalGlobalMem").
std::map<int, int64_t> deviceMemoryFromProperties(const Trace& trace);
// Device index -> its SM count ("numSms"; a ROCm device's compute units).
std::map<int, int> deviceSmsFromProperties(const Trace& trace);

// A device's entry of those maps: its own, else the one all entries share
// (a process that sees one GPU describes it as device 0 while the trace
// puts its work on GPU 2; the GPUs of one machine are of one model).
template <class V>
std::optional<V> propertyOfDevice(const std::map<int, V>& byDevice, int device) {
    if (const auto it = byDevice.find(device); it != byDevice.end()) return it->second;
    if (byDevice.empty()) return std::nullopt;
    for (const auto& [id, v] : byDevice)
        if (!(v == byDevice.begin()->second)) return std::nullopt;
    return byDevice.begin()->second;
}

// The model a person names a GPU by, for headers that must stay short:
// "Tesla V100-SXM2-16GB" -> "V100", "NVIDIA H100 80GB HBM3" -> "H100",
// "NVIDIA GeForce RTX 4090" -> "RTX 4090", "AMD Instinct MI250X" -> "MI250X".
std::string shortDeviceName(std::string_view name);

}  // namespace gapscope
