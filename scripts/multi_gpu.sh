#!/usr/bin/env bash
# Batch across the GPUs of one host (issue 20), in one call on the GPU
# machine, its build included, in about 5 to 8 minutes:
#   1. the inputs: the batch benchmark's JPEG and PNG sets (drawn by
#      gpuimg_bench_images as scripts/bench_batch.sh draws them, fewer), and
#      a GPU-heavy set: 8K PNGs stored uncompressed (--png-level 0, read and
#      written, so the codecs cost little) through P = --blur 25 --sharpen 1
#      --blur 64 --sharpen 0.5 --blur 9 repeated k times, k taken from P's
#      kernel time on one 8K image (-v) so that one GPU takes about
#      --heavy-seconds over the set: P once is bounded by the copies and
#      the codecs, not the kernels (the fragment gives the times);
#   2. per set, `--devices all` against `--devices 0`, alternately, best of
#      a few runs, images per second over the whole process, their ratio,
#      and the fraction of the codec limit: the same batch with no
#      operation on the CPU backend, so decoding and encoding alone on
#      every core with gpuimg's codecs and settings (bench_batch.sh's
#      definition);
#   3. every output of the all-GPU run byte-identical to the one-GPU run's;
#   4. a truncated PNG among good files on --devices all: one line naming
#      it on stderr, exit 1, every good output written and identical;
#   5. SIGINT mid-batch on --devices all: exit 130, no .gpuimg-tmp-* left,
#      every output there identical to the one-GPU run's;
#   6. --shard K/N over N concurrent processes, one per GPU through
#      CUDA_VISIBLE_DEVICES, each into its own folder: together the
#      one-process output set, every file exactly once, identical bytes;
#   7. $OUT/perf-multi-gpu.md: the table, the commands and the machine, for
#      docs/PERFORMANCE.md (scripts/perf_doc.py batch-multi-gpu FILE), with
#      $OUT/multi-gpu-summary.txt and $OUT/multi-gpu-logs.tar.gz (both
#      rewritten after every step, so a run cut short still brings back
#      what it did).
# Prints PASS/FAIL lines and the table last. Exits 0 when every check
# passed, 1 when one failed, 3 with no GPU. The speed targets (≥ 1.9× one
# GPU on two for the heavy set) are reported as met or not, and fail
# nothing: a benchmark, not a test.
#
# One GPU: gpuimg refuses `--devices 0,0` (a GPU listed twice), so there
# `--devices all` is GPU 0 alone, its ratio is about 1 and says nothing;
# the checks run as on several, the shards as 2 processes on the one card.
#
# Usage: scripts/multi_gpu.sh [--cpu-dry-run] [--build DIR] [--heavy-seconds S] [--budget S] [--keep]
#   --cpu-dry-run      no GPU needed: every step on the CPU backend (`--devices 0`
#                      becomes --device cpu --jobs 1, `--devices all` --device cpu,
#                      the shards --device cpu), small images: checks this
#                      script's logic; its numbers measure nothing
#   --build DIR        the build to use (default build-gpu, or build with
#                      --cpu-dry-run); configured as scripts/gpu_suite.sh does
#                      when it has no CMakeCache.txt, and only gpuimg and
#                      gpuimg_bench_images are built
#   --heavy-seconds S  the one-GPU heavy run's length that k aims at (default 30;
#                      4 with --cpu-dry-run): two runs of it cost O(1 s) of
#                      start-up and exit, so S sets how near the ratio can
#                      come to the GPU count
#   --budget S         seconds the whole script aims to end within (default 450):
#                      the heavy set's repeats and length are cut to fit
#   --keep             keep the images and outputs (DIR/multi-gpu)
# The device build has no OpenCV and needs stb's headers, libwebp and
# libexif: run scripts/device_deps.sh here first and carry .carry (as for
# gpu_suite.sh).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
started_at=$(date +%s)

dry=0 build="" heavy_seconds="" budget=450 keep=0
while [ $# -gt 0 ]; do
  case $1 in
    --cpu-dry-run) dry=1 ;;
    --build) build=$2; shift ;;
    --heavy-seconds) heavy_seconds=$2; shift ;;
    --budget) budget=$2; shift ;;
    --keep) keep=1 ;;
    *) sed -n 's/^# Usage: /usage: /p' "$0" >&2; exit 2 ;;
  esac
  shift
done

# ---- the machine -----------------------------------------------------------------
gpus=0
command -v nvidia-smi >/dev/null && gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
if [ $dry = 0 ] && [ "$gpus" -eq 0 ]; then
  echo "multi_gpu: no NVIDIA GPU here (nvidia-smi lists none), so nothing to measure." >&2
  echo "multi_gpu: run it on a machine with GPUs, or check its logic on the CPU with --cpu-dry-run." >&2
  exit 3
