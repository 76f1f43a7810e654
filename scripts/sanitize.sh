#!/usr/bin/env bash
# AddressSanitizer (leaks included) and UndefinedBehaviorSanitizer over the
# whole test suite, the fuzz corpora's replay among it, in a CPU-only clang
# build of its own (build-asan/); then each fuzz target under libFuzzer from
# its seed corpus for FUZZ_SECONDS (default 120), all at once. Any sanitizer
# report, failed test or fuzzer finding fails the run. .ci/run runs it after
# the suite. Without clang it builds with GCC and skips the fuzzing.
#
# A finding's input is left in build-asan/fuzz/NAME/ (crash-*, leak-*,
# oom-*, timeout-*); build-asan/test/fuzz/gpuimg_fuzz_NAME FILE replays it.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 1
source scripts/sanitizer_build.sh
build="build-asan"
logs=$build/logs
fuzz_seconds=${FUZZ_SECONDS:-120}
scripts/setup.sh --sanitizers || exit 1
rm -rf "$logs" "$build/fuzz"
mkdir -p "$logs"
status=0
summary=()

flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer"
fuzz=OFF
if command -v clang++ >/dev/null; then
  export CC=clang CXX=clang++
  flags+=" -gline-tables-only"
  probe='extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }'
  echo "$probe" | clang++ -fsanitize=fuzzer -x c++ - -o "$logs/libfuzzer-probe" 2>/dev/null && fuzz=ON
else
  export CC=gcc CXX=g++
  flags+=" -g1"
fi
printf '\n=== build (%s, libFuzzer %s)\n' "$CXX" "$fuzz"
sanitizer_build "$build" "$logs" "$flags" -DGPUIMG_FUZZ="$fuzz" || exit 1

printf '\n=== ctest (whole suite and fuzz corpora, ASan + UBSan)\n'
options=$(report_options "$logs")
export ASAN_OPTIONS="$options:detect_leaks=1:check_initialization_order=1:strict_init_order=1"
export UBSAN_OPTIONS="$options:print_stacktrace=1"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" >"$logs/ctest.log" 2>&1 || status=1
grep -E '^[0-9]+% tests passed|\((Failed|Subprocess|Timeout|SEGFAULT|Child)' "$logs/ctest.log"
summary+=("ctest: $(grep -E '^[0-9]+% tests passed' "$logs/ctest.log" | tail -1)")
show_reports "$logs" || status=1
summary+=("sanitizer reports: $(find "$logs/reports" -type f | wc -l)")

if [ "$fuzz" = ON ]; then
  printf '\n=== libFuzzer, %s s for each target, all at once\n' "$fuzz_seconds"
  # Reports on stderr again, where libFuzzer catches them and keeps the input.
  symbolizer=$(symbolizer_option)
  export ASAN_OPTIONS="detect_leaks=1:$symbolizer" UBSAN_OPTIONS="print_stacktrace=1:$symbolizer"
  names=()
  for seeds in test/fuzz/corpus/*/; do
    name=$(basename "$seeds")
    names+=("$name")
    work=$build/fuzz/$name
    mkdir -p "$work/corpus"
    # New inputs go to the build folder's corpus; the committed seeds stay as they are.
    "$build/test/fuzz/gpuimg_libfuzzer_$name" "$work/corpus" "$seeds" -max_total_time="$fuzz_seconds" \
      -timeout=10 -rss_limit_mb=1024 -malloc_limit_mb=128 -artifact_prefix="$work/" -print_final_stats=1 \
      >"$logs/fuzz-$name.log" 2>&1 &
  done
  wait
  for name in "${names[@]}"; do
    runs=$(grep -m1 -oE 'number_of_executed_units: *[0-9]+' "$logs/fuzz-$name.log" | grep -oE '[0-9]+$')
    found=$(find "$build/fuzz/$name" -maxdepth 1 -type f | sort | tr '\n' ' ')
    if [ -n "$found" ]; then
      status=1
      summary+=("fuzz $name: ${runs:-?} runs, FOUND: $found")
      grep -m1 -A30 -E '^==[0-9]+==ERROR|runtime error|^fuzz: broken promise' "$logs/fuzz-$name.log"
    else
      summary+=("fuzz $name: ${runs:-?} runs, nothing found")
    fi
  done
fi

printf '\n=== summary\n'
printf '%s\n' "${summary[@]}"
[ "$status" -eq 0 ] && echo "SANITIZE: PASSED" || echo "SANITIZE: FAILED (logs in $logs)"
exit "$status"
