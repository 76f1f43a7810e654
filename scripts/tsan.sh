#!/usr/bin/env bash
# ThreadSanitizer over the tests that run threads: the CPU backend's bands
# (ops, blur, pipelines), the PNG writer's workers, the batch's workers,
# lanes, queues and signal handling, the signal thread that removes
# temporary files, the CLI runs that start CUDA's probe beside decoding,
# and TIFF decodes in several threads at once. A CPU-only clang build of
# its own (build-tsan/); prints a summary, fails on any report or failed
# test. .ci/run runs it last (3 to 5 minutes on 2 cores, the build included).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
source scripts/sanitizer_build.sh
build="build-tsan"
logs=$build/logs
threaded='^(ParallelBands|Batch[A-Za-z]*|CliBatch[A-Za-z]*|CliRun|CliDevice|OpOracle|Blur|Sharpen|Pipeline'
threaded+='|PngEncoder|PngLevel|CompareMetrics|CompareOracle|GoldenCli|OutputTemporaries|TiffThreads)[./]'
scripts/setup.sh --sanitizers || exit 1
rm -rf "$logs"
mkdir -p "$logs"
status=0

export CC=clang CXX=clang++
printf '\n=== build (%s, ThreadSanitizer)\n' "$CXX"
sanitizer_build "$build" "$logs" "-fsanitize=thread -gline-tables-only" || exit 1

printf '\n=== ctest -R threaded tests\n'
options=$(report_options "$logs")
export TSAN_OPTIONS="$options:second_deadlock_stack=1:suppressions=$PWD/scripts/tsan_suppressions.txt"
ctest --test-dir "$build" -R "$threaded" --output-on-failure -j "$(nproc)" >"$logs/ctest.log" 2>&1 || status=1
show_reports "$logs" || status=1

printf '\n=== summary\n'
grep -E '^[0-9]+% tests passed|\((Failed|Subprocess|Timeout|SEGFAULT|Child)' "$logs/ctest.log"
echo "ThreadSanitizer reports: $(find "$logs/reports" -type f | wc -l)"
[ "$status" -eq 0 ] && echo "TSAN: PASSED" || echo "TSAN: FAILED (logs in $logs)"
exit "$status"
