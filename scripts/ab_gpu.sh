#!/usr/bin/env bash
# A/B of kernel changes on the GPU machine, in one device call: the tree as
# it is ("base") and the tree with each PATCH applied (patch -p1), each
# built into its own benchmark binary, timed in turn RUNS times so that
# the machine's drift falls on all of them alike, then the GPU tests and
# the sanitizers on the last variant. A variant is named for its patch's
# file name. Prints a table of each row's times (min-max over the runs),
# and, for SASS, each variant's opcode counts of the kernels named.
#
#   ONLY=median_R=1,sharpen_F=1 bash scripts/ab_gpu.sh a.patch b.patch
#
# ONLY       gpuimg_bench's entries (op names or labels; required)
# RUNS       times each variant is timed (3); REPS: gpuimg_bench's runs a row (10)
# SASS       "source.cu:REGEX ...": the opcode counts of the kernels in that
#            source's object whose mangled names match REGEX (cuobjdump)
# TESTS      gtest filter run on the last variant (none if empty)
# SAN        gtest filter for memcheck and racecheck on it (none if empty)
# AB_SECONDS the call's budget (540): a step that would pass it is skipped
#            and named; the table prints what was timed
# Results also land in $OUT (ab.tsv, sass.txt, a few logs: the device tool
# brings back few files; the SASS listings stay in build-ab/sass). Like
# gpu_suite.sh, it needs scripts/device_deps.sh's .carry there.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
[ -n "${ONLY:-}" ] || { echo "ab_gpu.sh: set ONLY to the benchmark entries to time" >&2; exit 2; }
out=${OUT:-build-ab/out}
mkdir -p "$out" build-ab/sass
: >"$out/sass.txt"
deadline=$((SECONDS + ${AB_SECONDS:-540}))
stb_dir=${GPUIMG_STB_INCLUDE_DIR:-$PWD/.carry}
[ -d .carry/lib/pkgconfig ] && export PKG_CONFIG_PATH=$PWD/.carry/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
generator=()
command -v ninja >/dev/null && generator=(-G Ninja)
log=$out/build.log

variants=(base)
for p in "$@"; do
  [ -f "$p" ] || { echo "ab_gpu.sh: no patch $p" >&2; exit 2; }
  patch -p1 --dry-run -s <"$p" >/dev/null || { echo "ab_gpu.sh: $p does not apply to this tree" >&2; exit 2; }
  variants+=("$(basename "${p%.*}")")
done
patches=("" "$@")
apply() { [ -z "${patches[$1]}" ] || patch -p1 -s "$2" <"${patches[$1]}"; }

# The opcode counts of the functions matching $2 in SASS listing $1.
opcodes() {
  awk -v re="$2" '/Function :/ { on = $0 ~ re } on && /^ *\/\*[0-9a-f]+\*\/ / {
      line = $0; sub(/^ *\/\*[0-9a-f]+\*\/ +/, "", line); sub(/^@!?U?P[0-9T] +/, "", line)
      split(line, t, /[ ;]/); n[t[1]]++; total++ }
    END { for (k in n) print n[k], k; print total, "(all)" }' "$1" | sort -nr
}

cmake -S . -B build-ab "${generator[@]}" -DCMAKE_BUILD_TYPE=Release -DGPUIMG_WITH_OPENCV=OFF \
  -DGPUIMG_STB_INCLUDE_DIR="$stb_dir" >"$log" 2>&1 || { tail -20 "$log"; exit 1; }
for i in "${!variants[@]}"; do
  v=${variants[$i]}
  apply "$i" -N
  built=1
  cmake --build build-ab -j "$(nproc)" --target gpuimg_bench >>"$log" 2>&1 || built=0
  [ $built = 1 ] && cp build-ab/test/gpuimg_bench "build-ab/bench_$v"
  for spec in ${SASS:-}; do
    obj=$(find build-ab -name "${spec%%:*}.o" | head -1)
    [ -n "$obj" ] && cuobjdump -sass "$obj" >"build-ab/sass/$v.${spec%%:*}.sass" 2>/dev/null &&
      echo "SASS $v ${spec%%:*}: $(opcodes "build-ab/sass/$v.${spec%%:*}.sass" "${spec#*:}" | head -12 | tr '\n' ' ')" \
        >>"$out/sass.txt"
  done
  apply "$i" -R
  [ $built = 1 ] || { tail -30 "$log"; echo "ab_gpu.sh: variant $v did not build"; exit 1; }
done
echo "built ${variants[*]} in $SECONDS s"

: >"$out/ab.tsv"
for run in $(seq "${RUNS:-3}"); do
  for v in "${variants[@]}"; do
    if [ $((deadline - SECONDS)) -lt 60 ]; then
      echo "ab_gpu.sh: run $run of $v and after skipped: the budget is spent"
      break 2
    fi
    GPUIMG_BENCH_PEERS=0 "build-ab/bench_$v" "${REPS:-10}" "$ONLY" 2>/dev/null |
      awk -F'\t' -v v="$v" '$4 == "gpuimg" || $1 == "copy" { print v "\t" $1 "\t" $2 "\t" $3 "\t" $6 }' >>"$out/ab.tsv"
  done
done

if [ -n "${TESTS:-}${SAN:-}" ]; then
  last=$((${#variants[@]} - 1))
  apply "$last" -N
  if cmake --build build-ab -j "$(nproc)" --target gpuimg_tests >>"$log" 2>&1; then
    [ -n "${TESTS:-}" ] && timeout $((deadline - SECONDS > 10 ? deadline - SECONDS : 10)) \
      build-ab/test/gpuimg_tests --gtest_filter="$TESTS" >"$out/tests.log" 2>&1
    echo "tests on ${variants[$last]}: exit $? $(grep -E '^\[  (PASSED|FAILED) ' "$out/tests.log" | tr '\n' ' ')"
    for tool in memcheck racecheck; do
      [ -n "${SAN:-}" ] || break
      timeout $((deadline - SECONDS > 10 ? deadline - SECONDS : 10)) compute-sanitizer --tool $tool --error-exitcode 99 \
        build-ab/test/gpuimg_tests --gtest_filter="$SAN" >"$out/$tool.log" 2>&1
      echo "$tool on ${variants[$last]}: exit $? $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY' "$out/$tool.log" | tail -1)"
    done
  else
    echo "tests did not build: $log"
  fi
  apply "$last" -R
fi

echo
echo "=== A/B, $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1), ms (min-max over the runs)"
awk -F'\t' -v names="${variants[*]}" 'BEGIN { nv = split(names, vs, " ") }
  { k = $2 "\t" $3 "\t" $4; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
    key = k "\t" $1; if (!(key in lo) || $5 + 0 < lo[key]) lo[key] = $5 + 0; if (!(key in hi) || $5 + 0 > hi[key]) hi[key] = $5 + 0 }
  END { for (i = 1; i <= n; i++) { split(order[i], f, "\t"); line = sprintf("%-28.28s %-9s %-6s", f[1], f[2], f[3])
      for (j = 1; j <= nv; j++) { key = order[i] "\t" vs[j]; if (key in lo) line = line sprintf("  %s %s-%s", vs[j], lo[key], hi[key]) }
      print line } }' "$out/ab.tsv"
cat "$out/sass.txt"
echo "total $SECONDS s"
