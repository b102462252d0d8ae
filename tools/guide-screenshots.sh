#!/usr/bin/env bash
# Regenerates the user guide's screenshots (docs/screenshots/guide-*.png)
# from the app itself, on the bundled sample, so they never go stale:
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

take() {  # NAME ARGS... (positional args first, as gapscope-screenshot wants them)
  local name=$1
  shift
  "$shot" "$@" "$scratch/$name.png" --size 1400x860 2>/dev/null
  mv "$scratch/$name.png" "$out/$name.png"
  rm -rf "$scratch/config"
  echo "$out/$name.png"
}
take guide-welcome --welcome -
take guide-tour "$sample" --tour 1
take guide-overview "$sample" --panel overviewDock
take guide-details "$sample" --zoom 0.225,0.27 --select cudaLaunchKernel
take guide-range "$sample" --range 0.26,0.5
take guide-gaps "$sample" --panel gapsDock
take guide-steps "$sample" --panel stepsDock
take guide-kernels "$sample" --panel kernelsDock
take guide-pipeline "$sample" --panel InputPipelineDock
take guide-advice "$sample" --panel AdviceDock --dark
# Section 7: the 8 DLRM ranks of ../shared side by side (skipped without it).
dlrm=../shared/traces/param/example_input_files/chakra_traces/dlrm_kineto_extracted/dlrm_kineto
if [[ -d $dlrm ]]; then
  "$shot" "$dlrm" "$scratch/ranks-dlrm.png" --size 1600x1000 --panel ranksDock 2>/dev/null
  mv "$scratch/ranks-dlrm.png" "$out/ranks-dlrm.png"
  echo "$out/ranks-dlrm.png"
fi
