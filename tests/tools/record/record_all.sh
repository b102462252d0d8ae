#!/usr/bin/env bash
# Run on a CUDA machine: records the real GPU traces committed under tests/data/recorded.
set -u
out=${1:?output dir}
here=$(dirname "$0")
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
PYTHONUNBUFFERED=1 timeout 240 python3 "$here/record_torch_trace.py" "$out/h200_cnn_dataloader.pt.trace.json.gz" 2>&1 | tail -20
PYTHONUNBUFFERED=1 timeout 180 python3 "$here/record_jax_trace.py" "$out" 2>&1 | tail -20
ls -la "$out"
