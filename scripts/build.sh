#!/usr/bin/env bash
# Configures and builds into build/ (Release), with the CUDA backend when
# nvcc is found on PATH or at /usr/local/cuda. Extra arguments go to cmake.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ] && [ -z "${CUDACXX:-}" ]; then
  export CUDACXX=/usr/local/cuda/bin/nvcc
fi
cmake -S . -B build "$@" >/dev/null
cmake --build build -j "$(nproc)"
