#!/usr/bin/env bash
# Builds the Debian package: gapscope_VERSION_ARCH.deb in build/package/deb
# (Release with Debian's hardening flags), then checks it with lintian.
#   --from-build DIR   package an existing build folder instead (CI packages
#                      its test build, so as not to compile everything again)
# Install it with: sudo apt-get install ./build/package/deb/gapscope_*.deb
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
build=build/package
if [[ "${1:-}" == "--from-build" ]]; then
  build=$2
else
  cmake --preset package >/dev/null
  cmake --build --preset package -j "$(nproc)"
fi
out=$build/deb
rm -rf "$out"
cpack --config "$build/CPackConfig.cmake" -B "$out" >/dev/null
rm -rf "$out/_CPack_Packages"
deb=$(ls "$out"/gapscope_*.deb)
# No errors (and no warnings) from Debian's package checker.
if ! report=$(lintian --fail-on error,warning "$deb" 2>&1); then
  echo "$report" >&2
  echo "build-deb: lintian reports errors or warnings on $deb" >&2
  exit 1
fi
echo "$deb"
