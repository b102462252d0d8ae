// Names GPU devices from Kineto's top-level "deviceProperties" array.

#include "model/device_properties.h"

#include <nlohmann/json.hpp>

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

}  // namespace

std::map<int, std::string> deviceNamesFromProperties(const Trace& trace) {
    std::map<int, std::string> names;
    forEachDevice(trace, [&](int id, const nlohmann::json& p) {
        const auto name = p.find("name");
        if (name != p.end() && name->is_string()) names[id] = name->get<std::string>();
    });
    return names;
}

std::map<int, int64_t> deviceMemoryFromProperties(const Trace& trace) {
    std::map<int, int64_t> bytes;
    forEachDevice(trace, [&](int id, const nlohmann::json& p) {
        const auto mem = p.find("totalGlobalMem");
        if (mem != p.end() && mem->is_number_integer()) bytes[id] = mem->get<int64_t>();
    });
    return bytes;
}

}  // namespace gapscope
