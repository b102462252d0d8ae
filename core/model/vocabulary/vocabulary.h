#pragma once
// Each producer's vocabulary, in a file of its own: what its categories
// and names mean as slice kinds. A new producer adds one file here and a
// line in categoryKind (names.cpp); no analysis changes.

#include <optional>
#include <string_view>

#include "model/slice_kind.h"

namespace gapscope::vocabulary {

// PyTorch's Kineto (CUDA and ROCm): "kernel", "gpu_memcpy", "cpu_op",
// "cuda_runtime", "user_annotation", …; nullopt for a category it lacks.
std::optional<SliceKind> kinetoCategory(std::string_view category);
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

// Nsight Systems' SQLite export, as its reader names each table's rows:
// "CUDA kernel", "CUDA runtime", "NVTX", "NVTX (GPU projection)", …
std::optional<SliceKind> nsightCategory(std::string_view category);
bool nsightLaunchFlow(std::string_view category);  // "CUDA launch"

// What a category means whatever the producer (their names do not clash),
// and whether a flow of that category goes from a launch to its GPU work.
std::optional<SliceKind> categoryKind(std::string_view category);
bool isLaunchFlowCategory(std::string_view category);

// Names that refine a kind whatever the producer: collectives among
// kernels, training steps among ranges, what a runtime call does.
bool isCommunicationKernelName(std::string_view name);
bool isStepName(std::string_view name);
SliceKind runtimeCallKind(std::string_view name);
// What a host slice named so means while a GPU waits (see HostRole).
HostRole hostRoleOfName(std::string_view name);

}  // namespace gapscope::vocabulary
