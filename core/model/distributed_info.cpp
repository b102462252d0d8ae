#include "model/distributed_info.h"

#include <nlohmann/json.hpp>

namespace gapscope {

namespace {

std::optional<nlohmann::json> parsed(const Trace& trace, const std::string& key) {
    const auto it = trace.metadata.find(key);
    if (it == trace.metadata.end()) return std::nullopt;
    nlohmann::json j = nlohmann::json::parse(it->second, nullptr, false);
    if (j.is_discarded()) return std::nullopt;
    return j;
}

std::optional<int64_t> integer(const nlohmann::json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || !it->is_number_integer()) return std::nullopt;
    return it->get<int64_t>();
}

}  // namespace

DistributedInfo distributedInfo(const Trace& trace) {
    DistributedInfo info;
    if (const auto d = parsed(trace, "distributedInfo"); d && d->is_object()) {
        info.rank = integer(*d, "rank");
        info.worldSize = integer(*d, "world_size");
        if (const auto b = d->find("backend"); b != d->end() && b->is_string())
            info.backend = b->get<std::string>();
        if (info.rank && *info.rank < 0) info.rank.reset();
    }
    if (const auto h = parsed(trace, "hostname"); h && h->is_string())
        info.host = h->get<std::string>();
    return info;
}

}  // namespace gapscope
