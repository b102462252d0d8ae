// PyTorch's record of a collective (its distributed profiling args, on the
// NCCL / RCCL kernel and on record_param_comms): the names it gives the
// collectives and element types.

#include <nlohmann/json.hpp>

#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {
namespace {

CollectiveKind kindOf(std::string_view name) {
    // c10d's names, with the coalesced and tensor variants of each.
    auto has = [&](std::string_view s) { return name.find(s) != std::string_view::npos; };
    if (has("allreduce") || has("all_reduce")) return CollectiveKind::AllReduce;
    if (has("allgather") || has("all_gather")) return CollectiveKind::AllGather;
    if (has("reduce_scatter") || has("reducescatter")) return CollectiveKind::ReduceScatter;
    if (has("all_to_all") || has("alltoall")) return CollectiveKind::AllToAll;
    if (has("broadcast")) return CollectiveKind::Broadcast;
    if (name == "reduce") return CollectiveKind::Reduce;
    if (name == "send" || name == "recv" || has("sendrecv")) return CollectiveKind::SendRecv;
    return CollectiveKind::Other;
}

// c10d's ScalarType names ("Float", "BFloat16", …).
int bytesOfType(std::string_view t) {
    if (t == "Double" || t == "Long" || t == "ComplexFloat") return 8;
    if (t == "Float" || t == "Int") return 4;
    if (t == "Half" || t == "BFloat16" || t == "Short") return 2;
    if (t == "Byte" || t == "Char" || t == "Bool" || t.starts_with("Float8")) return 1;
    return 0;
}

int64_t integer(const nlohmann::json& args, const char* key) {
    const auto it = args.find(key);
    if (it == args.end()) return -1;
    if (it->is_number_integer()) return it->get<int64_t>();
    return -1;
}

}  // namespace

std::optional<CollectiveParams> pytorchCollectiveParams(std::string_view argsJson) {
    if (argsJson.find("Collective name") == std::string_view::npos) return std::nullopt;
    const auto args = nlohmann::json::parse(argsJson, nullptr, false);
    if (!args.is_object()) return std::nullopt;
    const auto name = args.find("Collective name");
    if (name == args.end() || !name->is_string()) return std::nullopt;
    CollectiveParams p;
    p.name = name->get<std::string>();
    p.kind = kindOf(p.name);
    p.inElements = integer(args, "In msg nelems");
    p.outElements = integer(args, "Out msg nelems");
    p.groupSize = integer(args, "Group size");
    if (const auto t = args.find("dtype"); t != args.end() && t->is_string())
        p.elementBytes = bytesOfType(t->get<std::string>());
    return p;
}

}  // namespace gapscope::vocabulary
