#!/usr/bin/env bash
# Installs every build and test dependency of Gapscope on Debian 12.
# Idempotent: when everything is already installed it only runs dpkg-query.
#   --fuzz   also clang and its runtime, for the libFuzzer preset
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config lld ccache
  qt6-base-dev qt6-base-dev-tools qt6-svg-dev libgl-dev
  nlohmann-json3-dev libzstd-dev zlib1g-dev zstd libisal-dev libsqlite3-dev
  python3 xvfb xauth poppler-utils
  # the package, its man pages, completions and desktop files, and their checks
  dpkg-dev lintian desktop-file-utils appstream shared-mime-info python3-markdown
  man-db zsh
  # tools/fleet: the fleet summary on a Dask cluster (and its test on a LocalCluster)
  python3-dask python3-distributed
  # HTA, the peer run beside us in the tests (tests/tools/hta_check.py, CTest hta_agrees)
  python3-pandas python3-numpy python3-plotly python3-networkx python3-ijson python3-yaml python3-psutil
  # the output contract test: every analysis's JSON against its published schema
  python3-jsonschema
  # the Python module (app/python) and its tests, the walkthrough's plot
  pybind11-dev python3-pytest python3-matplotlib
)
if [[ "${1:-}" == "--fuzz" ]]; then
  packages+=(clang libclang-rt-14-dev)
fi

missing=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$p")
done

if [[ ${#missing[@]} -eq 0 ]]; then
  exit 0
fi

sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then
  sudo_cmd=(sudo)
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
