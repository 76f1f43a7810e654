#!/usr/bin/env bash
# The README's test command: installs what is missing, builds, runs the whole
# suite. GPU tests skip on a machine without a usable GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
scripts/build.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
