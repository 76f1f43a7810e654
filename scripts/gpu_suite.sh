#!/usr/bin/env bash
# Everything that needs a GPU, in one call on the GPU machine: build, the
# whole test suite (GPU tests must run there, not skip), compute-sanitizer
# memcheck, racecheck and synccheck over the GPU tests, the kernel
# benchmark against NPP and CuPy (scripts/bench_gpu.sh, which writes
# $OUT/perf-gpu-kernels.md) and compare's (scripts/bench_compare.sh:
# $OUT/compare-device.md). Prints a short summary last. Logs go to
# build-gpu/logs; when $OUT is set (the device tool, which brings back at
# most 8 files), the summary, the benchmark table and fragments, and one
# archive of the logs are copied there.
#
# The device build has no OpenCV (its stb I/O layer stands in) and needs
# stb's headers, libwebp and libexif, which that machine lacks: run
# scripts/device_deps.sh here first, and carry .carry.
#
# The device tool stops a command at ten minutes and returns nothing of it
# then: each step runs under what is left of GPU_SUITE_SECONDS (default
# 575). On a fresh H100 machine the build took 105 to 125 s and the
# benchmarks about 140 s; the tests and sanitizers ran 340 s and, run
# before the benchmarks, left them too little time three calls in a row.
# So the
# benchmarks run first, on an idle GPU (BENCH_RUNS, default 10, the most
# runs a row, under BENCH_SECONDS, default 150; the compare benchmark under
# COMPARE_SECONDS, default 40), and the tests and sanitizers after them in
# what is left; the sanitizers take one case in SANITIZER_SHARE (default 4)
# of the sweeps over many small images. A step cut short says so in the
# summary (RESULT: FAIL), which always prints.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=build-gpu/logs
rm -rf "$logs"
mkdir -p "$logs"
stb_dir=${GPUIMG_STB_INCLUDE_DIR:-$PWD/.carry}
# scripts/device_deps.sh's static libwebp and libexif, where the machine has none.
[ -d .carry/lib/pkgconfig ] && export PKG_CONFIG_PATH=$PWD/.carry/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
# Every GPU test suite's name starts with Gpu or CliGpu, or is PixelHelpers.
gpu_tests='Gpu*:CliGpu*:PixelHelpers.*'
status=0

step() { printf '\n=== %s\n' "$*"; }
deadline=$((SECONDS + ${GPU_SUITE_SECONDS:-575}))
left() { local l=$((deadline - SECONDS - ${1:-0})); echo $((l > 10 ? l : 10)); }
# timed NAME SECONDS CMD...: CMD for at most SECONDS (0: all that is left)
# and what is left; a step cut short is named in $logs/cut.txt (it may run
# in a pipeline's subshell).
timed() {
  local name=$1 most=$2 limit
  shift 2
  limit=$(left)
  [ "$most" -eq 0 ] || [ "$most" -ge "$limit" ] || limit=$most
  timeout "$limit" "$@"
  local rc=$?
  [ $rc -ne 124 ] || echo "$name" >>"$logs/cut.txt"
  return $rc
}

step "build"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! { cmake -S . -B build-gpu "${generator[@]}" -DGPUIMG_WITH_OPENCV=OFF -DGPUIMG_STB_INCLUDE_DIR="$stb_dir" &&
       cmake --build build-gpu -j "$(nproc)"; } >"$logs/build.log" 2>&1; then
  tail -40 "$logs/build.log"
  cp build-gpu/.ninja_log "$logs/" 2>/dev/null
  echo "GPU SUITE: build FAILED (see build.log)"
  exit 1
fi
tests=build-gpu/test/gpuimg_tests
# Each target's compile time, to see what holds up the build.
cp build-gpu/.ninja_log "$logs/" 2>/dev/null
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/device.txt"

step "benchmark"
GPUIMG_STB_INCLUDE_DIR=$stb_dir OUT=$logs timed benchmark "${BENCH_SECONDS:-150}" scripts/bench_gpu.sh "${BENCH_RUNS:-10}" |
  tee "$logs/bench.txt" ||
  status=1
GPUIMG=build-gpu/gpuimg OUT=$logs timed "compare benchmark" "${COMPARE_SECONDS:-40}" scripts/bench_compare.sh 1 >"$logs/compare.txt" ||
  status=1

