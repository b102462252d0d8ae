#!/usr/bin/env bash
# Regenerates every screenshot of docs/ and the README (docs/screenshots)
# from the app itself, so they never go stale:
#   bash tools/guide-screenshots.sh [BUILD_DIR]   (default build/dev)
# Runs the real main window offscreen through the test build's
# gapscope-screenshot, at 1400x860 (the guide's size) unless noted.
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build/dev}
shot=$build/tests/widgets/gapscope-screenshot
[[ -x $shot ]] || cmake --build "$build" --target gapscope-screenshot
sample=resources/samples/h200_cnn_dataloader.pt.trace.json.gz
out=docs/screenshots
export QT_QPA_PLATFORM=offscreen
# Its own settings and cache: no window state or recent files of a person's.
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export XDG_CONFIG_HOME=$scratch/config XDG_CACHE_HOME=$scratch/cache HOME=$scratch

take() {  # NAME ARGS... (positional args first, as gapscope-screenshot wants them); SIZE=WxH
  local name=$1
  shift
  "$shot" "$@" "$scratch/$name.png" --size "${SIZE:-1400x860}" 2>/dev/null
  mv "$scratch/$name.png" "$out/$name.png"
  rm -rf "$scratch/config"
  echo "$out/$name.png"
}
take guide-welcome --welcome -
take guide-tour "$sample" --tour 1
take guide-overview "$sample" --panel overviewDock
take guide-health-dark "$sample" --panel healthDock --dark
take guide-details "$sample" --zoom 0.225,0.27 --select cudaLaunchKernel
take guide-range "$sample" --range 0.26,0.5
take guide-tracks "$sample" --zoom 0.45,0.56 --pin "python3 462|GPU 0 › stream 7$" --filter "stream|418"
take guide-gaps "$sample" --panel gapsDock
take guide-steps "$sample" --panel stepsDock
take guide-kernels "$sample" --panel kernelsDock
# The roofline of a recorded transformer (bf16 GEMMs, attention, norms).
take guide-roofline tests/data/recorded/h200_transformer_workers.pt.trace.json.gz \
  --panel EfficiencyDock --dock-height 470
# Memory: what holds the peak, by op, the band under the curve.
SIZE=1400x900 take guide-memory "$sample" --panel MemoryDock --dock-height 520
# The planted memory trace (a leak per step) at scale 2, dark.
QT_SCALE_FACTOR=2 "$shot" tests/fixtures/memory/planted.json "$scratch/m.png" --size 1366x768 \
  --panel MemoryDock --dock-height 480 --dark 2>/dev/null
mv "$scratch/m.png" "$out/guide-memory-leak-dark-200.png" && rm -rf "$scratch/config"
echo "$out/guide-memory-leak-dark-200.png"
take guide-pipeline "$sample" --panel InputPipelineDock
take guide-advice "$sample" --panel AdviceDock --dark
# A registered analysis without a panel of its own: the registry's panel.
take guide-launch "$sample" --panel launchDock
# The critical path of the input-bound sample's step 3: the wait for input.
take guide-critical-path "$sample" --panel critical-pathDock --dock-height 470 --step 3
# A recorded transformer's step: the path through the backward thread, the rest dimmed.
take guide-critical-path-dim tests/data/recorded/h200_transformer_workers.pt.trace.json.gz \
  --panel critical-pathDock --dock-height 400 --step 5 --dim-path --zoom 0.55,0.62
