# shellcheck shell=bash
# Sourced by scripts/sanitize.sh and scripts/tsan.sh: a CPU-only build with
# sanitizer flags in a folder of its own, and the reports its runtime leaves.

# sanitizer_build DIR LOGS FLAGS [CMAKE ARGS...]: configures and builds DIR
# with FLAGS on every compile and link, with $CC and $CXX. The AVX2 clones
# are off: the loader runs their resolvers before the sanitizer's runtime is
# up. Prints the log's tail and returns 1 when the build fails.
sanitizer_build() {
  local dir=$1 logs=$2 flags=$3
  shift 3
  if ! { cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DGPUIMG_WITH_CUDA=OFF -DGPUIMG_AVX2_CLONES=OFF \
           -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$flags" -DCMAKE_SHARED_LINKER_FLAGS="$flags" "$@" &&
         cmake --build "$dir" -j "$(nproc)"; } >"$logs/build.log" 2>&1; then
    tail -40 "$logs/build.log"
    echo "build FAILED (see $logs/build.log)"
    return 1
  fi
}

# The symbolizer option, for file and line in reports; empty without one.
symbolizer_option() {
  local s
  s=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
  echo "${s:+external_symbolizer_path=$s}"
}

# report_options LOGS: runtime options that make a report fail its process
# and also leave it in LOGS/reports/: a CLI test that expects the binary to
# fail (exit 1 on a bad input) would otherwise pass over a report made in
# the child.
report_options() {
  mkdir -p "$1/reports"
  echo "abort_on_error=1:log_path=$PWD/$1/reports/report:$(symbolizer_option)"
}

# show_reports LOGS: the head of each report left in LOGS/reports/; returns
# 1 when there is any.
show_reports() {
  local reports=("$1"/reports/report.*)
  [ -e "${reports[0]}" ] || return 0
  printf '\n=== sanitizer reports (%d)\n' "${#reports[@]}"
  for r in "${reports[@]}"; do
    echo "--- $r"
    head -30 "$r"
  done
  return 1
}
