#!/usr/bin/env bash
# End-to-end benchmark: the whole-process time of
#   gpuimg IN --blur 3 --invert OUT
# on a 3840x2160 noisy RGB image as PNG and as JPEG, split into process
# start and exit, decoding, waiting for CUDA, upload, each stage, download
# and encoding (from gpuimg -v), against other tools doing the same work.
#
# Usage: scripts/bench_e2e.sh [device|dev] [RUNS]
#   device: the GPU machine: gpuimg (the default --device auto, then
#           --device cuda and --device cpu), OpenCV-Python,
#           Pillow, and CUDA's start-up step by step.
#   dev:    a machine without a GPU: gpuimg's CPU backend, ImageMagick,
#           vips and an OpenCV C++ program (scripts/bench_setup.sh installs
#           them on Debian).
#   Without a mode: device when nvidia-smi lists a GPU, else dev.
#   RUNS: timed runs per tool, after one warm-up run (default 5); the table
#   gives the median. Inputs and outputs sit in a temporary folder, and the
#   warm-up run leaves the input in the file cache.
# Environment: GPUIMG (default build/gpuimg), GPUIMG_BEFORE (another gpuimg
# binary, say of an earlier commit, timed as one more row), PYTHON (with
# NumPy, for the input; default python3, else /usr/bin/python3),
# GPUIMG_COMMIT, GPUIMG_BEFORE_COMMIT (the commits to name, where the
# checkout is not the one built).
#
# Writes the Markdown section e2e-device or e2e-dev: to $OUT/ when OUT is set
# (a run on the device machine), else into docs/PERFORMANCE.md through
# scripts/perf_doc.py.
set -euo pipefail
cd "$(dirname "$0")/.."

mode=${1:-}
runs=${2:-5}
if [ -z "$mode" ]; then
  if nvidia-smi -L >/dev/null 2>&1; then mode=device; else mode=dev; fi
fi
case "$mode" in device | dev) ;; *) echo "usage: scripts/bench_e2e.sh [device|dev] [RUNS]" >&2; exit 2 ;; esac

gpuimg=$(realpath "${GPUIMG:-build/gpuimg}")
[ -x "$gpuimg" ] || { echo "bench_e2e.sh: no gpuimg at $gpuimg (build it, or set GPUIMG)" >&2; exit 1; }
python=${PYTHON:-}
if [ -z "$python" ]; then
  for p in python3 /usr/bin/python3; do
    if "$p" -c "import numpy" 2>/dev/null; then python=$p; break; fi
  done