fi
cores=$(nproc)
if [ $dry = 1 ]; then
  build=${build:-build}
  heavy_seconds=${heavy_seconds:-4}
else
  build=${build:-build-gpu}
  heavy_seconds=${heavy_seconds:-30}
fi
work=$build/multi-gpu
logs=$work/logs
rm -rf "$logs" "$work/out"
mkdir -p "$logs" "$work/out"
status=0
summary=()  # the PASS/FAIL lines, in order

elapsed() { echo $(($(date +%s) - started_at)); }
say() { printf '\n=== %s (at %s s)\n' "$*" "$(elapsed)"; }
left() { echo $((budget - $(elapsed))); }

# ---- what comes back ---------------------------------------------------------------
# Rewritten after every step: the device tool brings back what $OUT holds
# even when the call runs past its limit.
table_md=""  # the table's rows, Markdown
save() {
  {
    echo "MULTI-GPU on ${machine_line:-?} ($(elapsed) s)"
    for line in "${summary[@]}"; do echo "  $line"; done
    [ -n "$table_md" ] && { echo; table_head; printf '%s' "$table_md"; }
  } >"$logs/summary.txt"
  if [ -n "${OUT:-}" ]; then
    cp "$logs/summary.txt" "$OUT/multi-gpu-summary.txt"
    [ -f "$logs/perf-multi-gpu.md" ] && cp "$logs/perf-multi-gpu.md" "$OUT/"
    tar -czf "$OUT/multi-gpu-logs.tar.gz" -C "$work" logs 2>/dev/null
  fi
}
# check NAME OK DETAIL: one PASS or FAIL line (OK is 0 for pass).
check() {
  local verdict=PASS
  if [ "$2" != 0 ]; then verdict=FAIL; status=1; fi
  summary+=("$verdict  $1: $3")
  echo "$verdict  $1: $3"
  save
}
note() { summary+=("NOTE  $*"); echo "NOTE  $*"; save; }

# ---- the build --------------------------------------------------------------------
say "build ($build)"
stb_dir=${GPUIMG_STB_INCLUDE_DIR:-$PWD/.carry}
# scripts/device_deps.sh's static libwebp and libexif, where the machine has none.
[ -d .carry/lib/pkgconfig ] && export PKG_CONFIG_PATH=$PWD/.carry/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
if [ ! -f "$build/CMakeCache.txt" ]; then
  if [ $dry = 1 ]; then
    configure=(cmake -S . -B "$build" -DGPUIMG_WITH_CUDA=OFF -DGPUIMG_WITH_OPENCV=OFF)
    [ -d /usr/include/stb ] && configure+=(-DGPUIMG_STB_INCLUDE_DIR=/usr/include/stb)
  else
    generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    configure=(cmake -S . -B "$build" "${generator[@]}" -DGPUIMG_WITH_OPENCV=OFF -DGPUIMG_STB_INCLUDE_DIR="$stb_dir")
  fi
  "${configure[@]}" >"$logs/configure.log" 2>&1 || {
    tail -20 "$logs/configure.log"
    check build 1 "configure failed (logs/configure.log)"
    exit 1
  }
fi
if ! cmake --build "$build" -j "$cores" --target gpuimg gpuimg_bench_images >"$logs/build.log" 2>&1; then
  tail -30 "$logs/build.log"
  check build 1 "build failed (logs/build.log)"
  exit 1
fi
# Named from the root, where $build is relative (the default); as given, where absolute.
bin=$build
[ "${bin#/}" = "$bin" ] && bin=$PWD/$build
gpuimg=$bin/gpuimg
maker=$bin/test/gpuimg_bench_images
version=$("$gpuimg" --version)
echo "$version, built in $(elapsed) s"
if [ $dry = 0 ] && ! grep -q 'CUDA backend' <<<"$version"; then
  check build 1 "$build has no CUDA backend ($version): nvcc missing at configure time?"
  exit 1
fi

cpu_model=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
memory=$(free -g | awk '/^Mem:/ { print $2 " GiB" }')
if [ $dry = 1 ]; then
  machine_line="$cpu_model ($cores threads, $memory), CPU dry run"
else
  nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader >"$logs/device.txt"
  gpu_name=$(sed -n '1s/^[^,]*, *\([^,]*\),.*/\1/p' "$logs/device.txt")
  driver=$(sed -n '1s/^[^,]*,[^,]*, *\([^,]*\),.*/\1/p' "$logs/device.txt")
  machine_line="$gpus × $gpu_name (driver $driver), $cpu_model ($cores threads, $memory)"
