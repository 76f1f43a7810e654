#!/usr/bin/env bash
# The CPU backend's blur against cv::blur (BORDER_REPLICATE) on 3840x2160
# rgb8 and gray16 at radii 1 to 256, both on every core
# (test/bench/cpu_bench.cpp, built with OpenCV). Target: gpuimg within
# 1.25x of OpenCV at every radius.
# Usage: scripts/bench_cpu_blur.sh [RUNS]   (default 11; the median is shown)
# Writes the section cpu-blur into docs/PERFORMANCE.md (scripts/perf_doc.py),
# or to $OUT/ when OUT is set.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-11}
bench=${GPUIMG_CPU_BENCH:-build/test/gpuimg_cpu_bench}
[ -x "$bench" ] || { echo "bench_cpu_blur.sh: no $bench (build gpuimg_cpu_bench, with OpenCV)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fragment=$work/cpu-blur.md
{
  echo "### CPU blur against cv::blur"
  echo
  echo "$(date -u +%Y-%m-%d), \`scripts/bench_cpu_blur.sh $runs\` at gpuimg ${GPUIMG_COMMIT:-$(git rev-parse --short HEAD)}." \
    "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; load average before the run:" \
    "$(cut -d' ' -f1-3 /proc/loadavg). $(. /etc/os-release && echo "$PRETTY_NAME")."
  echo
  echo "\`gpuimg_cpu_bench $runs\`: a seeded random 3840×2160 image; gpuimg's time is \`run_cpu\` with one blur" \
    "stage, as the CLI calls it (its scratch buffer allocated and first touched in every run), OpenCV's is" \
    "\`cv::blur(src, dst, Size(2R+1, 2R+1), Point(-1, -1), BORDER_REPLICATE)\` into a fresh \`Mat\`; both on every" \
    "core (OpenCV at its default thread count), run alternately, median of $runs runs of each after one warm-up. *equal*: whether the" \
    "outputs match byte for byte (OpenCV rounds its mean in floating point, and its 16-bit sums overflow 32 bits" \
    "at large radii, so equality is reported, not required)."
  echo
  echo '```'
  "$bench" "$runs"
  echo '```'
} >"$fragment"
if [ -n "${OUT:-}" ]; then cp "$fragment" "$OUT/"; else python3 scripts/perf_doc.py cpu-blur "$fragment"; fi
cat "$fragment"
