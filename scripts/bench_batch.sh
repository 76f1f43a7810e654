#!/usr/bin/env bash
# Batch throughput in images per second: --blur 3 --invert over one folder
# of 500 JPEGs of 1920x1080 and 200 PNGs of 3840x2160, by
#   - gpuimg's batch form, one process for the whole folder;
#   - a shell loop calling gpuimg once per file;
#   - the peers: ImageMagick's mogrify and libvips (vips run by xargs -P,
#     one process per core) on a machine without a GPU, OpenCV-Python with a
#     process pool on a GPU machine;
#   - and the codec limit: the same batch with no operation on the CPU
#     backend, so decoding and encoding alone, on all cores, with gpuimg's
#     codecs and settings: what no batch that decodes and encodes every
#     file on this CPU can beat.
# Prints a Markdown section (machine, date, load, every command, the table)
# and puts it into docs/PERFORMANCE.md as batch-dev through perf_doc.py; on
# a GPU machine, or wherever $OUT is set, it writes $OUT/SECTION.md instead,
# to be merged with perf_doc.py where the repository is. A benchmark, not a
# test: a slow result fails nothing.
#
# Usage: scripts/bench_batch.sh [--quick] [--loop-every K] [--build DIR] [--section NAME]
#   --quick         50 JPEGs and 20 PNGs, for trying it out; leaves the document alone
#   --loop-every K  time the per-file loop on every Kth file only (default 1; 10 on
#                   a GPU machine, where each process starting CUDA makes the full
#                   loop take minutes); the loop runs one file after another, so its
#                   rate over an evenly spread tenth is its rate over all
#   --build DIR     where gpuimg and gpuimg_bench_images were built (default build)
#   --section NAME  the document's section (default batch-dev, or batch-device with a GPU)
# The images are drawn by gpuimg_bench_images (test/bench/bench_images.cpp),
# the same on every machine, and kept in $GPUIMG_BENCH_DATA (default
# ~/.cache/gpuimg-bench) for the next run. ImageMagick and libvips-tools are
# for this script only: install them by hand (apt-get install imagemagick
# libvips-tools); rows for peers that are missing are left out.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

quick=0 loop_every="" build=build section=""
while [ $# -gt 0 ]; do
  case $1 in
    --quick) quick=1 ;;
    --loop-every) loop_every=$2; shift ;;
    --build) build=$2; shift ;;
    --section) section=$2; shift ;;
    *) sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2 ;;
  esac
  shift
done
build=$(cd "$build" && pwd)
gpuimg=$build/gpuimg
maker=$build/test/gpuimg_bench_images
for tool in "$gpuimg" "$maker"; do
  [ -x "$tool" ] || { echo "bench_batch: $tool missing: cmake --build $build --target gpuimg gpuimg_bench_images" >&2; exit 2; }
done

gpus=0
command -v nvidia-smi >/dev/null && gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
section=${section:-$([ "$gpus" -gt 0 ] && echo batch-device || echo batch-dev)}
loop_every=${loop_every:-$([ "$gpus" -gt 0 ] && echo 10 || echo 1)}
cores=$(nproc)

