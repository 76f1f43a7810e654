#!/usr/bin/env bash
# compare's whole-process time on two 4000x3000 8-bit RGB PNGs that differ,
# with and without SSIM, on each device this machine has, beside
# ImageMagick's `compare -metric AE` where it is installed (issue 19's
# target: without SSIM, at most half of ImageMagick's time). Pairs from
# scripts/bench/make_inputs.py: *block* (a red 20x20 square, 400 pixels
# differ) and *noise* (nearly every pixel differs).
# Usage: scripts/bench_compare.sh [RUNS]   (default 5; the median is shown)
# Environment: GPUIMG (default build/gpuimg), PYTHON (with NumPy, for the inputs).
# Writes the section compare-SUFFIX (device on a machine with a GPU, else dev)
# to $OUT/ when OUT is set, else into docs/PERFORMANCE.md through scripts/perf_doc.py.
set -euo pipefail
cd "$(dirname "$0")/.."
export LC_ALL=C  # EPOCHREALTIME's decimal point
runs=${1:-5}
[ "$runs" -ge 1 ] 2>/dev/null || { echo "bench_compare.sh: RUNS must be a whole number from 1, not '$runs'" >&2; exit 2; }
gpuimg=$(realpath "${GPUIMG:-build/gpuimg}")
[ -x "$gpuimg" ] || { echo "bench_compare.sh: no gpuimg at $gpuimg (build it, or set GPUIMG)" >&2; exit 1; }
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$python" scripts/bench/make_inputs.py "$work/expected.png" --size 4000x3000
for change in block noise; do
  "$python" scripts/bench/make_inputs.py "$work/$change.png" --size 4000x3000 --change "$change"
done
gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 || true)
devices=(cpu)
[ -z "$gpu" ] || devices+=(cuda)

# Each command's label and words, run in turn once a round; the median of
# the rounds after a warm-up.
labels=() commands=()
add() { labels+=("$1"); commands+=("$2"); }
for change in block noise; do
  pair="$work/expected.png $work/$change.png"
  command -v compare >/dev/null && add "$change|\`compare -metric AE expected.png $change.png null:\`" \
    "compare -metric AE $pair null:"
  for device in "${devices[@]}"; do
    add "$change|\`gpuimg compare expected.png $change.png --device $device\`" "$gpuimg compare $pair --device $device"
    add "$change|\`gpuimg compare expected.png $change.png --device $device --ssim 0\` (SSIM asked)" \
      "$gpuimg compare $pair --device $device --ssim 0"
  done
done
declare -A times
for round in $(seq 0 "$runs"); do
  for i in "${!commands[@]}"; do
    start=$EPOCHREALTIME
    rc=0
    ${commands[$i]} >/dev/null 2>&1 || rc=$?
    # Differing images exit 1; anything else is a failure, not a time.
    [ "$rc" -le 1 ] || { echo "bench_compare.sh: ${commands[$i]}: exit $rc" >&2; exit 1; }
    [ "$round" -eq 0 ] || times[$i]+="$(awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN {print b - a}') "
  done
done
median() { tr ' ' '\n' | sed '/^$/d' | sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

suffix=$([ -n "$gpu" ] && echo device || echo dev)
fragment=$work/compare-$suffix.md
{
  echo "### compare on two differing 4000×3000 PNGs ($([ -n "$gpu" ] && echo "GPU machine" || echo "no GPU"))"
  echo
  echo "$(date -u +%Y-%m-%d), \`scripts/bench_compare.sh $runs\` at gpuimg ${GPUIMG_COMMIT:-$(git rev-parse --short HEAD)}." \
    "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; load average before the run:" \
    "$(cut -d' ' -f1-3 /proc/loadavg). GPU: ${gpu:-none}." \
    "$(command -v compare >/dev/null && compare -version | head -1 || echo "No ImageMagick on this machine.")"
  echo
  echo "Pairs from \`scripts/bench/make_inputs.py --size 4000x3000\`: *block* adds a red 20×20 square (400 pixels" \
    "differ), *noise* a second noise of ±6 (nearly every pixel differs). Wall time fork to exit, the median of" \
    "$runs rounds after a warm-up round, each running every command once in turn."
  echo
  echo "| pair | command | s | x ImageMagick AE |"
  echo "|---|---|---:|---:|"
  for i in "${!commands[@]}"; do
    s=$(echo "${times[$i]}" | median)
    case ${labels[$i]} in *"compare -metric AE"*) ae=$s ;; esac
    ratio=-
    [ -z "${ae:-}" ] || ratio=$(awk -v s="$s" -v ae="$ae" 'BEGIN {printf "%.2f", s / ae}')
    echo "| ${labels[$i]%%|*} | ${labels[$i]#*|} | $(printf '%.3f' "$s") | $ratio |"
  done
} >"$fragment"
if [ -n "${OUT:-}" ]; then cp "$fragment" "$OUT/"; else python3 scripts/perf_doc.py "compare-$suffix" "$fragment"; fi
cat "$fragment"
