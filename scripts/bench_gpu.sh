#!/usr/bin/env bash
# The GPU kernel benchmark, in one call on a GPU machine: each op's kernels
# against a device copy of the same bytes (the bandwidth limit), NPP (where
# the CUDA toolkit has it) and CuPy doing the same work, with each peer's
# output compared with gpuimg's. Prints one table; writes it, with the
# machine, date and command, as docs/PERFORMANCE.md's gpu-kernels section:
# to $OUT/perf-gpu-kernels.md when OUT is set (then run
# `scripts/perf_doc.py gpu-kernels perf-gpu-kernels.md` in the checkout),
# else into the document directly.
#
# Builds gpuimg and gpuimg_bench in build-gpu, configured as on the device
# machine (no OpenCV; stb's headers under GPUIMG_STB_INCLUDE_DIR, default
# .carry) when build-gpu is not configured yet.
# Usage: scripts/bench_gpu.sh [most runs per row, default 30]
set -euo pipefail
cd "$(dirname "$0")/.."
command_line="scripts/bench_gpu.sh $*"
most=${1:-30}
build=build-gpu
started=$SECONDS
# scripts/device_deps.sh's static libwebp and libexif, where the machine has none.
[ -d .carry/lib/pkgconfig ] && export PKG_CONFIG_PATH=$PWD/.carry/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! {
  if [ ! -f "$build/CMakeCache.txt" ]; then
    generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    cmake -S . -B "$build" "${generator[@]}" -DGPUIMG_WITH_OPENCV=OFF \
      -DGPUIMG_STB_INCLUDE_DIR="${GPUIMG_STB_INCLUDE_DIR:-$PWD/.carry}"
  fi
  cmake --build "$build" -j "$(nproc)" --target gpuimg gpuimg_bench
} >"$tmp/build.log" 2>&1; then
  tail -30 "$tmp/build.log" >&2
  echo "bench_gpu.sh: the build failed" >&2
  exit 1
fi
machine=$(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 | sed 's/, \(.*\)/, driver \1/')

built=$SECONDS
"$build/test/gpuimg_bench" "$most" >"$tmp/bench.tsv"
benched=$SECONDS
# A CuPy failure leaves the table without (some of) its CuPy rows, not without a table.
if ! python3 scripts/bench/cupy_peers.py "$tmp/bench.tsv" "$build/gpuimg" "$most" >"$tmp/cupy.tsv"; then
  echo "bench_gpu.sh: the CuPy peers failed; the table lacks their rows" >&2
fi
peered=$SECONDS

fragment=${OUT:+$OUT/perf-gpu-kernels.md}
python3 scripts/bench/gpu_table.py "$tmp/bench.tsv" "$tmp/cupy.tsv" "$machine" "$command_line" \
  "${fragment:-$tmp/perf-gpu-kernels.md}"
if [ -z "$fragment" ]; then
  scripts/perf_doc.py gpu-kernels "$tmp/perf-gpu-kernels.md"
fi
echo "bench_gpu.sh: build $((built - started)) s, gpuimg_bench $((benched - built)) s," \
  "CuPy $((peered - benched)) s on $machine" >&2
