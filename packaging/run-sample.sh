#!/usr/bin/env bash
# Builds Gapscope (Release) and opens the bundled sample trace: a real
# PyTorch profiler recording of a small CNN on an NVIDIA H200 whose
# DataLoader leaves the GPU idle between steps.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset release >/dev/null
cmake --build --preset release -j "$(nproc)"
sample=resources/samples/h200_cnn_dataloader.pt.trace.json.gz
if [[ -x build/release/app/gui/gapscope ]]; then
  exec build/release/app/gui/gapscope "$sample"
fi
exec build/release/app/cli/gapscope-cli info "$sample"
