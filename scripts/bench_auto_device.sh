#!/usr/bin/env bash
# Does --device auto pick the faster device for one image? The whole-process
# time of `gpuimg IN (--blur 3)xK OUT` with --device cpu, cuda and auto on
# the end-to-end benchmark's 3840x2160 PNG, for K from 1 to 128, with
# auto's estimate and choice (scripts/bench/auto_device.py). Run on the GPU
# machine: it shows where the CPU's time crosses CUDA's start-up and exit,
# against the threshold lib/device_choice.hpp sets.
# Usage: scripts/bench_auto_device.sh [RUNS]   (default 3; the median is shown)
# Environment: GPUIMG (default build/gpuimg), PYTHON (with NumPy, for the input).
# Writes the section auto-device to $OUT/ when OUT is set, else into
# docs/PERFORMANCE.md through scripts/perf_doc.py.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
gpuimg=$(realpath "${GPUIMG:-build/gpuimg}")
[ -x "$gpuimg" ] || { echo "bench_auto_device.sh: no gpuimg at $gpuimg (build it, or set GPUIMG)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"${PYTHON:-python3}" scripts/bench/make_inputs.py "$work/noisy.png"
fragment=$work/auto-device.md
{
  echo "### --device auto against both devices, one image"
  echo
  echo "$(date -u +%Y-%m-%d), \`scripts/bench_auto_device.sh $runs\` at gpuimg ${GPUIMG_COMMIT:-$(git rev-parse --short HEAD)}." \
    "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; load average before the run:" \
    "$(cut -d' ' -f1-3 /proc/loadavg)." \
    "GPU: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo none)."
  echo
  echo "Input: the end-to-end benchmark's 3840×2160 noisy RGB PNG (\`scripts/bench/make_inputs.py\`); output PNG." \
    "Each cell: the median wall time, fork to exit, of $runs rounds after a warm-up round, every device once a round." \
    "*auto's estimate*: the CPU time \`-v\` reports for the pipeline (lib/device_choice.hpp), which auto compares" \
    "with CUDA's start-up and exit, 250 ms."
  echo
  python3 scripts/bench/auto_device.py "$gpuimg" "$work/noisy.png" "$runs" 1 2 4 8 16 32 64 128
} >"$fragment"
if [ -n "${OUT:-}" ]; then cp "$fragment" "$OUT/"; else python3 scripts/perf_doc.py auto-device "$fragment"; fi
cat "$fragment"