fi
[ -n "$python" ] || { echo "bench_e2e.sh: no python3 with NumPy for the input (scripts/bench_setup.sh)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
results=$work/results.jsonl
radius=3
e2e() { python3 scripts/bench/e2e.py "$@"; }

"$python" scripts/bench/make_inputs.py "$work/noisy.png"
"$gpuimg" "$work/noisy.png" "$work/noisy.jpg"  # quality 95, 4:4:4, optimised Huffman tables

# One run of every tool on both inputs, appended to the results file $1.
# Every round runs every tool, so that all meet the same load from the rest
# of the machine; the first round only warms the file cache.
time_gpuimg() {  # RESULTS LABEL DEVICE BINARY
  local out=$1 label=$2 device=$3 binary=$4
  for ext in png jpg; do
    e2e time "$out" "$label" "$work/noisy.$ext" "$work/$label.$ext" -- \
      "$binary" "$work/noisy.$ext" --blur $radius --invert "$work/$label.$ext" -v --device "$device"
  done
}

if [ "$mode" = device ]; then
  cv_version=$(python3 -c "import cv2; print(cv2.__version__)")
  pil_version=$(python3 -c "import PIL; print(PIL.__version__)")
  start_bench=$(dirname "$gpuimg")/test/gpuimg_cuda_start_bench
  round() {
    time_gpuimg "$1" gpuimg auto "$gpuimg"
    time_gpuimg "$1" gpuimg-cuda cuda "$gpuimg"
    time_gpuimg "$1" gpuimg-cpu cpu "$gpuimg"
    if [ -n "${GPUIMG_BEFORE:-}" ]; then time_gpuimg "$1" gpuimg-before auto "$(realpath "$GPUIMG_BEFORE")"; fi
    for ext in png jpg; do
      e2e time "$1" opencv-python "$work/noisy.$ext" "$work/opencv-python.$ext" -- \
        python3 scripts/peers/opencv_blur_invert.py "$work/noisy.$ext" "$work/opencv-python.$ext" $radius
      e2e time "$1" pillow "$work/noisy.$ext" "$work/pillow.$ext" -- \
        python3 scripts/peers/pillow_blur_invert.py "$work/noisy.$ext" "$work/pillow.$ext" $radius
    done
  }
else
  [ -x /usr/bin/convert ] && /usr/bin/convert -version | grep -q ImageMagick ||
    { echo "bench_e2e.sh: no ImageMagick at /usr/bin/convert (scripts/bench_setup.sh)" >&2; exit 1; }
  command -v vips >/dev/null || { echo "bench_e2e.sh: no vips (scripts/bench_setup.sh)" >&2; exit 1; }
  g++ -O2 -o "$work/opencv_blur_invert" scripts/peers/opencv_blur_invert.cpp $(pkg-config --cflags --libs opencv4)
  # vips: a 1x7 box applied along rows then columns (convsep), integer
  # arithmetic, into vips's own format, then invert and save.
  printf '7 1 7 0\n1 1 1 1 1 1 1\n' >"$work/box7.mat"
  jpeg_im=(-quality 95 -sampling-factor 1x1 -define jpeg:optimize-coding=true)
  round() {
    time_gpuimg "$1" gpuimg cpu "$gpuimg"
    if [ -n "${GPUIMG_BEFORE:-}" ]; then time_gpuimg "$1" gpuimg-before cpu "$(realpath "$GPUIMG_BEFORE")"; fi
    for ext in png jpg; do
      local in=$work/noisy.$ext im=() vips_save=""
      if [ $ext = jpg ]; then im=("${jpeg_im[@]}"); vips_save="[Q=95,optimize_coding,subsample_mode=off]"; fi
      e2e time "$1" opencv-c++ "$in" "$work/opencv-c++.$ext" -- \
        "$work/opencv_blur_invert" "$in" "$work/opencv-c++.$ext" $radius
      e2e time "$1" vips "$in" "$work/vips.$ext" -- \
        vips convsep "$in" "$work/vips.v" "$work/box7.mat" --precision integer ::: \
        vips invert "$work/vips.v" "$work/vips.$ext$vips_save"
      e2e time "$1" imagemagick "$in" "$work/imagemagick.$ext" -- \
        /usr/bin/convert "$in" -define convolve:scale=\! -morphology Convolve Square:$radius -negate "${im[@]}" \
        "$work/imagemagick.$ext"
    done
  }
fi
round "$work/warm-up.jsonl"
for i in $(seq "$runs"); do
  round "$results"
  echo "bench_e2e.sh: round $i of $runs done"
done
e2e summary "$results"

fragment=$work/e2e-$mode.md
{
  echo "### End to end, $([ $mode = device ] && echo "the GPU machine" || echo "a machine without a GPU (CPU backend)")"
  echo
  echo "$(date -u +%Y-%m-%d), \`scripts/bench_e2e.sh $mode $runs\` at gpuimg ${GPUIMG_COMMIT:-$(git rev-parse --short HEAD)}."
  echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores;" \
    "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg). $(. /etc/os-release && echo "$PRETTY_NAME")."
  if [ $mode = device ]; then
    echo "GPU: $(nvidia-smi --query-gpu=name,driver_version,persistence_mode --format=csv,noheader | head -1)" \
      "(name, driver, persistence mode). OpenCV-Python $cv_version, Pillow $pil_version, $(python3 --version)."
  else
    echo "$(/usr/bin/convert -version | head -1 | cut -d' ' -f2-4), $(vips --version), OpenCV $(pkg-config --modversion opencv4) (C++)."
  fi
  echo
  echo "Input: 3840×2160 RGB, smooth gradients plus noise of ±12 per sample" \
    "(\`scripts/bench/make_inputs.py\`), as PNG ($(($(stat -c %s "$work/noisy.png") / 1000)) kB, zlib level 6, Sub filter," \
    "written by that script) and as JPEG ($(($(stat -c %s "$work/noisy.jpg") / 1000)) kB, written by gpuimg: quality 95," \
    "4:4:4, optimised Huffman tables). The work: a $((2 * radius + 1))×$((2 * radius + 1)) box mean with the edges" \
    "replicated, then 255 − v, then the same format out. Whole process: from fork to exit, as the shell sees it;" \
    "$runs rounds after a warm-up round, each running every tool once in turn (so that all meet the same load" \
    "from the rest of the machine); the median. gpuimg's split comes from \`-v\`: *start+exit* is the wall time less what" \
    "gpuimg measures inside (loading, parsing, freeing, CUDA's teardown); *wait for device* is how much longer CUDA's" \
    "start-up, begun beside decoding, took than the decode; *other* is the rest of gpuimg's own time (allocations," \
    "the file write). Peers' splits are their own timers around each call; *start+exit* is the rest" \
    "(interpreter start, process exit). The last column compares each output's pixels with gpuimg's" \
    "(\`gpuimg compare\`; for JPEG it compares the decoded files, encoder differences included)."
  if [ -n "${GPUIMG_BEFORE:-}" ]; then
    echo "*gpuimg-before* is gpuimg at ${GPUIMG_BEFORE_COMMIT:-an earlier build}, run the same way."
  fi
  echo
  e2e report "$results" gpuimg "$gpuimg"
  echo
  if [ $mode = device ]; then
    echo "How the peers run: OpenCV-Python (\`scripts/peers/opencv_blur_invert.py\`): \`cv2.imread\`, \`cv2.blur\`" \
      "with \`BORDER_REPLICATE\`, \`cv2.bitwise_not\`, \`cv2.imwrite\`, on every core; PNG at OpenCV's defaults (zlib" \
      "level 1, Sub filter, run-length strategy), JPEG at gpuimg's settings. Pillow" \
      "(\`scripts/peers/pillow_blur_invert.py\`): \`ImageFilter.BoxBlur(3)\` (edges extended; a horizontal then a" \
      "vertical pass, each rounded to 8 bits), \`ImageOps.invert\`, \`save\`: PNG at Pillow's defaults (zlib level 6)," \
      "JPEG at gpuimg's settings; one core. Both in \`python3\`, interpreter start and import included."
    if [ -x "$start_bench" ]; then
      echo
      echo "CUDA's start-up on this machine (\`gpuimg_cuda_start_bench\`, five processes; ms since \`main()\`):"
      echo
      for i in 1 2 3 4 5; do echo "- $("$start_bench")"; done
      for i in $(seq "$runs"); do
        e2e time "$work/start.jsonl" full - - -- "$start_bench"
        e2e time "$work/start.jsonl" exit-after-200 - - -- "$start_bench" exit-after 200
      done
      e2e summary "$work/start.jsonl" | awk -v runs="$runs" '{ ms[$1] = $3 }
        END { printf "- whole process, median of %d: start CUDA and use it, %.0f ms; start CUDA in a thread and" \
              " leave with _exit() after 200 ms, %.0f ms.\n", runs, ms["full"], ms["exit-after-200"] }'
    fi
  else
    echo "How the peers run: OpenCV C++ (\`scripts/peers/opencv_blur_invert.cpp\`, \`g++ -O2\`): \`cv::imread\`," \
      "\`cv::blur\` with \`BORDER_REPLICATE\`, \`cv::bitwise_not\`, \`cv::imwrite\`, on every core; PNG at OpenCV's" \
      "defaults (zlib level 1, Sub filter, run-length strategy); JPEG quality 95 with optimised Huffman tables, but" \
      "4:2:0, since OpenCV 4.6 cannot ask for 4:4:4. vips: \`convsep\` with a 1×7 mask of ones and scale 7" \
      "(\`--precision integer\`, a separable box: rows, then columns, rounded between) into a \`.v\` file, then" \
      "\`vips invert\` and save (PNG at vips's defaults; JPEG Q=95, optimised, no subsampling); its time is both" \
      "processes'. ImageMagick (\`/usr/bin/convert\`): \`-morphology Convolve Square:3\` with" \
      "\`-define convolve:scale=!\` (the 7×7 kernel of ones, normalised; the default virtual pixels replicate the" \
      "edge), \`-negate\`; PNG at its defaults, JPEG \`-quality 95 -sampling-factor 1x1\`, optimised. vips and" \
      "ImageMagick use every core."
  fi
} >"$fragment"

if [ -n "${OUT:-}" ]; then
  cp "$fragment" "$OUT/"
  echo "bench_e2e.sh: wrote $OUT/$(basename "$fragment")"
else
  python3 scripts/perf_doc.py "e2e-$mode" "$fragment"
  echo "bench_e2e.sh: updated docs/PERFORMANCE.md (e2e-$mode)"
fi
cat "$fragment"