# The sanitizers slow kernels 10-100x: they take the matrix at its small
# sizes and the pipeline tests, not the 1080p radius sweep and resizes, the
# 27 MB blurs or the sharpen grid of every centre and Laplacian (the same kernel as the
# matrix). racecheck looks only at shared memory within a kernel: it skips
# the CLI tests, which run the same kernels as the backend tests over many
# more images.
big='GpuBackend.FullHdEveryRadiusClass:GpuBackend.WideSingleRow:GpuBackend.SharpenEveryCentreAndLaplacianAt8Bit'
big+=':GpuBackend.BlurOnImagesPastL2:GpuBackend.TablePassesAgree:GpuBackend.MedianFullHd'
big+=':GpuBackend.MedianTallImageBeyondTheGridLimit:GpuBackend.ConvolveEveryKernel:GpuBackend.GaussianFullHd'
big+=':GpuBackend.ConvolveOnTheTensorCoresLarge'
big+=':GpuMap.LargeImagesInGroupsOfRowsGiveTheCpuBytes:GpuBackend.ResizeTilesFullHd'
# --map's every function runs the kernel of a few shapes with other
# arithmetic: 227 s under racecheck alone. GpuMap.EveryKernelShapeGivesTheCpuBytes
# takes those shapes at the same sizes.
big+=':GpuMap.EveryFunctionGivesTheCpuBytes'
# racecheck, the slowest by far, takes one table op of the matrix (invert,
# and normalize for its range): the others run the same kernels with other
# tables. Of the median's matrix it takes the networks (R = 1 to 3) and
# the 8-bit histograms at R = 15; the 16-bit radix select it does not take
# at all: R = 8 ran 165 s, R = 15 past two minutes, under racecheck alone.
# The median's sweeps past the networks and across hard edges, two minutes
# each, run those kernels again.
# Unsharp's matrix runs the Gaussian's kernels with another last step, which
# GaussianAndUnsharpAtTileEdges checks (178 s under racecheck); the
# Gaussian's sweep of every one-pass radius, 312 images, runs the kernels the
# matrix does, and GaussianWordRows the word rows of both at every radius.
same_kernels='GpuMatchesCpu.levels*:GpuMatchesCpu.gamma*:GpuMatchesCpu.linear*:GpuMatchesCpu.threshold*'
same_kernels+=':GpuMatchesCpu.median_R_8*:GpuMatchesCpu.median_R_15_u16:GpuMatchesCpu.unsharp*'
same_kernels+=':GpuBackend.MedianPastTheNetworks:GpuBackend.MedianAcrossHardEdges:GpuBackend.GaussianEveryOnePassRadius'
same_kernels+=':GpuBackend.GaussianAndUnsharpAtTileEdges'
# The sweeps over many small images (every radius, shape and channel count)
# take about a quarter of their cases under the sanitizers, picked by a hash
# of each image's seed (test/support/gpu.hpp, sweep_takes): at 6802cb7,
# with every case, seven of the eleven sanitizer shards and ctest were cut by
# the deadline, the sweeps half their time. ctest runs every case, and
# the sanitizers run niced: of the two, ctest's result is the one a cut
# costs most (1682 of its 1683 tests had passed when it was cut there).
# sanitize NAME TOOL FILTER [TOOL OPTIONS]
sanitize() {
  local name=$1 tool=$2 filter=$3
  GPUIMG_SANITIZER_SHARE=${SANITIZER_SHARE:-4} timeout "$(left)" nice -n 10 compute-sanitizer --tool "$tool" --error-exitcode 99 "${@:4}" "$tests" \
    --gtest_filter="$filter" >"$logs/$name.log" 2>&1
  echo $? >"$logs/$name.rc"
}

# Everything below shares the one GPU and 16 cores: ctest and the sanitizers
# run at once, in shards. memcheck takes the batch's CLI tests but not the
# other CLI tests: each starts a process per image, seconds each under the
# sanitizer (233 s of the two shards' 624 s), to run kernels the backend
# tests run. synccheck, like racecheck, looks within kernels and skips the
# CLI tests.
step "ctest (all tests) and compute-sanitizer memcheck, racecheck and synccheck, at once"
# memcheck counts a CUDA call that fails as an error: one test makes one
# fail on purpose (a kernel name a library lacks) and checks the message.
api_error='GpuRuntimeKernel.UnknownNameIsADeviceErrorNamingIt'
# Three memcheck shards: at 3e8e753 one of two was cut by the deadline in
# its last test, after 291 s of tests that began once the build and the
# benchmark were done.
for shard in 0 1 2; do
  GTEST_TOTAL_SHARDS=3 GTEST_SHARD_INDEX=$shard \
    sanitize "memcheck$shard" memcheck "Gpu*:CliGpuBatch.*:PixelHelpers.*:-$big:$api_error" --leak-check full &
done
for shard in 0 1; do
  GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard \
    sanitize "synccheck$shard" synccheck "Gpu*:PixelHelpers.*:-$big" &