fi
echo "$machine_line"
if [ $dry = 0 ]; then
  # One image on every GPU before minutes of drawing: a GPU gpuimg cannot
  # use ends the run here, with gpuimg's own words.
  if ! "$gpuimg" data/scene.png --invert "$work/out/preflight/" --devices all >"$logs/preflight.log" 2>&1; then
    cat "$logs/preflight.log"
    check "GPUs usable" 1 "gpuimg data/scene.png --invert OUT/ --devices all failed: $(grep -v ' processed, ' "$logs/preflight.log" | head -1)"
    exit 3
  fi
fi

# ---- how each contender runs ---------------------------------------------------------
# one: the baseline; all: every GPU; solo: one image (calibration);
# shards: N processes, shard_env[K-1] the environment of the Kth.
if [ $dry = 1 ]; then
  one=(--device cpu --jobs 1) all=(--device cpu) solo=(--device cpu) shard_dev=(--device cpu)
  one_text="--device cpu --jobs 1" all_text="--device cpu"
  nshards=2 shard_env=("" "") all_word="all cores"
else
  one=(--devices 0) all=(--devices all) solo=(--device cuda) shard_dev=(--device cuda)
  one_text="--devices 0" all_text="--devices all"
  all_word="$gpus GPU$([ "$gpus" -gt 1 ] && echo s)"
  if [ "$gpus" -ge 2 ]; then
    nshards=$gpus shard_env=()
    for ((k = 0; k < gpus; ++k)); do shard_env+=("CUDA_VISIBLE_DEVICES=$k"); done
  else
    nshards=2 shard_env=("CUDA_VISIBLE_DEVICES=0" "CUDA_VISIBLE_DEVICES=0")
    note "one GPU: gpuimg refuses --devices 0,0 (a GPU listed twice), so --devices all is GPU 0 alone and" \
      "the ratios say nothing; the shards run as 2 processes on the one card"
  fi
fi
shard_jobs=$((cores / nshards > 0 ? cores / nshards : 1))

# ---- 1. the inputs ---------------------------------------------------------------------
say "inputs"
if [ $dry = 1 ]; then
  n_jpg=40 jpg_size=(960 540) n_png=24 png_size=(1920 1080) n_drawn=2 n_heavy=8 heavy_size=(1280 720)
else
  # About 2 to 4 s a run: a 1080p JPEG's decode and encode took 24 ms of
  # CPU on the development machine, a 4K PNG's 340 ms, and bench_batch.sh's
  # GPU machine ran at about half that speed a thread. The heavy set: 8
  # drawn, linked under more names.
  n_jpg=$((cores * 40)) jpg_size=(1920 1080) n_png=$((cores * 4)) png_size=(3840 2160)
  n_drawn=8 n_heavy=$((gpus > 4 ? 12 * gpus : 48)) heavy_size=(7680 4320)
fi
data=$work/in
stamp="$(sha256sum test/bench/bench_images.cpp | cut -c1-16) $n_jpg ${jpg_size[*]} $n_png ${png_size[*]} $n_drawn $n_heavy ${heavy_size[*]}"
if [ "$(cat "$data/stamp" 2>/dev/null)" != "$stamp" ]; then
  rm -rf "$data"
  mkdir -p "$data/jpeg" "$data/png" "$data/drawn" "$data/heavy"
  if ! { "$maker" "$data/jpeg" j_ "$n_jpg" "${jpg_size[@]}" jpg 90 &&
         "$maker" "$data/png" p_ "$n_png" "${png_size[@]}" png &&
         "$maker" "$data/drawn" h_ "$n_drawn" "${heavy_size[@]}" png &&
         "$gpuimg" "$data/drawn/" "$data/stored/" --png-level 0 --device cpu; } >"$logs/inputs.log" 2>&1; then
    tail -5 "$logs/inputs.log"
    check inputs 1 "drawing the images failed (logs/inputs.log)"
    exit 1
  fi
  # The heavy set: each stored 8K image under n_heavy / n_drawn names (hard
  # links: one copy in the page cache, every name decoded on its own).
  for ((i = 0; i < n_heavy; ++i)); do
    ln "$data/stored/$(printf 'h_%04d.png' $((i % n_drawn)))" "$data/heavy/$(printf 'h_%04d.png' "$i")"
  done
  rm -rf "$data/drawn"
  echo "$stamp" >"$data/stamp"
