#!/usr/bin/env bash
# Each op's cost on the CPU backend per sample, on one thread and on every
# core, beside what its header declares as cpu_cost and the estimate
# --device auto makes from it (test/bench/cpu_cost_bench.cpp): the
# measurements behind lib/device_choice.hpp.
# Usage: scripts/bench_cpu_cost.sh [RUNS]   (default 5; the median is shown)
# Writes the section cpu-cost-dev (or cpu-cost-device where nvidia-smi lists
# a GPU) into docs/PERFORMANCE.md (scripts/perf_doc.py), or to $OUT/ when OUT is set.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
bench=${GPUIMG_CPU_COST_BENCH:-build/test/gpuimg_cpu_cost_bench}
[ -x "$bench" ] || { echo "bench_cpu_cost.sh: no $bench (build gpuimg_cpu_cost_bench)" >&2; exit 1; }
if nvidia-smi -L >/dev/null 2>&1; then section=cpu-cost-device; title="the GPU machine"; else section=cpu-cost-dev; title="a machine without a GPU"; fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fragment=$work/$section.md
{
  echo "### CPU cost per sample, $title"
  echo
  echo "$(date -u +%Y-%m-%d), \`scripts/bench_cpu_cost.sh $runs\` at gpuimg ${GPUIMG_COMMIT:-$(git rev-parse --short HEAD)}." \
    "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; load average before the run:" \
    "$(cut -d' ' -f1-3 /proc/loadavg). $(. /etc/os-release && echo "$PRETTY_NAME")."
  echo
  echo "\`gpuimg_cpu_cost_bench $runs\`: a seeded random 3840×2160 image; each row is \`run_cpu\` with that one stage," \
    "as the CLI calls it (scratch buffer and copy-back included), the median of $runs runs after a warm-up, on one" \
    "thread and on every core. *1 thread ns*: nanoseconds per sample on one thread, what *cpu_cost* (the op" \
    "header's figure) stands for; *all ns\*thread*: the same on every core, times the threads (equal to the first" \
    "where the stage scales perfectly); *estimate ms*: \`estimate_cpu_ms\` for every core, which counts at most" \
    "\`kCpuScalingThreads\`; *est/all*: the estimate over the measured time. *over cpu_cost* marks a row" \
    "slower on one thread than its op declares in this run; on a machine busy with other work, one-thread" \
    "times move by up to half between runs, and the declared costs cover the slowest seen when they were set."
  echo
  echo '```'
  "$bench" "$runs"
  echo '```'
} >"$fragment"
if [ -n "${OUT:-}" ]; then cp "$fragment" "$OUT/"; else python3 scripts/perf_doc.py "$section" "$fragment"; fi
cat "$fragment"