take trace-panel "$sample" --panel infoDock
QT_SCALE_FACTOR=2 "$shot" "$sample" "$scratch/t.png" --size 1400x860 --panel infoDock --dark 2>/dev/null
mv "$scratch/t.png" "$out/trace-panel-dark-200.png" && rm -rf "$scratch/config"
echo "$out/trace-panel-dark-200.png"
QT_SCALE_FACTOR=2 "$shot" "$sample" "$scratch/l.png" --size 1920x1080 --panel timelineDock --dark 2>/dev/null
mv "$scratch/l.png" "$out/registry-panel-dark-200.png" && rm -rf "$scratch/config"
echo "$out/registry-panel-dark-200.png"
SIZE=1366x768 take panels-laptop-1366x768 "$sample"
# A laptop's smallest screen with the tallest panel: it scrolls, the window keeps the size.
SIZE=1280x720 take panels-laptop-1280x720-steps "$sample" --panel stepsDock
QT_SCALE_FACTOR=2 "$shot" "$sample" "$scratch/s.png" --size 1280x720 --panel stepsDock --dark 2>/dev/null
mv "$scratch/s.png" "$out/panels-2560x1440-steps-dark-200.png" && rm -rf "$scratch/config"
echo "$out/panels-2560x1440-steps-dark-200.png"
take guide-utilisation "$sample" --panel utilizationDock
take guide-search-results "$sample" --search cudaLaunchKernel --panel searchDock
# Zoomed in: kernels by their short names, the ruler in offsets from its first tick.
take guide-ruler-offsets "$sample" --zoom 0.235,0.255 --panel kernelsDock
take panels-gaps-dark "$sample" --panel gapsDock --dark
# Scale 2 (a 4K screen): the welcome page and the ranks, dark.
QT_SCALE_FACTOR=2 "$shot" --welcome - "$scratch/w.png" --size 1920x1080 --dark 2>/dev/null
mv "$scratch/w.png" "$out/welcome-dark-200.png" && rm -rf "$scratch/config"
echo "$out/welcome-dark-200.png"
# Annotations on a copy of the sample (its sidecar beside it), in the
# viewer and in gapscope-cli render's picture.
cli=$build/app/cli/gapscope-cli
cp "$sample" "$scratch/sample.pt.trace.json.gz"
span=$("$cli" info "$scratch/sample.pt.trace.json.gz" --format json --no-cache |
  python3 -c 'import json,sys; f=json.load(sys.stdin); print(f["span_start_ns"], f["span_end_ns"])')
read -r t0 t1 <<<"$span"
python3 - "$t0" "$t1" "$scratch/sample.pt.trace.json.gz.gapscope.json" <<'PY'
import json, sys
t0, t1, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
at = lambda f: t0 + (t1 - t0) * f // 1000
json.dump({"format": "gapscope-annotations", "version": 1, "trace": "sample.pt.trace.json.gz",
           "annotations": [
               {"id": 1, "kind": "marker", "start_ns": at(412), "end_ns": at(412),
                "text": "step 3: the GPU waits", "color": "#d55e00"},
               {"id": 2, "kind": "range", "start_ns": at(520), "end_ns": at(745),
                "text": "input stall: DataLoader in the main process", "color": "#56b4e9"}]},
          open(out, "w"))
PY
take annotations-viewer "$scratch/sample.pt.trace.json.gz"
"$cli" render "$scratch/sample.pt.trace.json.gz" --out "$out/export-annotated.png" --width 1400 \
  --no-cache >/dev/null
echo "$out/export-annotated.png"
# Kineto's ResNet50 (DataLoader in the main process) and a TensorFlow
# trace, from ../shared (skipped without it).
resnet=../shared/traces/kineto/tb_plugin/samples/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz
if [[ -f $resnet ]]; then
  take panels-overview "$resnet" --panel overviewDock
  take range-summary "$resnet" --range 0.30,0.42
  QT_SCALE_FACTOR=2 "$shot" "$resnet" "$scratch/s.png" --size 960x700 --panel stepsDock 2>/dev/null
  mv "$scratch/s.png" "$out/panels-steps-200.png" && rm -rf "$scratch/config"
  echo "$out/panels-steps-200.png"
fi
# Section 9: the ResNet50 pair compared (workers 0 above, 4 below), at the
# guide's size, a laptop's, and dark at 200 % on a 4K screen.
resnet4=../shared/traces/kineto/tb_plugin/samples/resnet50_num_workers_4/worker0.1623212756351.pt.trace.json.gz
if [[ -f $resnet && -f $resnet4 ]]; then
  take compare "$resnet" --compare "$resnet4" --select "Memcpy HtoD (Pageable -> Device)"
  SIZE=1366x768 take compare-laptop-1366x768 "$resnet" --compare "$resnet4"
  QT_SCALE_FACTOR=2 "$shot" "$resnet" "$scratch/c.png" --size 1920x1080 --compare "$resnet4" \
    --dark 2>/dev/null
  mv "$scratch/c.png" "$out/compare-dark-200.png" && rm -rf "$scratch/config"
  echo "$out/compare-dark-200.png"
