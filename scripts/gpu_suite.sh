#!/usr/bin/env bash
# Everything that needs a GPU, in one call on the GPU machine: build, the
# whole test suite (GPU tests must run there, not skip), compute-sanitizer
# memcheck and racecheck over the GPU tests, and the kernel benchmark against
# NPP and CuPy (scripts/bench_gpu.sh, which writes $OUT/perf-gpu-kernels.md).
# Prints a short summary last. Logs go to build-gpu/logs; when $OUT is set
# (the device tool, which brings back at most 8 files), the summary, the
# benchmark table and fragment, and one archive of the logs are copied there.
#
# The device build has no OpenCV (its stb I/O layer stands in) and needs
# stb's headers: copy /usr/include/stb to .carry/stb and carry .carry.
set -uo pipefail
cd "$(dirname "$0")/.."
logs=build-gpu/logs
rm -rf "$logs"
mkdir -p "$logs"
stb_dir=${GPUIMG_STB_INCLUDE_DIR:-$PWD/.carry}
# Every GPU test suite's name starts with Gpu or CliGpu, or is PixelHelpers.
gpu_tests='Gpu*:CliGpu*:PixelHelpers.*'
status=0

step() { printf '\n=== %s\n' "$*"; }

step "build"
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
if ! { cmake -S . -B build-gpu "${generator[@]}" -DGPUIMG_WITH_OPENCV=OFF -DGPUIMG_STB_INCLUDE_DIR="$stb_dir" &&
       cmake --build build-gpu -j "$(nproc)"; } >"$logs/build.log" 2>&1; then
  tail -40 "$logs/build.log"
  echo "GPU SUITE: build FAILED (see build.log)"
  exit 1
fi
tests=build-gpu/test/gpuimg_tests
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$logs/device.txt"

step "ctest (all tests)"
ctest --test-dir build-gpu --output-on-failure -j 8 >"$logs/ctest.log" 2>&1 || status=1
tail -5 "$logs/ctest.log"
ctest_line=$(grep -E 'tests passed' "$logs/ctest.log" | tail -1)

step "GPU tests, counted"
"$tests" --gtest_filter="$gpu_tests" >"$logs/gpu_tests.log" 2>&1 || status=1
gpu_run=$(grep -c '^\[       OK \]' "$logs/gpu_tests.log")
gpu_failed=$(grep -c '^\[  FAILED  \].*ms)' "$logs/gpu_tests.log")
gpu_skipped=$(grep -c '^\[  SKIPPED \].*ms)' "$logs/gpu_tests.log")
[ "$gpu_skipped" -eq 0 ] || status=1
echo "passed $gpu_run, failed $gpu_failed, skipped $gpu_skipped"

# The sanitizers slow kernels 10-100x: they take the matrix at its small
# sizes and the pipeline tests, not the 1080p radius sweep, the 27 MB blurs
# or the sharpen grid of every centre and Laplacian (the same kernel as the
# matrix). The three tools run at once, each its own process on the one GPU:
# in turn they no longer fit the device tool's ten minutes. racecheck, the
# slowest, looks only at shared memory within a kernel: it skips the CLI
# tests, which run the same kernels as the backend tests over many more
# images.
big='GpuBackend.FullHdEveryRadiusClass:GpuBackend.WideSingleRow:GpuBackend.SharpenEveryCentreAndLaplacianAt8Bit'
big+=':GpuBackend.BlurOnImagesPastL2:GpuBackend.TablePassesAgree:GpuBackend.GaussianFullHd'
sanitize() {
  local tool=$1 filter=$2
  compute-sanitizer --tool "$tool" --error-exitcode 99 "${@:3}" "$tests" --gtest_filter="$filter" \
    >"$logs/$tool.log" 2>&1
  echo $? >"$logs/$tool.rc"
}
step "compute-sanitizer memcheck, racecheck and synccheck, at once"
sanitize memcheck "$gpu_tests:-$big" --leak-check full &
sanitize racecheck "Gpu*:PixelHelpers.*:-$big" &
sanitize synccheck "$gpu_tests:-$big" &
wait
for tool in memcheck racecheck synccheck; do
  rc=$(cat "$logs/$tool.rc")
  [ "$rc" -eq 0 ] || status=1
  grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|Error|hazard' "$logs/$tool.log" | tail -3
  echo "$tool: exit $rc"
  eval "${tool}_rc=$rc"
done

step "benchmark"
GPUIMG_STB_INCLUDE_DIR=$stb_dir OUT=$logs scripts/bench_gpu.sh 30 | tee "$logs/bench.txt" || status=1

step "summary"
{
  echo "GPU SUITE on $(cat "$logs/device.txt")"
  echo "  ctest: ${ctest_line:-no result}"
  echo "  GPU tests: $gpu_run passed, $gpu_failed failed, $gpu_skipped skipped"
  echo "  compute-sanitizer: memcheck exit $memcheck_rc, racecheck exit $racecheck_rc, synccheck exit $synccheck_rc"
  echo "  bench 7680x4320 rgb8: gpuimg ms (x copy), then gpuimg/peer time:"
  # bench_gpu.sh's columns: op size type impl ms GB/s x-copy gpuimg/peer ...
  awk '$2=="7680x4320" && $3=="rgb8" {
         if ($4 == "gpuimg" || $1 == "copy") { op[++n] = $1; ms[$1] = $5; x[$1] = $7 }
         else peers[$1] = peers[$1] sprintf("  %s %s", $4, $8)
       }
       END { for (i = 1; i <= n; i++) printf "    %-12s %8s (%sx)%s\n", op[i], ms[op[i]], x[op[i]], peers[op[i]] }' \
    "$logs/bench.txt"
  [ $status -eq 0 ] && echo "  RESULT: PASS" || echo "  RESULT: FAIL"
} | tee "$logs/summary.txt"
if [ -n "${OUT:-}" ]; then
  cp "$logs/summary.txt" "$logs/bench.txt" "$OUT/"
  [ -f "$logs/perf-gpu-kernels.md" ] && cp "$logs/perf-gpu-kernels.md" "$OUT/"
  tar -czf "$OUT/logs.tar.gz" -C build-gpu logs
fi
exit $status