fi
cat "$data"/jpeg/* "$data"/png/* "$data"/stored/* >/dev/null  # into the page cache
echo "JPEG ${n_jpg} × ${jpg_size[0]}x${jpg_size[1]}, PNG ${n_png} × ${png_size[0]}x${png_size[1]}," \
  "heavy ${n_heavy} × ${heavy_size[0]}x${heavy_size[1]} stored PNG ($n_drawn drawn), ready at $(elapsed) s"

# ---- timing ----------------------------------------------------------------------------
# timed LOG OUTDIR COMMAND...: runs it into an empty OUTDIR; sets run_s (wall
# seconds), run_rc, run_files (files written), run_rate (gpuimg's own rate
# from its summary line's count and seconds) and run_split (its
# images-per-GPU line).
timed() {
  local log=$1 dir=$2
  shift 2
  rm -rf "$dir"
  local t0 t1
  t0=$(date +%s.%N)
  "$@" >"$log" 2>&1
  run_rc=$?
  t1=$(date +%s.%N)
  run_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
  run_files=$(find "$dir" -type f 2>/dev/null | wc -l)
  # From the count and the seconds: the line's own images/s has one decimal,
  # too coarse for a heavy set's 0.7 against 1.3.
  run_rate=$(sed -n 's/^gpuimg: \([0-9]*\) processed, .* in \([0-9.]*\) s (.*$/\1 \2/p' "$log" | tail -1 |
    awk '$2 > 0 { printf "%.3f", $1 / $2 }')
  run_split=$(sed -n 's/^gpuimg: \(GPU 0: .*\)$/\1/p' "$log" | tail -1)
  echo "  $(basename "$log" .log): rc $run_rc, $run_files files, ${run_s} s, gpuimg's rate ${run_rate:-?}"
}
rate() { awk -v n="$1" -v s="$2" 'BEGIN { printf "%.2f", n / s }'; }
best() { awk -v a="$1" -v b="$2" 'BEGIN { print (b == "" || a + 0 > b + 0) ? a : b }'; }

# Rows of the table: set|images|pipeline|codec|one|all|split|own_one|own_all
rows=()
table_head() {
  echo "| set | images | pipeline | codec limit, img/s | \`$one_text\`, img/s | \`$all_text\` ($all_word), img/s | × one | × codec limit | images per GPU |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---|"
}
add_row() {
  rows+=("$1")
  local set n pipe codec r1 ra split
  IFS='|' read -r set n pipe codec r1 ra split _ _ <<<"$1"
  table_md+=$(awk -v s="$set" -v n="$n" -v p="$pipe" -v c="$codec" -v a="$r1" -v b="$ra" -v sp="$split" 'BEGIN {
    x = (a > 0 && b > 0) ? sprintf("%.2f", b / a) : "n/a"; f = (c > 0 && b > 0) ? sprintf("%.2f", b / c) : "n/a"
    printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s |", s, n, p, (c > 0) ? c : "n/a", (a > 0) ? a : "n/a",
      (b > 0) ? b : "n/a", x, f, sp }')$'\n'
  save
}

# measure SET REPS CODEC_REPS WRITE_OPTS -- OPS...: the codec limit, then
# one and all alternately REPS times; keeps the last outputs of each in
# out/SET/one and out/SET/all, and checks they are the same bytes.
measure() {
  local set=$1 reps=$2 codec_reps=$3 write_opts
  read -r -a write_opts <<<"$4"
  shift 5
  local ops=("$@") in=$data/$set out=$work/out/$set
  local n
  n=$(find "$in" -type f | wc -l)
  local codec="" r1="" ra="" own1="" owna="" split="" bad=0 r
  say "$set: $n images, codec limit, then $one_text and $all_text, $reps each"
  for ((r = 1; r <= codec_reps; ++r)); do
    timed "$logs/$set-codec-$r.log" "$out/codec" "$gpuimg" "$in/" "$out/codec/" --device cpu "${write_opts[@]}"
    if [ "$run_rc" -ne 0 ] || [ "$run_files" -ne "$n" ]; then bad=1; else codec=$(best "$(rate "$n" "$run_s")" "$codec"); fi
  done
  rm -rf "$out/codec"
  for ((r = 1; r <= reps; ++r)); do
    timed "$logs/$set-one-$r.log" "$out/one" "$gpuimg" "$in/" "${ops[@]}" "$out/one/" "${write_opts[@]}" "${one[@]}"
    if [ "$run_rc" -ne 0 ] || [ "$run_files" -ne "$n" ]; then bad=1; else
      r1=$(best "$(rate "$n" "$run_s")" "$r1"); own1=$(best "$run_rate" "$own1"); fi
    timed "$logs/$set-all-$r.log" "$out/all" "$gpuimg" "$in/" "${ops[@]}" "$out/all/" "${write_opts[@]}" "${all[@]}"
    if [ "$run_rc" -ne 0 ] || [ "$run_files" -ne "$n" ]; then bad=1; else
      ra=$(best "$(rate "$n" "$run_s")" "$ra"); owna=$(best "$run_rate" "$owna"); split=${run_split:-$split}; fi
  done
  check "$set runs" "$bad" "every run exited 0 and wrote its $n files$([ $bad = 1 ] && echo ": NOT (logs/$set-*.log)")"
  local differ
  differ=$(diff -rq "$out/one" "$out/all" 2>&1 | tee "$logs/$set-diff.txt" | wc -l)
  check "$set identical" "$([ "$differ" -eq 0 ] && [ $bad = 0 ] && echo 0 || echo 1)" \
    "$all_text's $n outputs byte-identical to $one_text's$([ "$differ" -gt 0 ] && echo ": $differ differ (logs/$set-diff.txt)")"
  set_rates=("${codec:-0}" "${r1:-0}" "${ra:-0}" "${own1:-0}" "${owna:-0}" "${split:-}")
}

pipe_text() { local t="$*"; echo "\`$t\`"; }
ops_light=(--blur 3 --invert)

measure jpeg 3 2 "" -- "${ops_light[@]}"
add_row "JPEG ${jpg_size[0]}×${jpg_size[1]} q90|$n_jpg|$(pipe_text "${ops_light[@]}")|${set_rates[0]}|${set_rates[1]}|${set_rates[2]}|${set_rates[5]}|${set_rates[3]}|${set_rates[4]}"
measure png 3 2 "" -- "${ops_light[@]}"
add_row "PNG ${png_size[0]}×${png_size[1]}|$n_png|$(pipe_text "${ops_light[@]}")|${set_rates[0]}|${set_rates[1]}|${set_rates[2]}|${set_rates[5]}|${set_rates[3]}|${set_rates[4]}"

# ---- 4. one bad file among good ones ------------------------------------------------------
say "a truncated file among good ones, $all_text"
bad_in=$work/in-bad
rm -rf "$bad_in"
mkdir -p "$bad_in"
good=0
for f in $(cd "$data/jpeg" && ls | head -30) ; do ln "$data/jpeg/$f" "$bad_in/$f"; good=$((good + 1)); done
for f in $(cd "$data/png" && ls | head -6); do ln "$data/png/$f" "$bad_in/$f"; good=$((good + 1)); done
first_png=$(cd "$data/png" && ls | head -1)
head -c $(($(stat -c %s "$data/png/$first_png") / 2)) "$data/png/$first_png" >"$bad_in/p_cut.png"
out=$work/out/bad
timed "$logs/bad-file.log" "$out" "$gpuimg" "$bad_in/" "${ops_light[@]}" "$out/" "${all[@]}"
mentions=$(grep -c 'p_cut\.png' "$logs/bad-file.log")
bad_line=$(grep -m1 'p_cut\.png' "$logs/bad-file.log")
written_ok=0 missing=0 wrong=0
for f in $(cd "$bad_in" && ls); do
  [ "$f" = p_cut.png ] && continue
  ref=$work/out/jpeg/one/$f
  [ -f "$ref" ] || ref=$work/out/png/one/$f
  if [ ! -f "$out/$f" ]; then missing=$((missing + 1))
  elif cmp -s "$out/$f" "$ref"; then written_ok=$((written_ok + 1))
  else wrong=$((wrong + 1)); fi
done
leftovers=$(find "$out" -name '.gpuimg-tmp-*' -o -name 'p_cut*' 2>/dev/null | wc -l)
ok=$([ "$run_rc" -eq 1 ] && [ "$mentions" -eq 1 ] && [ "$written_ok" -eq "$good" ] && [ "$leftovers" -eq 0 ] &&
  grep -q "$good processed, 1 failed" "$logs/bad-file.log" && echo 0 || echo 1)
check "bad file" "$ok" "exit $run_rc (1 expected), named $mentions time(s) on stderr ('${bad_line:-none}'), $written_ok of $good good outputs identical to $one_text's ($missing missing, $wrong differ), $leftovers left over"

# ---- 5. SIGINT mid-batch --------------------------------------------------------------------
say "SIGINT mid-batch, $all_text"
out=$work/out/interrupted
rm -rf "$out"
mkdir -p "$out"
# A quarter of the PNG set written, then SIGINT. Started with job control
# on: a background job of a script otherwise starts with SIGINT ignored.
set -m
"$gpuimg" "$data/png/" "${ops_light[@]}" "$out/" "${all[@]}" >"$logs/sigint.log" 2>&1 &
pid=$!
set +m
for ((i = 0; i < 1200; ++i)); do
  kill -0 "$pid" 2>/dev/null || break
  [ "$(find "$out" -name '*.png' | wc -l)" -ge $((n_png / 4)) ] && break
  sleep 0.05
done
kill -INT "$pid" 2>/dev/null
wait "$pid"
int_rc=$?
int_written=$(find "$out" -name '*.png' | wc -l)
int_tmp=$(find "$out" -name '.gpuimg-tmp-*' | wc -l)
int_wrong=0
for f in $(cd "$out" && find . -name '*.png' | sed 's|^\./||'); do
  cmp -s "$out/$f" "$work/out/png/one/$f" || int_wrong=$((int_wrong + 1))
done
decodes=1
if [ "$int_written" -gt 0 ]; then
  probe=$(cd "$out" && ls | head -1)
  "$gpuimg" compare "$work/out/png/one/$probe" "$out/$probe" >"$logs/sigint-compare.log" 2>&1 && decodes=0
fi
ok=$([ "$int_rc" -eq 130 ] && [ "$int_tmp" -eq 0 ] && [ "$int_wrong" -eq 0 ] && [ "$decodes" -eq 0 ] &&
  [ "$int_written" -gt 0 ] && [ "$int_written" -lt "$n_png" ] && echo 0 || echo 1)
check "SIGINT" "$ok" "exit $int_rc (130 expected), $int_written of $n_png written (mid-batch: 0 < written < all), $int_wrong not identical to $one_text's, $int_tmp temporaries left, decodes: $([ $decodes = 0 ] && echo yes || echo NO)"

# ---- 6. shards, one process per GPU --------------------------------------------------------
say "--shard K/$nshards over $nshards concurrent processes"
out=$work/out/shards
rm -rf "$out"
pids=()
t0=$(date +%s.%N)
for ((k = 1; k <= nshards; ++k)); do
  env ${shard_env[k - 1]} "$gpuimg" "$data/jpeg/" "${ops_light[@]}" "$out/$k/" --shard "$k/$nshards" \
    "${shard_dev[@]}" --jobs "$shard_jobs" >"$logs/shard-$k.log" 2>&1 &
  pids+=($!)
done
shard_bad=0
for p in "${pids[@]}"; do wait "$p" || shard_bad=$((shard_bad + 1)); done
t1=$(date +%s.%N)
shard_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')
(cd "$work/out/jpeg/one" 2>/dev/null && find . -type f | sort) >"$logs/shard-expected.txt"
for ((k = 1; k <= nshards; ++k)); do (cd "$out/$k" 2>/dev/null && find . -type f); done | sort >"$logs/shard-union.txt"
twice=$(uniq -d "$logs/shard-union.txt" | wc -l)
sort -u "$logs/shard-union.txt" >"$logs/shard-union-once.txt"
missing=$(comm -23 "$logs/shard-expected.txt" "$logs/shard-union-once.txt" | wc -l)
extra=$(comm -13 "$logs/shard-expected.txt" "$logs/shard-union-once.txt" | wc -l)
differ=0
for ((k = 1; k <= nshards; ++k)); do
  for f in $(cd "$out/$k" 2>/dev/null && find . -type f); do
    cmp -s "$out/$k/$f" "$work/out/jpeg/one/$f" || differ=$((differ + 1))
  done
done
processed=$(cat "$logs"/shard-*.log | sed -n 's/^gpuimg: \([0-9]*\) processed.*/\1/p' | awk '{ s += $1 } END { print s + 0 }')
per_shard=$(for ((k = 1; k <= nshards; ++k)); do sed -n 's/^gpuimg: \([0-9]*\) processed.*/\1/p' "$logs/shard-$k.log"; done | paste -sd+)
ok=$([ "$shard_bad" -eq 0 ] && [ "$twice" -eq 0 ] && [ "$missing" -eq 0 ] && [ "$extra" -eq 0 ] && [ "$differ" -eq 0 ] &&
  [ "$processed" -eq "$n_jpg" ] && echo 0 || echo 1)
