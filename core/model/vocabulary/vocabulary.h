#pragma once
// Each producer's vocabulary, in a file of its own: what its categories
// and names mean as slice kinds. A new producer adds one file here and a
// line in categoryKind (names.cpp); no analysis changes.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/slice_kind.h"
#include "model/trace.h"  // MemoryCurve

namespace gapscope::vocabulary {

// PyTorch's Kineto (CUDA and ROCm): "kernel", "gpu_memcpy", "cpu_op",
// "cuda_runtime", "user_annotation", …; nullopt for a category it lacks.
std::optional<SliceKind> kinetoCategory(std::string_view category);
// Kineto's categories of host work (CPU ops, runtime and driver calls, user
// annotations, Python functions): what a host process holds.
bool kinetoHostCategory(std::string_view category);
// N of a Kineto process label or name "GPU N" ("GPU 2"); -1 for anything else.
int kinetoGpuNumber(std::string_view labelOrName);
bool kinetoLaunchFlow(std::string_view category);  // "ac2g"
// Kineto's own log lines, which its on-demand traces carry at the top level
// ("ERROR": [...], "WARNING": [...]; INFO is not about the recording): for
// such a key, whether its lines are errors. (CUPTI's dropped records are
// said there.)
std::optional<bool> kinetoLogIsError(std::string_view topLevelKey);

// TensorFlow's trace-viewer JSON: "Kernel", "Memcpy", "Operator", "Runtime"…
std::optional<SliceKind> tensorflowCategory(std::string_view category);

// XSpace GPU planes (TensorFlow, JAX): every event of a "Stream #N(…)" line
// is GPU work; copy streams name themselves, memsets are named.
SliceKind xspaceStreamEvent(std::string_view lineName, std::string_view eventName);

// Where the plane's name starts in a process's name: 0 for a plane
// ("/host:CPU", "/device:GPU:0" — XSpace, and TensorFlow's JSON), the
// plane's position after a host's name ("10.0.0.1_6009 /device:GPU:0", a
// profile run's host file: no space in the host); npos for any other name.
size_t planeNameAt(std::string_view processName);
// TensorFlow's derived lines of a GPU plane: the step numbers ("Steps") and
// the ops that ran on it ("TensorFlow Ops").
bool isStepsLine(std::string_view lineName);
bool isTensorflowOpsLine(std::string_view lineName);
// TensorFlow's memory profiler's events of a block allocated or freed: each
// is an allocator's event of its own (Trace::memoryEvents), not work.
bool isAllocatorEventName(std::string_view name);
// TensorFlow's memory counter of a GPU ("Memory Usage" with its
// bytes_in_use and bytes_reserved keys): which curve it is.
MemoryCurve tensorflowMemoryCurve(std::string_view counterName);

// tf.data's iterator: a stage is a path of the pipeline's datasets
// ("Iterator::Prefetch::ParallelMap"); IteratorGetNext is the training
// loop waiting for the next element.
bool isTfDataStage(std::string_view sliceName);
bool isTfDataGetNext(std::string_view sliceName);
// The datasets of a stage path, outermost first.
std::vector<std::string_view> tfDataStageParts(std::string_view path);
// What one dataset of a stage path is: prefetching, caching, a map run one
// element at a time (not ParallelMap).
bool isTfDataPrefetch(std::string_view part);
bool isTfDataCache(std::string_view part);
bool isTfDataSequentialMap(std::string_view part);

// PyTorch's DataLoader: its iterator's __next__ (the training loop waiting
// for a batch), which iterator it is, and its pin_memory thread.
bool isDataLoaderNext(std::string_view sliceName);
enum class DataLoaderIterator : uint8_t { Unsaid, SingleProcess, WorkerProcesses };
DataLoaderIterator dataLoaderIterator(std::string_view sliceName);
bool isPinMemoryThread(std::string_view threadName);

// Nsight Systems' SQLite export, as its reader names each table's rows:
// "CUDA kernel", "CUDA runtime", "NVTX", "NVTX (GPU projection)", …
std::optional<SliceKind> nsightCategory(std::string_view category);
bool nsightLaunchFlow(std::string_view category);  // "CUDA launch"

// Which profiler wrote a trace: Nsight Systems' reader's metadata, Kineto's
// top-level keys, TensorFlow's plane-named processes, else Kineto's
// categories; Unknown for anything else.
Producer producerOf(const Trace& trace);
// What a category means in the producer's vocabulary (an unknown
// producer's: in any, their names do not clash), and whether a flow of that
// category goes from a launch to its GPU work.
std::optional<SliceKind> categoryKind(Producer producer, std::string_view category);
bool isLaunchFlowCategory(Producer producer, std::string_view category);

// Whether a slice of this kind and name is a range a person named around
// code: a user annotation (record_function, NVTX), or an nn.Module frame
// of PyTorch's with_stack; not the ranges torch.compile and AOTAutograd
// add (their names hold a hash or a frame number), nor emit_nvtx's
// per-op ranges. (Steps are ranges too; analyses leave them out.)
bool namesScope(SliceKind kind, std::string_view name);

// Names that refine a kind whatever the producer: collectives among
// kernels, training steps among ranges, what a runtime call does.
bool isCommunicationKernelName(std::string_view name);
// A collective kernel that sends to or receives from one peer (a pipeline's
// SendRecv), not one the whole group enters.
bool isPointToPointKernelName(std::string_view name);
bool isStepName(std::string_view name);
// PyTorch's module frames (with_modules / with_stack): "nn.Module:
// Linear_0" -> "Linear_0"; "" for another name.
std::string_view moduleFrameName(std::string_view name);
// What a range says of the training loop's phase around it: torch.optim's
// "Optimizer.step#…" / "Optimizer.zero_grad#…", autograd's engine functions
// and *Backward* / *_backward ops.
enum class TrainingPhaseMark : uint8_t { None, Backward, Optimizer };
TrainingPhaseMark trainingPhaseMark(std::string_view name);
// "ProfilerStep#12" -> "12" (what follows the marker; "" for another name).
std::string_view stepNumberText(std::string_view name);
// Keras' "train" and "test" ranges, which carry their step number as an arg.
bool isTrainTestStepName(std::string_view name);
// A launch of a host function (cudaLaunchHostFunc): it runs on the host,
// so no GPU work follows it.
bool isHostFunctionLaunch(std::string_view name);
// cudaStreamBeginCapture / cudaStreamEndCapture: launches between them are
// recorded into a graph and run nothing until the graph is launched.
enum class CaptureEdge : uint8_t { None, Begin, End };
CaptureEdge streamCaptureEdge(std::string_view name);
// What a copy's name says of its host memory: true pinned, false pageable,
// nullopt unsaid ("Memcpy HtoD (Pageable -> Device)", Kineto's and Nsight's).
std::optional<bool> copyHostMemoryIsPinned(std::string_view name);
SliceKind runtimeCallKind(std::string_view name);
// What a host slice named so means while a GPU waits (see HostRole).
HostRole hostRoleOfName(std::string_view name);
// Which of the input pipeline's slices a HostRole::InputWait one is: a
// tf.data stage working, or the training loop waiting for the next element
// (tf.data's IteratorGetNext, a DataLoader's __next__); None for a name of
// another role.
enum class InputRole : uint8_t { None, Stage, GetNext, DataLoaderNext };
InputRole inputRoleOfName(std::string_view name);

// What a PyTorch op computes, for its FLOPs and bytes (analysis/op_cost.h):
// the family of its formula and where the formula's arguments are among the
// inputs the profiler recorded (record_shapes: "Input Dims", "Input type",
// "Concrete Inputs", by position). None for an op no formula covers.
enum class OpFamily : uint8_t {
    None,
    Mm,        // mat1 (M, K) @ mat2 (K, N)
    Addmm,     // bias + mat1 @ mat2
    Bmm,       // (B, M, K) @ (B, K, N)
    Baddbmm,   // bias + batch1 @ batch2
    Matmul,    // broadcasting matmul of any ranks
    Linear,    // x (..., K) @ weight (N, K)ᵀ + bias
    ScaledMm,  // an fp8 GEMM with scales
    GroupedMm,
    Convolution,
    ConvolutionBackward,
    Attention,          // scaled-dot-product / flash attention, forward
    AttentionBackward,  // ... and backward
    LayerNorm,
    LayerNormBackward,
    RmsNorm,
    BatchNorm,
    GroupNorm,
    Unary,   // one tensor in, one out (a copy: destination and source)
    Binary,  // two operands, broadcast
    Reduce,
    Embedding,
};
struct OpArguments {
    OpFamily family = OpFamily::None;
    // The inputs that are the operands: a GEMM's A and B (the bias's is
    // the Addmm/Baddbmm input before A), attention's q, k and v.
    int8_t a = 0, b = 1, c = 2;
    // Attention: q, k and v are (batch, tokens, heads, dim) rather than
    // (batch, heads, tokens, dim); whether its kernel recomputes the
    // scores in the backward pass (flash attention).
    bool tokensBeforeHeads = false;
    bool recomputes = false;
    // A position among the Concrete Inputs: attention's is_causal; a
    // norm's normalized shape (layer, RMS), training (batch norm) or a
    // backward's output mask; a reduction's dim; a convolution's stride
    // (padding, dilation, transposed, output padding and groups follow).
    // -1: none.
    int8_t concrete = -1;
    int8_t concrete2 = -1;    // a reduction's keepdim
    bool keepsShape = false;  // a reduction whose output is its input's size (cumsum)
};
OpArguments pytorchOpArguments(std::string_view opName);

// CUDA and HIP runtime calls as the critical path reads them: a launch that
// enqueues work on a stream (its queue), a call that returns only once the
// GPU work it waits on is done, an event record, a stream's wait on one.
bool queuesGpuWork(std::string_view call);
bool blocksUntilGpuDone(std::string_view call);
// Calls that wait for all of a device's work, or for one stream's.
bool synchronizesDevice(std::string_view call);
bool synchronizesStream(std::string_view call);
bool recordsEvent(std::string_view call);
bool waitsOnEventOnStream(std::string_view call);
// Kineto's cuda_sync records (on the GPU's rows, correlated with the call
// that waited): what was waited for.
enum class CudaSyncRecord : uint8_t { None, Context, Stream, Event, StreamWaitEvent };
CudaSyncRecord kinetoCudaSync(std::string_view name);

// A tensor's element type, as each producer names it: its size and which
// kind of number it is (the kind says whose matrix peak bounds work on it).
enum class ElementKind : uint8_t {
    Float64,
    Float32,
    Float16,
    BFloat16,
    Float8,
    Int8,
    Integer,  // wider integers: no matrix peak
    Other,    // bool, complex, a Python scalar, fp4 pairs
};
struct ElementType {
    ElementKind kind = ElementKind::Other;
    int bytes = 0;
};
// Kineto's "Input type" ("c10::BFloat16", "float", "Scalar", …).
std::optional<ElementType> pytorchOpElementType(std::string_view recordedType);
// c10's ScalarType names ("BFloat16", "Float"), as a collective's record has them.
std::optional<ElementType> pytorchScalarType(std::string_view name);
// XLA's ("bf16", "f32", "f8e4m3fn", "s8", "pred").
std::optional<ElementType> xlaElementType(std::string_view name);
// The element type of an HLO shape ("bf16[8,128]{1,0}" -> "bf16"; a
// tuple's first array's); "" where the text is no shape.
std::string_view xlaShapeElementType(std::string_view shape);
// Whether an HLO op (or the kernel XLA named after it) is a matrix product
// or a convolution: "dot", "convolution", "gemm_fusion_dot.2", "cublas-gemm.1".
bool xlaMatrixOp(std::string_view hloName);

// A collective as PyTorch records it, on its NCCL / RCCL kernel and on the
// record_param_comms op around its launch: which collective, the elements
// each rank sends and receives, the group's size and the elements' type.
enum class CollectiveKind : uint8_t {
    AllReduce,
    AllGather,
    ReduceScatter,
    AllToAll,
    Broadcast,
    Reduce,
    SendRecv,
    Other,  // barrier, gather, scatter, …: no bus bandwidth defined
};
struct CollectiveParams {
    std::string name;  // as recorded: "allreduce", "_allgather_base", …
    CollectiveKind kind = CollectiveKind::Other;
    int64_t inElements = -1, outElements = -1;  // -1: not recorded
    int64_t groupSize = 0;
    int elementBytes = 0;  // 0: a type it does not size
};
// From the record the model keeps (Trace::collectives: the name, the
// elements' type, the elements in and out, the group's size).
CollectiveParams pytorchCollectiveParams(std::string_view name, std::string_view type,
                                         int64_t inElements, int64_t outElements,
                                         int64_t groupSize);

}  // namespace gapscope::vocabulary
