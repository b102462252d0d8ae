#!/usr/bin/env bash
# Builds Gapscope (Debug, warnings as errors) and runs every test suite.
# On a fresh Debian 12 machine this is all the set-up needed.
set -euo pipefail
cd "$(dirname "$0")/.."
bash packaging/install-deps.sh
cmake --preset dev >/dev/null
cmake --build --preset dev -j "$(nproc)"
ctest --preset dev -j "$(nproc)"