check "shards" "$ok" "$nshards processes ($per_shard = $processed of $n_jpg), $shard_bad failed; union against the one-process set: $missing missing, $extra extra, $twice written twice, $differ not identical"
shard_rate=$([ "$shard_bad" -eq 0 ] && rate "$n_jpg" "$shard_s" || echo n/a)
echo "  $nshards shard processes together: $shard_s s, $shard_rate images/s"

# ---- the heavy set --------------------------------------------------------------------------
say "GPU-heavy set: calibrating P on one ${heavy_size[0]}x${heavy_size[1]} image"
P=(--blur 25 --sharpen 1 --blur 64 --sharpen 0.5 --blur 9)
cal=()
for ((i = 0; i < 4; ++i)); do cal+=("${P[@]}"); done
"$gpuimg" "$data/heavy/h_0000.png" "${cal[@]}" "$work/out/calibration.png" --png-level 0 "${solo[@]}" -v \
  >"$logs/calibration.log" 2>&1
# The first P pays for loading the kernels: the later three count.
p_ms=$(sed -n 's/^gpuimg: stage \([0-9]*\): .* \([0-9][0-9.]*\) ms.*$/\1 \2/p' "$logs/calibration.log" |
  awk '$1 > 5 { s += $2 } END { if (NR >= 20) printf "%.3f", s / 3 }')
