#!/usr/bin/env bash
# --map on the CPU against ImageMagick's -fx, the same expression on the
# same image (a 960x540 photo-like JPEG drawn by gpuimg_bench_images, to
# PNG), end to end from the shell: whole processes, median of RUNS (default
# 3) after one warm-up. Issue 18's target: gpuimg at least 10x faster. The
# tools round differently (ImageMagick keeps 16-bit quanta), so their bytes
# may differ by one.
#
# Usage: scripts/bench_map_cpu.sh [RUNS] [BUILD]   (BUILD: default build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-3}
build=${2:-build}
source scripts/bench/e2e_rows.sh
[ -x /usr/bin/convert ] || { echo "bench_map_cpu: ImageMagick's /usr/bin/convert missing" >&2; exit 2; }
photo_input "bench_map_cpu" 960 540
out=$tmp/out.png

# job TITLE GPUIMG-EXPR FX-EXPR: one table.
job() {
  row "gpuimg --map, CPU" "gpuimg IN.jpg --map '$2' OUT.png --device cpu" "$gpuimg" "$in" --map "$2" "$out" --device cpu
  row "ImageMagick $(imagemagick_version) -fx" "convert IN.jpg -fx '$3' OUT.png" /usr/bin/convert "$in" -fx "$3" "$out"
  echo "#### $1"
  echo
  print_rows "gpuimg CPU"
  echo
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
echo "### --map against -fx, 960x540 JPEG to PNG, end to end"
echo
echo "\`scripts/bench_map_cpu.sh $runs\`, $(date -u +%Y-%m-%d), $cpu, $(nproc) threads; median of $runs runs."
echo
job "Vignette: ten operations of x, y and v" "v*(1-0.8*((x/w-0.5)*(x/w-0.5)+(y/h-0.5)*(y/h-0.5)))" \
  "u*(1-0.8*((i/w-0.5)*(i/w-0.5)+(j/h-0.5)*(j/h-0.5)))"
job "Sine pattern" "v*(0.75+0.25*sin(x/w*9)*cos(y/h*7))" "u*(0.75+0.25*sin(i/w*9)*cos(j/h*7))"
job "Curve of v alone (a lookup table)" "v<0.5 ? 2*v*v : 1-2*(1-v)*(1-v)" "u<0.5 ? 2*u*u : 1-2*(1-u)*(1-u)"
