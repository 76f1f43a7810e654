#!/usr/bin/env bash
# What splitting one batch into shards costs and covers, on this machine:
# the same folder run as 1, 2 and 4 shards (--shard K/N, the shards at once,
# each with --jobs cores/N so the cores are shared out as N nodes would
# each have their own), and for each: wall time, CPU time of all the
# processes together, images per second, and coverage: the merged reports
# (gpuimg report merge) count every file once, and the outputs are the
# one-process run's, byte for byte. Prints a Markdown table for
# docs/SCALE.md. A benchmark, not a test: a slow result fails nothing.
#
# Usage: scripts/bench_shards.sh [FILES [RUNS [BUILD]]]
#   FILES  JPEGs of 1920x1080 in the folder (default 120)
#   RUNS   runs of each N, the best kept (default 3)
#   BUILD  where gpuimg and gpuimg_bench_images were built (default build)
set -euo pipefail
cd "$(dirname "$0")/.."
files=${1:-120} runs=${2:-3} build=${3:-build}
build=$(cd "$build" && pwd)
gpuimg=$build/gpuimg maker=$build/test/gpuimg_bench_images
for tool in "$gpuimg" "$maker"; do
  [ -x "$tool" ] || { echo "bench_shards: $tool missing: cmake --build $build --target gpuimg gpuimg_bench_images" >&2; exit 2; }
done
cores=$(nproc)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/in"
"$maker" "$work/in" j_ "$files" 1920 1080 jpg 90 >/dev/null
cat "$work/in"/* >/dev/null  # every run reads from the page cache
ops=(--blur 3 --invert --device cpu --quiet)

"$gpuimg" "$work/in/" "${ops[@]}" "$work/ref/" 2>/dev/null

# One run of N shards at once into an empty out/; sets SECONDS_WALL and SECONDS_CPU.
run_shards() {
  local n=$1 jobs=$(((cores + $1 - 1) / $1)) k t
  rm -rf "$work/out" "$work/reports"
  mkdir -p "$work/reports"
  TIMEFORMAT='%R %U %S'
  t=$( { time (
    for k in $(seq 1 "$n"); do
      "$gpuimg" "$work/in/" "${ops[@]}" "$work/out/" --jobs "$jobs" --shard "$k/$n" \
        --report "$work/reports/$k.json" 2>/dev/null &
    done
    wait
  ) ; } 2>&1 )
  read -r SECONDS_WALL user sys <<<"$t"
  SECONDS_CPU=$(echo "$user + $sys" | bc)
}

echo "| shards | --jobs each | files | processed (merged) | outputs as one process | wall s | CPU s | images/s | wall × 1 shard | CPU × 1 shard |"
echo "|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|"
for n in 1 2 4; do
  best_wall="" best_cpu=""
  for r in $(seq "$runs"); do
    run_shards "$n"
    if [ -z "$best_wall" ] || [ "$(echo "$SECONDS_WALL < $best_wall" | bc)" = 1 ]; then
      best_wall=$SECONDS_WALL best_cpu=$SECONDS_CPU
    fi
  done
  processed=$("$gpuimg" report merge "$work"/reports/*.json --json | sed -n 's/^  "processed": \([0-9]*\),$/\1/p')
  same=$(diff -rq "$work/ref" "$work/out" >/dev/null && echo "identical" || echo "DIFFERENT")
  [ "$n" = 1 ] && base_wall=$best_wall base_cpu=$best_cpu
  printf '| %d | %d | %d | %d | %s | %.2f | %.2f | %.1f | %.2f | %.2f |\n' "$n" $(((cores + n - 1) / n)) "$files" \
    "$processed" "$same" "$best_wall" "$best_cpu" "$(echo "$files / $best_wall" | bc -l)" \
    "$(echo "$best_wall / $base_wall" | bc -l)" "$(echo "$best_cpu / $base_cpu" | bc -l)"
done
echo
echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') ($cores threads), load before the last run: $(cut -d' ' -f1-3 /proc/loadavg); $("$gpuimg" --version)"