up_ms=$(sed -n 's/^gpuimg: upload \([0-9.]*\) ms$/\1/p' "$logs/calibration.log")
down_ms=$(sed -n 's/^gpuimg: download \([0-9.]*\) ms$/\1/p' "$logs/calibration.log")
decode_ms=$(sed -n 's/^gpuimg: .*, decoded in \([0-9.]*\) ms$/\1/p' "$logs/calibration.log")
if [ -z "$p_ms" ] || awk -v p="$p_ms" 'BEGIN { exit !(p <= 0) }'; then
  tail -5 "$logs/calibration.log"
  check "heavy calibration" 1 "no stage times from -v (logs/calibration.log): the heavy set is left out"
  k=0 reps=0 heavy_rates=(0 0 0 0 0 "")
else
  # Repeats and length cut to what the budget leaves: one run of each costs
  # about S (one) + S / GPUs (all) + 3 s; 15 s are kept for the end.
  g=$([ $dry = 1 ] && echo 2 || echo "$gpus")
  reps=2
  fits() { awk -v s="$1" -v r="$2" -v g="$g" -v l="$(left)" 'BEGIN { exit !(r * (s + s / g + 3) + 5 <= l - 15) }'; }
  fits "$heavy_seconds" 2 || reps=1
  if ! fits "$heavy_seconds" 1; then
    short=$(awk -v g="$g" -v l="$(left)" 'BEGIN { s = (l - 23) / (1 + 1 / g); printf "%d", s < 5 ? 5 : s }')
    note "the budget leaves $(left) s: the heavy run aims at $short s, not $heavy_seconds"
    heavy_seconds=$short
  fi
  k=$(awk -v s="$heavy_seconds" -v n="$n_heavy" -v p="$p_ms" 'BEGIN { k = int(s * 1000 / (n * p) + 0.5); print k < 1 ? 1 : k }')
  heavy=()
  for ((i = 0; i < k; ++i)); do heavy+=("${P[@]}"); done
  echo "P: ${p_ms} ms of stages on one image (upload ${up_ms:-?} ms, download ${down_ms:-?} ms, decode ${decode_ms:-?} ms);" \
    "k = $k, so about $(awk -v k="$k" -v p="$p_ms" 'BEGIN { printf "%.0f", k * p }') ms of stages an image"

  measure heavy "$reps" 1 "--png-level 0" -- "${heavy[@]}"
  heavy_rates=("${set_rates[@]}")
  add_row "PNG ${heavy_size[0]}×${heavy_size[1]} stored|$n_heavy|P × $k ($((5 * k)) stages)|${set_rates[0]}|${set_rates[1]}|${set_rates[2]}|${set_rates[5]}|${set_rates[3]}|${set_rates[4]}"
