#!/usr/bin/env bash
# Run on a CUDA machine (Hopper): records the bf16 transformer pair and, with
# Nsight Compute, which of one step's kernels executed tensor-core instructions.
set -u
out=${1:?output dir}
here=$(dirname "$0")
rec="$here/record_torch_transformer.py"
export PYTHONUNBUFFERED=1
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$out/device.txt"
python3 -c 'import torch; print("torch", torch.__version__, "cuda", torch.version.cuda)' | tee -a "$out/device.txt"
timeout 130 python3 "$rec" input_bound "$out/h200_transformer_input_bound.pt.trace.json.gz" 2>&1 | tail -8
timeout 110 python3 "$rec" workers "$out/h200_transformer_workers.pt.trace.json.gz" 2>&1 | tail -8
ncu=$(command -v ncu || ls /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | head -1)
[ -n "$ncu" ] || { echo "no ncu"; exit 0; }
"$ncu" --version | tail -1 | tee -a "$out/device.txt"
metrics=$("$ncu" --query-metrics 2>/dev/null | awk '/^sm__inst_executed_pipe_tensor/ {print $1 ".sum"}' | paste -sd, -)
[ -n "$metrics" ] || metrics=$("$ncu" --query-metrics 2>/dev/null | awk '/^sm__pipe_tensor/ {print $1 ".sum"}' | paste -sd, -)
echo "metrics: $metrics" | tee -a "$out/device.txt"
timeout 200 "$ncu" --profile-from-start off --launch-count 600 --csv --print-units base \
  --metrics "$metrics" --log-file "$out/h200_transformer_tensor_ops.ncu.csv" \
  python3 "$rec" ncu-step 2>&1 | tail -8
gzip -9 "$out/h200_transformer_tensor_ops.ncu.csv"
ls -la "$out"