done
# The two longest left under racecheck (91 and 102 s on the H100, 149 s for
# the first on a slower day) take a shard of their own beside five by index:
# with GaussianWordRows in a shard by index, that shard was cut by the
# deadline at bffbeaf while the others had finished.
longest_race=GpuBlurStrips.MatchesCpuAtStripEdges:GpuBackend.GaussianWordRows
for shard in 0 1 2 3 4; do
  GTEST_TOTAL_SHARDS=5 GTEST_SHARD_INDEX=$shard \
    sanitize "racecheck$shard" racecheck "Gpu*:PixelHelpers.*:-$big:$same_kernels:$longest_race" &
done
sanitize racecheck5 racecheck "$longest_race" &
# ctest runs each test in its own process, the GPU tests among them: they are
# counted from its log rather than run a second time.
timed ctest 0 ctest --test-dir build-gpu --output-on-failure -j 6 >"$logs/ctest.log" 2>&1 || status=1
tail -5 "$logs/ctest.log"
ctest_line=$(grep -E 'tests passed' "$logs/ctest.log" | tail -1)
gpu_lines=$(grep -E 'Test +#[0-9]+: (Gpu|CliGpu|PixelHelpers)' "$logs/ctest.log")
gpu_run=$(grep -c ' Passed ' <<<"$gpu_lines")
gpu_skipped=$(grep -c '\*\*\*Skipped' <<<"$gpu_lines")
gpu_failed=$(($(grep -c . <<<"$gpu_lines") - gpu_run - gpu_skipped))
[ "$gpu_skipped" -eq 0 ] && [ "$gpu_run" -gt 0 ] || status=1
echo "GPU tests: passed $gpu_run, failed $gpu_failed, skipped $gpu_skipped"
wait
sanitizers=(memcheck0 memcheck1 memcheck2 synccheck0 synccheck1 racecheck0 racecheck1 racecheck2 racecheck3 racecheck4 racecheck5)
for name in "${sanitizers[@]}"; do
  rc=$(cat "$logs/$name.rc")
  [ "$rc" -eq 0 ] || status=1
  [ "$rc" -ne 124 ] || echo "$name" >>"$logs/cut.txt"
  grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard' "$logs/$name.log" | tail -3
  echo "$name: exit $rc"
  eval "${name}_rc=$rc"
done

step "summary"
{
  echo "GPU SUITE on $(cat "$logs/device.txt")"
  echo "  ctest: ${ctest_line:-no result}"
  echo "  GPU tests: $gpu_run passed, $gpu_failed failed, $gpu_skipped skipped"
  echo "  compute-sanitizer: memcheck exit $memcheck0_rc $memcheck1_rc $memcheck2_rc, synccheck exit $synccheck0_rc $synccheck1_rc, racecheck exit $racecheck0_rc $racecheck1_rc $racecheck2_rc $racecheck3_rc $racecheck4_rc $racecheck5_rc (a number a shard)"
  echo "  bench 7680x4320 rgb8: gpuimg ms (x copy), then gpuimg/peer time:"
  # bench_gpu.sh's columns: op size type impl ms GB/s x-copy gpuimg/peer ...
  awk '$2=="7680x4320" && $3=="rgb8" {
         if ($4 == "gpuimg" || $1 == "copy") { op[++n] = $1; ms[$1] = $5; x[$1] = $7 }
         else peers[$1] = peers[$1] sprintf("  %s %s", $4, $8)
       }
       END { for (i = 1; i <= n; i++) printf "    %-12s %8s (%sx)%s\n", op[i], ms[op[i]], x[op[i]], peers[op[i]] }' \
    "$logs/bench.txt"
  # bench_compare.sh's rows: | pair | command | s | ratio |
  [ ! -f "$logs/compare-device.md" ] || awk -F'|' '/--device/ {
      match($3, /--device [a-z]+/); d = substr($3, RSTART + 9, RLENGTH - 9)
      gsub(/ /, "", $2); gsub(/ /, "", $4)
      line = line sprintf("%s %s %s%s %s", line ? "," : "", $2, d, ($3 ~ /--ssim/) ? "+ssim" : "", $4)
    }
    END { print "  compare 4000x3000, s:" line }' "$logs/compare-device.md"
  [ ! -s "$logs/cut.txt" ] || { status=1; echo "  cut short by the deadline: $(paste -sd' ' "$logs/cut.txt")"; }
  [ $status -eq 0 ] && echo "  RESULT: PASS" || echo "  RESULT: FAIL"
} | tee "$logs/summary.txt"
if [ -n "${OUT:-}" ]; then
  cp "$logs/summary.txt" "$logs/bench.txt" "$OUT/"
  for fragment in perf-gpu-kernels.md compare-device.md; do
    [ ! -f "$logs/$fragment" ] || cp "$logs/$fragment" "$OUT/"
  done
  tar -czf "$OUT/logs.tar.gz" -C build-gpu logs
fi
exit $status