fi
# Section 9, runs of very different speed: the recorded H200 pair (the
# DataLoader in the main process, ~460 ms steps, above; four workers, ~26 ms,
# below), each timeline fitted to its median step, a kernel framed in both.
h200=tests/data/recorded/h200_transformer_input_bound.pt.trace.json.gz
h200w=tests/data/recorded/h200_transformer_workers.pt.trace.json.gz
take compare-fitted "$h200" --compare "$h200w" --fitted
SIZE=1366x768 take compare-fitted-laptop-1366x768 "$h200" --compare "$h200w" --fitted \
  --compare-tab kernels
# Section 9, after torch.compile: an eager run and a compiled one with
# named ranges (tests/tools/make_compare_pair.py), the Scopes tab shown and
# the mlp range framed in both.
python3 tests/tools/make_compare_pair.py "$scratch/eager.json" --seed 1 --steps 9 --with-ops \
  --scoped
python3 tests/tools/make_compare_pair.py "$scratch/compiled.json" --seed 2 --steps 9 --with-ops \
  --scoped --compiled
take compare-scopes "$scratch/eager.json" --compare "$scratch/compiled.json" \
  --compare-tab scopes --select "## mlp ##"
tf=../shared/traces/sagemaker-debugger/tests/profiler/resources/tfprofiler_timeline_traces/framework/tensorflow/detailed_profiling/2020080513/000000000/plugins/profile/2020_08_05_13_37_44/8c859046be41.ant.amazon.com.trace.json.gz
if [[ -f $tf ]]; then
  take panels-tensorflow-pipeline-dark "$tf" --panel InputPipelineDock --dark
fi
# An Nsight Systems export (an HPC code on an A100) from ../shared.
nsight=../shared/traces/pipit/tests/data/cloverleaf-nsys/perlmutter-cloverleaf-cuda.sqlite
if [[ -f $nsight ]]; then
  take guide-nsight "$nsight" --zoom 0.5765,0.5865 --panel gapsDock
fi
# A report of a job's two ranks (the test fixture of that shape): one rank
# per process, rank 1 step 1's straggler.
python3 tests/tools/make_nsys_fixtures.py "$scratch/nsys" >/dev/null
take guide-nsight-ranks "$scratch/nsys/nsys_2024_two_ranks.sqlite" --panel ranksDock
# A job of 1024 ranks (two planted slow) on a laptop: the busy strip folded
# into its band, the Ranks panel sorted by outlier score; and at scale 2, dark.
python3 tests/tools/make_planted_job.py "$scratch/job1024"
SIZE=1366x768 take guide-ranks-1024 "$scratch/job1024" --panel ranksDock
QT_SCALE_FACTOR=2 "$shot" "$scratch/job1024" "$scratch/j.png" --size 1366x768 --panel ranksDock \
  --dark 2>/dev/null
mv "$scratch/j.png" "$out/guide-ranks-1024-dark-200.png" && echo "$out/guide-ranks-1024-dark-200.png"
# Section 7: the 8 DLRM ranks of ../shared side by side (skipped without it).
dlrm=../shared/traces/param/example_input_files/chakra_traces/dlrm_kineto_extracted/dlrm_kineto
if [[ -d $dlrm ]]; then
  "$shot" "$dlrm" "$scratch/ranks-dlrm.png" --size 1600x1000 --panel ranksDock 2>/dev/null
  mv "$scratch/ranks-dlrm.png" "$out/ranks-dlrm.png"
  echo "$out/ranks-dlrm.png"
  QT_SCALE_FACTOR=2 "$shot" "$dlrm" "$scratch/r.png" --size 1920x1080 --panel ranksDock --dark \
    2>/dev/null
  mv "$scratch/r.png" "$out/ranks-dlrm-dark-200.png"
  echo "$out/ranks-dlrm-dark-200.png"
fi