fi

# ---- 7. the fragment, the summary -----------------------------------------------------------
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2f", b / a; else printf "n/a" }'; }
heavy_x=$(ratio "${heavy_rates[1]}" "${heavy_rates[2]}")
heavy_own_x=$(ratio "${heavy_rates[3]}" "${heavy_rates[4]}")
target=$(awk -v x="$heavy_x" 'BEGIN { print (x == "n/a") ? "not measured" : (x + 0 >= 1.9) ? "met" : "NOT met" }')
if [ $dry = 1 ]; then
  target_line="TARGET not measured: a CPU dry run (heavy set ${heavy_x}× of --jobs 1 on $cores threads)"
elif [ "$gpus" -lt 2 ]; then
  target_line="TARGET not measured: one GPU (heavy set ${heavy_x}×, GPU 0 against itself)"
else
  target_line="TARGET heavy set, $gpus GPUs against one: ${heavy_x}× (≥ 1.9× asked on two: $target; by gpuimg's own rate ${heavy_own_x}×)"
fi
jpeg_one=$(IFS='|' read -r _ _ _ _ a _ <<<"${rows[0]}"; echo "$a")
os=$(. /etc/os-release && echo "$PRETTY_NAME")
# The device tool's copy of the repository may keep an older HEAD than the
# tree it carries: GPUIMG_COMMIT, where the caller sets it, names the tree.
commit=${GPUIMG_COMMIT:-$(git rev-parse --short HEAD 2>/dev/null || echo "unknown commit")}
if [ $dry = 1 ]; then title="CPU dry run (no GPU: the numbers measure nothing)"; else title="$gpus × $gpu_name"; fi
size() { echo "${1}x${2}"; }
{
  echo "## Batch across GPUs: $title"
  echo
  echo "\`scripts/multi_gpu.sh$([ $dry = 1 ] && echo " --cpu-dry-run")\`, $(date -u '+%Y-%m-%d %H:%M UTC'), at $commit, on $machine_line, $os. $version."
  [ $dry = 0 ] && { echo; echo "GPUs (nvidia-smi index, name, driver, memory): $(paste -sd';' "$logs/device.txt" | sed 's/;/; /g')."; }
  echo
  echo "Sets: JPEG, $n_jpg of $(size "${jpg_size[@]}") at quality 90, and PNG, $n_png of $(size "${png_size[@]}"): the batch"
  echo "benchmark's photo-like images (\`gpuimg_bench_images\`, as scripts/bench_batch.sh draws them), fewer."
  echo "Heavy: $n_drawn images of $(size "${heavy_size[@]}") from the same drawer, rewritten as PNG with \`--png-level 0\`"
  echo "(stored, so decoding one took ${decode_ms:-?} ms) and linked under $n_heavy names, written with \`--png-level 0\` too,"
  echo "through P = \`${P[*]}\` repeated k = $k times: one P on one image"
  if [ $dry = 1 ]; then
    echo "took $p_ms ms in its stages on the CPU (\`-v\`); k is taken from that for about $heavy_seconds s of stages with \`--jobs 1\`."
  else
    echo "took $p_ms ms in its stages against ${up_ms:-?} ms to upload it and ${down_ms:-?} ms to download it (\`-v\`), so P alone"
    echo "is bounded by the copies and the codecs; k is taken from that for about $heavy_seconds s of stages on one GPU."
  fi
  echo
  echo "Commands, each into an empty OUT/, inputs in the page cache, \`$one_text\` and \`$all_text\` alternately;"
  echo "images per second over the whole process (start to exit), best of 3 runs (heavy: of $reps):"
  echo
  echo '    gpuimg JPEG/ --blur 3 --invert OUT/ '"$one_text"'            # and '"$all_text"'; the same for PNG/'
  echo '    gpuimg JPEG/ OUT/ --device cpu                             # the codec limit: decoding and encoding alone, '"$cores"' threads'
  echo '    P="'"${P[*]}"'"'
  echo '    gpuimg HEAVY/ $(for i in $(seq '"$k"'); do echo $P; done) OUT/ --png-level 0 '"$one_text"'   # and '"$all_text"
  echo '    gpuimg HEAVY/ OUT/ --png-level 0 --device cpu              # its codec limit'
  if [ $dry = 1 ]; then
    echo '    for K in 1 2; do gpuimg JPEG/ --blur 3 --invert OUT_$K/ --shard $K/2 --device cpu --jobs '"$shard_jobs"' & done'
  else
    echo '    for K in $(seq '"$nshards"'); do CUDA_VISIBLE_DEVICES='"$([ "$gpus" -ge 2 ] && echo '$((K - 1))' || echo 0)"' gpuimg JPEG/ --blur 3 --invert OUT_$K/ --shard $K/'"$nshards"' --device cuda --jobs '"$shard_jobs"' & done'
  fi
  echo
  table_head
  printf '%s' "$table_md"
  echo
  echo "Target: ${target_line#TARGET }. gpuimg's own rate is its summary line's: from its start to its last write, without the"
  echo "process's start and CUDA's teardown. The $nshards \`--shard\` processes together, JPEG set: $shard_rate images/s, $(ratio "$jpeg_one" "$shard_rate")× \`$one_text\`."
  echo
  echo "Checks: $(printf '%s\n' "${summary[@]}" | grep -c '^PASS') passed, $(printf '%s\n' "${summary[@]}" | grep -c '^FAIL') failed:"
  echo
  printf '%s\n' "${summary[@]}" | sed 's/^/- /'
} >"$logs/perf-multi-gpu.md"

say "summary"
summary+=("$target_line" "RESULT: $([ $status -eq 0 ] && echo PASS || echo FAIL) in $(elapsed) s")
save
cat "$logs/summary.txt"
[ -n "${OUT:-}" ] && echo "  (\$OUT: perf-multi-gpu.md, multi-gpu-summary.txt, multi-gpu-logs.tar.gz)"
[ $keep = 1 ] || rm -rf "$work/out" "$work/in-bad"
exit $status
