// Names GPU devices from Kineto's top-level "deviceProperties" array.

#include <nlohmann/json.hpp>

#include "model/builder_state.h"

namespace gapscope {

void applyDeviceProperties(Trace& trace) {
    const auto it = trace.metadata.find("deviceProperties");
    if (it == trace.metadata.end()) return;
    const nlohmann::json props =
        nlohmann::json::parse(it->second, nullptr, /*allow_exceptions=*/false);
    if (!props.is_array()) return;
    for (const auto& p : props) {
        if (!p.is_object()) continue;
        const auto id = p.find("id");
        const auto name = p.find("name");
        if (id == p.end() || !id->is_number_integer() || name == p.end() || !name->is_string())
            continue;
        for (GpuDevice& d : trace.gpuDevices) {
            if (d.index == id->get<int>()) d.name = name->get<std::string>();
        }
    }
}

}  // namespace gapscope
