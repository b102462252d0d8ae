// PyTorch's record of a collective (its distributed profiling args, on the
// NCCL / RCCL kernel and on record_param_comms, kept at import as
// Trace::collectives): the names it gives the collectives and element types.

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

}  // namespace

CollectiveParams pytorchCollectiveParams(std::string_view name, std::string_view type,
                                         int64_t inElements, int64_t outElements,
                                         int64_t groupSize) {
    CollectiveParams p;
    p.name = std::string(name);
    p.kind = kindOf(name);
    p.inElements = inElements;
    p.outElements = outElements;
    p.groupSize = groupSize;
    const auto element = pytorchScalarType(type);
    p.elementBytes = element ? element->bytes : 0;
    return p;
}

}  // namespace gapscope::vocabulary
