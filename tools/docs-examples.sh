#!/usr/bin/env bash
# Writes docs/examples/report.{html,md,md.png,pdf}: File > Export Report on
# the generated trace tst_report uses (needs ../shared and a dev build).
set -euo pipefail
cd "$(dirname "$0")/.."
GAPSCOPE_EXAMPLES_DIR="$PWD/docs/examples" QT_QPA_PLATFORM=offscreen \
  build/dev/tests/widgets/tst_report otherNamesAreRefused  # written on cleanup
