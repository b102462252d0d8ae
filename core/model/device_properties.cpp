// Names GPU devices from Kineto's top-level "deviceProperties" array, or
// from what an XSpace's GPU plane records of its device.

#include "model/device_properties.h"

#include <algorithm>
#include <limits>
#include <nlohmann/json.hpp>
#include <type_traits>
#include <vector>

namespace gapscope {

namespace {

// Calls f(id, entry) for each object of the array with an integer "id".
template <class F>
void forEachDevice(const Trace& trace, F&& f) {
    const auto it = trace.metadata.find("deviceProperties");
    if (it == trace.metadata.end()) return;
    const nlohmann::json props =
        nlohmann::json::parse(it->second, nullptr, /*allow_exceptions=*/false);
    if (!props.is_array()) return;
    for (const auto& p : props) {
        if (!p.is_object()) continue;
        const auto id = p.find("id");
        if (id != p.end() && id->is_number_integer()) f(id->get<int>(), p);
    }
}

// An XSpace GPU plane's stats ("gpu_device_name", "memory_size",
// "core_count"), which the reader keeps as the metadata "xspace plane
// NAME": the GPU process of the same name is that device.
template <class F>
void forEachXSpaceDevice(const Trace& trace, F&& f) {
    for (const Process& p : trace.processes) {
        if (p.kind != ProcessKind::Gpu || p.gpuDevice < 0) continue;
        const auto it = trace.metadata.find("xspace plane " + std::string(trace.str(p.name)));
        if (it == trace.metadata.end()) continue;
        const nlohmann::json stats = nlohmann::json::parse(it->second, nullptr, false);
        if (stats.is_object()) f(p.gpuDevice, stats);
    }
}

// Each device's value of `key` (`xspaceKey` on an XSpace plane) where it is
// of V's JSON kind (a string, or an integer that fits V).
template <class V>
std::map<int, V> propertyByDevice(const Trace& trace, const char* key, const char* xspaceKey) {
    std::map<int, V> out;
    // deviceProperties' entries as they come (a later one of an id over an
    // earlier), an XSpace plane's only for a device they left out.
    auto take = [&](int id, const nlohmann::json& p, const char* name, bool fill) {
        const auto v = p.find(name);
        if (v == p.end() || (fill && out.count(id))) return;
        if constexpr (std::is_same_v<V, std::string>) {
            if (v->is_string()) out[id] = v->template get<std::string>();
        } else if (v->is_number_integer()) {
            const auto n = v->template get<int64_t>();
            if (n >= std::numeric_limits<V>::min() && n <= std::numeric_limits<V>::max())
                out[id] = static_cast<V>(n);
        }
    };
    forEachDevice(trace, [&](int id, const nlohmann::json& p) { take(id, p, key, false); });
    forEachXSpaceDevice(trace,
                        [&](int id, const nlohmann::json& p) { take(id, p, xspaceKey, true); });
    return out;
}

}  // namespace

std::map<int, std::string> deviceNamesFromProperties(const Trace& trace) {
    return propertyByDevice<std::string>(trace, "name", "gpu_device_name");
}

std::map<int, int64_t> deviceMemoryFromProperties(const Trace& trace) {
    return propertyByDevice<int64_t>(trace, "totalGlobalMem", "memory_size");
}

std::map<int, int> deviceSmsFromProperties(const Trace& trace) {
    return propertyByDevice<int>(trace, "numSms", "core_count");
}

std::string shortDeviceName(std::string_view name) {
    std::vector<std::string_view> words;
    for (size_t at = 0; at < name.size();) {
        const size_t end = std::min(name.find(' ', at), name.size());
        if (end > at) words.push_back(name.substr(at, end - at));
        at = end + 1;
    }
    // The vendor and family words, then memory and packaging after the model.
    const auto vendor = [](std::string_view w) {
        return w == "NVIDIA" || w == "Tesla" || w == "AMD" || w == "Instinct" || w == "GeForce" ||
               w == "Quadro";
    };
    const auto spec = [](std::string_view w) {
        return w.find("GB") != std::string_view::npos || w.find("HBM") != std::string_view::npos ||
               w == "PCIe" || w == "SXM" || w == "NVL";
    };
    size_t first = 0;
    while (first + 1 < words.size() && vendor(words[first]))
        ++first;
    std::string out;
    for (size_t i = first; i < words.size(); ++i) {
        if (i > first && spec(words[i])) break;
        std::string_view w = words[i];
        // "V100-SXM2-16GB", "A100-PG509-200": the model before the first dash.
        if (const size_t dash = w.find('-'); dash != std::string_view::npos && dash > 0)
            w = w.substr(0, dash);
        out += (out.empty() ? "" : " ") + std::string(w);
        if (w != words[i]) break;
    }
    return out.empty() ? std::string(name) : out;
}

}  // namespace gapscope
