#!/usr/bin/env bash
# Builds Gapscope (Release) and opens the bundled sample trace: a real
# PyTorch profiler recording of a small CNN on an NVIDIA H200 whose
# DataLoader leaves the GPU idle between steps.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
# Only what it runs (the viewer and the CLI), not the tests and benchmarks:
# on a fresh machine the window appears minutes sooner.
targets=(gapscope-cli)
[[ -d build/release/app/gui ]] && targets+=(gapscope)
cmake --build --preset release -j "$(nproc)" --target "${targets[@]}"
sample=resources/samples/h200_cnn_dataloader.pt.trace.json.gz
if [[ -x build/release/app/gui/gapscope ]]; then
  exec build/release/app/gui/gapscope "$sample"
fi
exec build/release/app/cli/gapscope-cli info "$sample"
