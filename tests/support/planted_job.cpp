// Planted traces of known critical paths (support/planted_job.h).

#include "support/planted_job.h"

namespace gapscope::test {

const char* const kPlantedStepEvents = R"(
{"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#1","ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::mm","ts":100,"dur":50},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":110,"dur":10,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"gemm","ts":130,"dur":600,"args":{"device":0,"stream":7,"correlation":1}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaDeviceSynchronize","ts":200,"dur":540,"args":{"correlation":2}},
{"ph":"X","cat":"cuda_sync","pid":0,"tid":-1,"name":"Context Sync","ts":735,"dur":5,"args":{"device":0,"stream":-1,"correlation":2,"cuda_sync_kind":"Context Sync"}},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":900,"dur":10,"args":{"correlation":3}},
{"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"k_tail","ts":915,"dur":500,"args":{"device":0,"stream":7,"correlation":3}}
)";

std::string plantedRankOfLargeJob(int rank, int ranks, bool slow) {
    std::string e;
    for (int step = 1; step <= 3; ++step) {
        const int base = (step - 1) * 1000;
        const int gemmCall = 2 * step - 1, ncclCall = 2 * step;  // correlations
        const int gemm = slow ? 700 : 300 + rank % 7;
        const int entry = base + 20 + gemm, end = base + 770;
        auto at = [&](int us) { return std::to_string(us); };
        e +=
            std::string(e.empty() ? "" : ",\n") +
            R"({"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#)" +
            std::to_string(step) + R"(","ts":)" + at(base) + R"(,"dur":1000},)" + "\n" +
            R"({"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":)" +
            at(base + 10) + R"(,"dur":4,"args":{"correlation":)" + at(gemmCall) + "}},\n" +
            R"({"ph":"X","cat":"kernel","pid":0,"tid":7,"name":"gemm","ts":)" + at(base + 20) +
            R"(,"dur":)" + at(gemm) + R"(,"args":{"device":0,"stream":7,"correlation":)" +
            at(gemmCall) + "}},\n" +
            R"({"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":)" +
            at(base + 15) + R"(,"dur":4,"args":{"correlation":)" + at(ncclCall) + "}},\n" +
            R"({"ph":"X","cat":"kernel","pid":0,"tid":20,"name":"ncclDevKernel_AllReduce_Sum_f32_RING_LL","ts":)" +
            at(entry) + R"(,"dur":)" + at(end - entry) +
            R"(,"args":{"device":0,"stream":20,"correlation":)" + at(ncclCall) + "}}";
    }
    return R"({"distributedInfo":{"backend":"nccl","rank":)" + std::to_string(rank) +
           R"(,"world_size":)" + std::to_string(ranks) + R"(},
"traceEvents":[)" +
           e + "]}";
}

std::string plantedRankOfJob(int rank, bool lateStart) {
    const char* nccl = "ncclDevKernel_AllReduce_Sum_f32_RING_LL";
    std::string e;
    if (rank == 0) {
        e = R"({"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#1","ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"c10d::allreduce_","ts":100,"dur":20},
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":105,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":20,"name":"NCCL","ts":120,"dur":600,"args":{"device":0,"stream":20,"correlation":1}},)";
    } else {
        e = lateStart
                ? R"({"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#1","ts":300,"dur":700},)"
                : R"({"ph":"X","cat":"user_annotation","pid":1,"tid":1,"name":"ProfilerStep#1","ts":0,"dur":1000},
{"ph":"X","cat":"cpu_op","pid":1,"tid":1,"name":"aten::slow","ts":50,"dur":500},)";
        e += R"(
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaLaunchKernel","ts":560,"dur":5,"args":{"correlation":1}},
{"ph":"X","cat":"kernel","pid":0,"tid":20,"name":"NCCL","ts":600,"dur":120,"args":{"device":0,"stream":20,"correlation":1}},)";
    }
    const std::string sync = rank == 0 ? R"("ts":130,"dur":600)" : R"("ts":570,"dur":160)";
    e += R"(
{"ph":"X","cat":"cuda_runtime","pid":1,"tid":1,"name":"cudaDeviceSynchronize",)" +
         sync +
         R"(,"args":{"correlation":2}},
{"ph":"X","cat":"cuda_sync","pid":0,"tid":-1,"name":"Context Sync","ts":725,"dur":5,"args":{"device":0,"stream":-1,"correlation":2,"cuda_sync_kind":"Context Sync"}})";
    for (size_t at = e.find("NCCL"); at != std::string::npos; at = e.find("NCCL"))
        e.replace(at, 4, nccl);
    return R"({"distributedInfo":{"backend":"nccl","rank":)" + std::to_string(rank) +
           R"(,"world_size":2},
"deviceProperties":[{"id":0,"name":"NVIDIA H100 80GB HBM3","totalGlobalMem":85520809984,"numSms":132}],
"traceEvents":[)" +
           e + "]}";
}

}  // namespace gapscope::test