# ---- the images, drawn once --------------------------------------------------
if [ $quick = 1 ]; then n_jpg=50 n_png=20 scale=quick; else n_jpg=500 n_png=200 scale=full; fi
cache=${GPUIMG_BENCH_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/gpuimg-bench}/$scale
in=$cache/in
stamp="$(sha256sum test/bench/bench_images.cpp | cut -c1-16): $n_jpg JPEG 1920x1080 q90, $n_png PNG 3840x2160"
if [ "$(cat "$cache/stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$cache"
  mkdir -p "$in"
  echo "bench_batch: drawing $n_jpg JPEGs and $n_png PNGs into $in (once)" >&2
  "$maker" "$in" j_ $n_jpg 1920 1080 jpg 90
  "$maker" "$in" p_ $n_png 3840 2160 png
  echo "$stamp" >"$cache/stamp"
fi
total=$((n_jpg + n_png))
mapfile -t names < <(cd "$in" && ls | sort)
loop_names=()
for ((i = 0; i < ${#names[@]}; i += loop_every)); do loop_names+=("${names[i]}"); done
work=$cache/work  # each contender's outputs, removed before the next
logs=$cache/logs
scratch=$( [ -d /dev/shm ] && echo /dev/shm || echo "$cache" )/gpuimg-bench-$$
mkdir -p "$logs"
trap 'rm -rf "$work" "$scratch"' EXIT
cat "$in"/* >/dev/null  # every contender reads from the page cache

# ---- the contenders ----------------------------------------------------------
ops=(--blur 3 --invert)
gpuimg_batch() { "$gpuimg" "$in/" "${ops[@]}" "$work/out/" "$@"; }
codec_only() { "$gpuimg" "$in/" "$work/out/" --device cpu; }
per_file_loop() {
  for f in "${loop_names[@]}"; do "$gpuimg" "$in/$f" "${ops[@]}" "$work/out/$f"; done
}
# The 7x7 mean as two 7-tap passes (separable: 14 reads per pixel instead
# of 49; -statistic Mean 7x7 took 10x longer), edges replicated (IM's
# default virtual pixels); JPEG and PNG settings as gpuimg's.
im_blur=(-define convolve:scale=! -morphology Convolve '7x1:1,1,1,1,1,1,1' -morphology Convolve '1x7:1,1,1,1,1,1,1' -negate)
mogrify_peer() {
  mogrify -path "$work/out" "${im_blur[@]}" -quality 95 -sampling-factor 1x1 -define jpeg:optimize-coding=true \
    "$in"/*.jpg
  mogrify -path "$work/out" "${im_blur[@]}" -define png:compression-strategy=3 -define png:compression-filter=5 \
    "$in"/*.png
}
# vips's separable convolution with a 7-tap integer mask of ones (scale 7
# per pass), then invert; one single-threaded vips per core, as xargs -P
# starts them. vips has no run-length zlib strategy: level 1 is its fastest.
vips_peer() {
  mkdir -p "$scratch"
  printf '7 1 7 0\n1 1 1 1 1 1 1\n' >"$scratch/row.mat"
  printf '%s\n' "${names[@]}" | IN=$in OUTDIR=$work/out TMPD=$scratch VIPS_CONCURRENCY=1 xargs -P "$cores" -n 1 sh -c '
    case $1 in *.png) save="[compression=1,filter=all]" ;; *) save="[Q=95,optimize_coding,subsample_mode=off]" ;; esac
    vips convsep "$IN/$1" "$TMPD/$1.v" "$TMPD/row.mat" --precision integer &&
      vips invert "$TMPD/$1.v" "$OUTDIR/$1$save" && rm -f "$TMPD/$1.v"' sh
}
opencv_peer() { python3 scripts/bench_batch_opencv.py "$in" "$work/out" "$@"; }

results=()  # name|how|files|seconds|rate
rate_of() {
  local r n rate
  for r in "${results[@]}"; do
    IFS='|' read -r n _ _ _ rate <<<"$r"
    if [ "$n" = "$1" ]; then echo "$rate"; fi
  done
}

# time_it NAME HOW FILES FUNCTION [ARGS]: runs it with empty outputs, checks
# that it wrote FILES files, records its rate.
time_it() {
  local name=$1 how=$2 files=$3
  shift 3
  rm -rf "$work"
  mkdir -p "$work/out"
  sync
  echo "bench_batch: $name ..." >&2
  local t0 t1
  t0=$(date +%s.%N)
  if ! "$@" >"$logs/$name.log" 2>&1; then
    tail -5 "$logs/$name.log" >&2
    echo "bench_batch: $name failed (log: $logs/$name.log)" >&2
    exit 1
  fi
  t1=$(date +%s.%N)
  local written
  written=$(find "$work/out" -type f | wc -l)
  if [ "$written" -ne "$files" ]; then
    echo "bench_batch: $name wrote $written files, not $files (log: $logs/$name.log)" >&2
    exit 1
  fi
  local seconds rate
  seconds=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
  rate=$(awk -v n="$files" -v s="$seconds" 'BEGIN { printf "%.2f", n / s }')
  results+=("$name|$how|$files|$seconds|$rate")
}

load_before=$(cut -d' ' -f1-3 /proc/loadavg)
started=$(date -u '+%Y-%m-%d %H:%M UTC')
time_it "codec limit" "\`gpuimg IN/ OUT/ --device cpu\`: no operation, decode + encode on $cores threads" \
  "$total" codec_only
if [ "$gpus" -gt 0 ]; then
  time_it "gpuimg batch" "\`gpuimg IN/ --blur 3 --invert OUT/\` (CUDA, 1 GPU)" "$total" gpuimg_batch
  [ "$gpus" -gt 1 ] && time_it "gpuimg batch, $gpus GPUs" "the same with \`--devices all\`" "$total" gpuimg_batch --devices all
  time_it "gpuimg batch, CPU" "the same with \`--device cpu\`" "$total" gpuimg_batch --device cpu
else
  time_it "gpuimg batch" "\`gpuimg IN/ --blur 3 --invert OUT/\` (CPU backend)" "$total" gpuimg_batch
fi
time_it "per-file loop" "\`for f in IN/*; do gpuimg \$f --blur 3 --invert OUT/\$f; done\`$([ "$loop_every" -gt 1 ] && echo ", every ${loop_every}th file")" \
  "${#loop_names[@]}" per_file_loop
peers=()
if [ "$gpus" -gt 0 ]; then
  if python3 -c 'import cv2' 2>/dev/null; then
    time_it "OpenCV-Python pool" "scripts/bench_batch_opencv.py: cv2.blur 7x7 BORDER_REPLICATE, bitwise_not, Pool($cores)" \
      "$total" opencv_peer
    peers+=("OpenCV-Python pool")
    # Not a like-for-like peer (other PNG settings), so not in the targets:
    # what gpuimg would gain from the same choice.
    time_it "OpenCV-Python pool, SUB filter" "the same with OpenCV's own PNG default: SUB filter on every row" \
      "$total" opencv_peer --png-sub-filter
  fi
else
  if mogrify -version 2>/dev/null | grep -q ImageMagick; then
    time_it "ImageMagick mogrify" "\`mogrify -path OUT -morphology Convolve 7x1 + 1x7 (scale !) -negate\`, JPEGs then PNGs, OpenMP" \
      "$total" mogrify_peer
    peers+=("ImageMagick mogrify")
  fi
  if command -v vips >/dev/null; then
    time_it "vips, xargs -P $cores" "\`vips convsep\` 7-tap ones + \`vips invert\` per file, VIPS_CONCURRENCY=1" "$total" vips_peer
    peers+=("vips, xargs -P $cores")
  fi
fi
load_after=$(cut -d' ' -f1-3 /proc/loadavg)

# ---- the section ---------------------------------------------------------------
codec=$(rate_of "codec limit")
loop=$(rate_of "per-file loop")
batch=$(rate_of "gpuimg batch")
cpu_model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
memory=$(free -g | awk '/^Mem:/ { print $2 " GiB" }')
os=$(. /etc/os-release && echo "$PRETTY_NAME")
gpu_text=""
[ "$gpus" -gt 0 ] && gpu_text=", $gpus × $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"
versions="$("$gpuimg" --version)"
[ "$gpus" -gt 0 ] && versions+="; OpenCV $(python3 -c 'import cv2; print(cv2.__version__)' 2>/dev/null || echo none)"
[ "$gpus" -eq 0 ] && versions+="; $(mogrify -version 2>/dev/null | head -1 | sed 's/^Version: //; s/ https.*//'); $(vips --version 2>/dev/null)"
title=$([ "$gpus" -gt 0 ] && echo "GPU machine" || echo "development machine, no GPU")
fragment=${OUT:-$cache}/$section.md
{
  echo "## Batch throughput: $title"
  echo
  echo "\`scripts/bench_batch.sh$([ $quick = 1 ] && echo " --quick")\`, $started, on $cpu_model ($cores threads, $memory)$gpu_text, $os;"
  echo "load average $load_before before, $load_after after. $versions."
  echo
  echo "IN: $n_jpg JPEGs of 1920×1080 (quality 90) and $n_png PNGs of 3840×2160, photo-like, drawn by"
  echo "\`gpuimg_bench_images\`; every contender reads them from the page cache and writes the same"
  echo "names into an empty OUT. Operation: \`--blur 3 --invert\` (the 7×7 mean, edges replicated,"
  echo "then 255 − v; the peers' roundings differ from gpuimg's by at most 1). JPEGs written at quality"
  echo "95 with 4:4:4 chroma and optimised Huffman tables, PNGs with libpng's adaptive choice of row filter"
  echo "and zlib's run-length strategy (vips: all filters, zlib level 1), except where a row says otherwise."
  echo
  echo "| contender | how | files | s | images/s | × loop | × codec limit |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  for r in "${results[@]}"; do
    IFS='|' read -r name how files seconds rate <<<"$r"
    awk -v n="$name" -v h="$how" -v f="$files" -v s="$seconds" -v r="$rate" -v l="$loop" -v c="$codec" \
      'BEGIN { printf "| %s | %s | %d | %.1f | %.1f | %.2f | %.2f |\n", n, h, f, s, r, r / l, r / c }'
  done
  echo
  ahead=yes
  for p in "${peers[@]}"; do awk -v a="$batch" -v b="$(rate_of "$p")" 'BEGIN { exit !(a > b) }' || ahead=no; done
  echo -n "Targets (the like-for-like rows): "
  awk -v b="$batch" -v l="$loop" -v c="$codec" -v ahead="$ahead" 'BEGIN {
    printf "≥ 3× the per-file loop: %.1f× (%s); ahead of every peer: %s; within 20%% of the codec limit: %.0f%% of it (%s).\n",
      b / l, (b / l >= 3) ? "met" : "NOT met", (ahead == "yes") ? "met" : "NOT met", 100 * b / c,
      (b / c >= 0.8) ? "met" : "NOT met" }'
} >"$fragment"
cat "$fragment"
if [ -z "${OUT:-}" ] && [ $quick = 0 ]; then
  python3 scripts/perf_doc.py "$section" "$fragment"
  echo "bench_batch: docs/PERFORMANCE.md section $section updated" >&2
fi
