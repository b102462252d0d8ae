#pragma once
// How to record a trace that Gapscope opens, per framework: shown on the
// welcome page (copyable) and kept in step with the README's "Record a
// trace" section by tst_welcome.

#include <array>

namespace gapscope::app {

struct RecordSnippet {
    const char* framework;
    const char* code;
};

inline constexpr std::array<RecordSnippet, 3> kRecordSnippets = {{
    {"PyTorch",
     "import torch\n"
     "from torch.profiler import ProfilerActivity, schedule, tensorboard_trace_handler\n"
     "\n"
     "# One cycle of five steps, written as one file; shapes and memory for\n"
     "# the Memory panel and the per-op figures.\n"
     "with torch.profiler.profile(\n"
     "        activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA],\n"
     "        schedule=schedule(wait=1, warmup=1, active=5, repeat=1),\n"
     "        record_shapes=True, profile_memory=True,\n"
     "        on_trace_ready=tensorboard_trace_handler(\"traces\")) as prof:\n"
     "    for batch in loader:\n"
     "        train_step(batch)\n"
     "        prof.step()\n"
     "# then: gapscope traces/*.pt.trace.json\n"},
    {"TensorFlow",
     "import tensorflow as tf\n"
     "\n"
     "tf.profiler.experimental.start(\"logs\")\n"
     "for step in range(20):\n"
     "    train_step()\n"
     "tf.profiler.experimental.stop()\n"
     "# or Keras: model.fit(..., callbacks=[\n"
     "#     tf.keras.callbacks.TensorBoard(\"logs\", profile_batch=(10, 15))])\n"
     "# then: gapscope logs/\n"},
    {"JAX",
     "import jax\n"
     "\n"
     "with jax.profiler.trace(\"logs\"):\n"
     "    for step in range(20):\n"
     "        state = train_step(state, batch)\n"
     "    jax.block_until_ready(state)\n"
     "# then: gapscope logs/\n"},
}};

}  // namespace gapscope::app
