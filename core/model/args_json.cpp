#include "model/args_json.h"

#include <nlohmann/json.hpp>

namespace gapscope {

std::string prettyArgs(const Trace& trace, uint32_t argsIndex) {
    const std::string raw = trace.argsJson(argsIndex);
    if (raw.empty()) return raw;
    // ordered_json keeps the profiler's key order, which people rely on.
    const auto parsed = nlohmann::ordered_json::parse(raw, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) return raw;
    return parsed.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

}  // namespace gapscope
