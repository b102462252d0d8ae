// Names GPU devices from Kineto's top-level "deviceProperties" array.

#include "model/device_properties.h"

#include <nlohmann/json.hpp>

namespace gapscope {

std::map<int, std::string> deviceNamesFromProperties(const Trace& trace) {
    std::map<int, std::string> names;
    const auto it = trace.metadata.find("deviceProperties");
    if (it == trace.metadata.end()) return names;
    const nlohmann::json props =
        nlohmann::json::parse(it->second, nullptr, /*allow_exceptions=*/false);
    if (!props.is_array()) return names;
    for (const auto& p : props) {
        if (!p.is_object()) continue;
        const auto id = p.find("id");
        const auto name = p.find("name");
        if (id == p.end() || !id->is_number_integer() || name == p.end() || !name->is_string())
            continue;
        names[id->get<int>()] = name->get<std::string>();
    }
    return names;
}

}  // namespace gapscope
