// The CUDA and HIP runtime calls and Kineto's cuda_sync records as the
// critical path reads them: which calls enqueue GPU work on a stream, which
// block until the GPU has done the work they wait on, which record an
// event; and what each synchronization record says was waited for.

#include "model/vocabulary/vocabulary.h"

namespace gapscope::vocabulary {

bool queuesGpuWork(std::string_view call) {
    // Holistic Trace Analysis's CUDA and HIP launches (trace_symbol_table.py),
    // and HIP's other kernel launches.
    return call == "cudaLaunchKernel" || call == "cudaLaunchKernelExC" ||
           call == "cuLaunchKernel" || call == "cudaMemcpyAsync" || call == "cudaMemsetAsync" ||
           call == "hipLaunchKernel" || call == "hipExtLaunchKernel" ||
           call == "hipModuleLaunchKernel" || call == "hipExtModuleLaunchKernel" ||
           call == "hipMemcpyAsync" || call == "hipMemsetAsync" || call == "hipMemcpyWithStream";
}

bool blocksUntilGpuDone(std::string_view call) {
    // The calls HTA treats as returning only once GPU work has finished
    // (its BLOCKING_SYNC_CALLS, which the critical path follows to agree
    // with it: cudaEventQuery in fact returns at once, cudaMemcpyAsync
    // blocks only from pageable memory).
    return call == "cudaDeviceSynchronize" || call == "cudaStreamSynchronize" ||
           call == "cudaEventQuery" || call == "cudaEventSynchronize" || call == "cudaMemcpy" ||
           call == "cudaMemcpyAsync" || call == "hipDeviceSynchronize" ||
           call == "hipStreamSynchronize" || call == "hipEventQuery" ||
           call == "hipEventSynchronize" || call == "hipMemcpy" || call == "hipMemcpyAsync";
}

bool synchronizesDevice(std::string_view call) {
    return call == "cudaDeviceSynchronize" || call == "cuCtxSynchronize" ||
           call == "hipDeviceSynchronize";
}

bool synchronizesStream(std::string_view call) {
    return call == "cudaStreamSynchronize" || call == "cuStreamSynchronize" ||
           call == "hipStreamSynchronize";
}

bool recordsEvent(std::string_view call) {
    return call == "cudaEventRecord" || call == "cudaEventRecordWithFlags" ||
           call == "hipEventRecord";
}

bool waitsOnEventOnStream(std::string_view call) {
    return call == "cudaStreamWaitEvent" || call == "hipStreamWaitEvent";
}

CudaSyncRecord kinetoCudaSync(std::string_view name) {
    // Kineto's cuda_sync events (CUPTI's synchronization activity).
    if (name == "Context Sync") return CudaSyncRecord::Context;
    if (name == "Stream Sync") return CudaSyncRecord::Stream;
    if (name == "Event Sync") return CudaSyncRecord::Event;
    if (name == "Stream Wait Event") return CudaSyncRecord::StreamWaitEvent;
    return CudaSyncRecord::None;
}

}  // namespace gapscope::vocabulary
