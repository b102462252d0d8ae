#include "model/args_json.h"

#include <nlohmann/json.hpp>

namespace gapscope {

ArgsText prettyArgs(const Trace& trace, uint32_t argsIndex) {
    ArgsText text = trace.argsText(argsIndex);
    if (!text.ok() || text.json.empty()) return text;
    // ordered_json keeps the profiler's key order, which people rely on.
    const auto parsed =
        nlohmann::ordered_json::parse(text.json, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) return text;
    text.json = parsed.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    return text;
}

}  // namespace gapscope
