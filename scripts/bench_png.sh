#!/usr/bin/env bash
# The PNG writer's encode time and file size under several filter and zlib
# settings (gpuimg_png_bench), on the end-to-end benchmark's noisy 3840x2160
# image and on a smooth one (scripts/bench/make_inputs.py), on every core.
#
# Usage: scripts/bench_png.sh [device|dev] [RUNS]   (mode: the section's name;
#   default device when nvidia-smi lists a GPU, else dev; RUNS default 3)
# Environment: GPUIMG_PNG_BENCH (default build/test/gpuimg_png_bench),
# PYTHON (with NumPy), GPUIMG_COMMIT (the commit to name, where the checkout
# is not the one measured).
# Writes the section png-encode-MODE: to $OUT/ when OUT is set, else into
# docs/PERFORMANCE.md through scripts/perf_doc.py.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-}
runs=${2:-3}
if [ -z "$mode" ]; then
  if nvidia-smi -L >/dev/null 2>&1; then mode=device; else mode=dev; fi
fi
bench=${GPUIMG_PNG_BENCH:-build/test/gpuimg_png_bench}
[ -x "$bench" ] || { echo "bench_png.sh: no $bench (build the gpuimg_png_bench target)" >&2; exit 1; }
python=${PYTHON:-}
if [ -z "$python" ]; then
  for p in python3 /usr/bin/python3; do
    if "$p" -c "import numpy" 2>/dev/null; then python=$p; break; fi
  done
fi
[ -n "$python" ] || { echo "bench_png.sh: no python3 with NumPy (scripts/bench_setup.sh)" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" scripts/bench/make_inputs.py "$work/noisy.png"
"$python" scripts/bench/make_inputs.py "$work/smooth.png" --smooth
fragment=$work/png-encode-$mode.md
{
  echo "### PNG encoder settings, $([ $mode = device ] && echo "the GPU machine" || echo "a machine without a GPU")"
  echo
  echo "$(date -u +%Y-%m-%d), \`scripts/bench_png.sh $mode $runs\` at gpuimg ${GPUIMG_COMMIT:-$(git rev-parse --short HEAD)}." \
    "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; load average before the run:" \
    "$(cut -d' ' -f1-3 /proc/loadavg). zlib $("$python" -c 'import zlib; print(zlib.ZLIB_RUNTIME_VERSION)')."
  echo
  echo "gpuimg's PNG writer (\`lib/io/png_encoder.cpp\`) on two 3840×2160 RGB images from" \
    "\`scripts/bench/make_inputs.py\`: *noisy* (the end-to-end input: gradients plus noise of ±12) and *smooth*" \
    "(the same gradients, noise of ±2). Each setting: the median of $runs encodes in memory, on every core" \
    "(segments of 512 KiB deflated in parallel), and the file's size. *adaptive* chooses each row's filter by" \
    "libpng's heuristic; *run-length* is zlib's Z_RLE, for which the level makes no difference."
  echo
  "$bench" "$runs" "$work/noisy.png" "$work/smooth.png"
} >"$fragment"
if [ -n "${OUT:-}" ]; then
  cp "$fragment" "$OUT/"
else
  python3 scripts/perf_doc.py "png-encode-$mode" "$fragment"
fi
cat "$fragment"
