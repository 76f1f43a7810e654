#!/usr/bin/env bash
# End to end from the shell, issue 22's tone and filter jobs on one
# 24-megapixel JPEG (6000x4000, quality 90, drawn by gpuimg_bench_images)
# to a JPEG of quality 90: gpuimg's CPU backend beside ImageMagick and
# libvips doing the same job as their users would write it (the median
# by vips's rank, the middle of 9), where
# installed. Whole processes, median of RUNS (default 5) after one warm-up;
# the input in the page cache. Prints a markdown table per job with the
# commands and the machine. Rows only, no target: the tools' definitions
# differ (vips has no levels, so its row is the same stretch by `linear`;
# ImageMagick's Gaussian is its own kernel), and so do their bytes.
#
# Usage: scripts/bench_catalogue_cpu.sh [RUNS] [BUILD]   (BUILD: default build)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
build=${2:-build}
source scripts/bench/e2e_rows.sh
photo_input "bench_catalogue_cpu"
out=$tmp/out.jpg

# job TITLE GPUIMG-OPS IMAGEMAGICK-OPS VIPS-OPERATION VIPS-ARGS: one table
# (no vips row where VIPS-OPERATION is empty: one vips command cannot chain).
job() {
  local title=$1 ops=$2 im_ops=$3 vips_op=$4 vips_args=$5
  # shellcheck disable=SC2086  # the ops are words
  row "gpuimg, CPU" "gpuimg IN.jpg $ops OUT.jpg --quality 90 --device cpu" \
    "$gpuimg" "$in" $ops "$out" --quality 90 --device cpu
  if [ -x /usr/bin/convert ]; then
    # shellcheck disable=SC2086
    row "ImageMagick $(imagemagick_version)" "convert IN.jpg $im_ops -quality 90 OUT.jpg" \
      /usr/bin/convert "$in" $im_ops -quality 90 "$out"
  fi
  if [ -n "$vips_op" ] && command -v vips >/dev/null; then
    # shellcheck disable=SC2086
    row "libvips $(vips_version)" "vips $vips_op IN.jpg OUT.jpg[Q=90] $vips_args" \
      vips "$vips_op" "$in" "$out[Q=90]" $vips_args
  fi
  echo "#### $title"
  echo
  print_rows "gpuimg CPU"
  echo
}

cpu=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
echo "### Tone and filter jobs, 6000x4000 JPEG to JPEG, end to end"
echo
echo "\`scripts/bench_catalogue_cpu.sh $runs\`, $(date -u +%Y-%m-%d), $cpu, $(nproc) threads; median of $runs runs."
echo
# levels 5%,95%: v' = (v - 12.75) / 0.9, which vips's linear writes as a, b.
# (after "--": a negative b would be read as an option)
job "Levels 5%-95%" "--levels 5%,95%" "-level 5%,95%" linear "--uchar 1.1111111 -- -14.166667"
job "Gaussian, sigma 3" "--gaussian 3" "-gaussian-blur 0x3" gaussblur "3"
job "Median 3x3" "--median 1" "-statistic Median 3x3" rank "3 3 4"
job "Five point operations" "--levels 5%,95% --gamma 1.8 --linear 1.2,-0.1 --invert --threshold 30%" \
  "-level 5%,95% -gamma 1.8 -function Polynomial 1.2,-0.1 -negate -threshold 30%" "" ""
