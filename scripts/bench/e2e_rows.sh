# Sourced by the end-to-end benchmarks (bench_thumbnail.sh,
# bench_catalogue_cpu.sh): their input, and whole processes timed from the
# shell, one row each, printed as a markdown table against the first row.
# Needs $runs and $build.

# photo_input SCRIPT [W H]: checks that $build has gpuimg and the image
# maker, then draws a photo-like JPEG (quality 90; by default the
# 24-megapixel 6000x4000) into a folder removed at exit; sets $gpuimg, $tmp
# and $in.
photo_input() {
  gpuimg=$build/gpuimg
  local maker=$build/test/gpuimg_bench_images tool
  for tool in "$gpuimg" "$maker"; do
    [ -x "$tool" ] || { echo "$1: $tool missing: cmake --build $build --target gpuimg gpuimg_bench_images" >&2; exit 2; }
  done
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  "$maker" "$tmp" photo 1 "${2:-6000}" "${3:-4000}" jpg 90 >/dev/null
  in=$(ls "$tmp"/photo*.jpg)
}

# median_ms CMD...: the median wall time of $runs runs, after a warm-up.
median_ms() {
  "$@" >/dev/null 2>&1 || return 1
  local times=()
  for _ in $(seq "$runs"); do
    local t0 t1
    t0=$(date +%s%N)
    "$@" >/dev/null 2>&1
    t1=$(date +%s%N)
    times+=($(((t1 - t0) / 1000000)))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'
}

rows=()
row() {  # NAME COMMAND-TEXT CMD...
  local name=$1 text=$2
  shift 2
  local ms
  if ms=$(median_ms "$@"); then rows+=("$name|$text|$ms"); else rows+=("$name|$text|failed"); fi
}

# print_rows BASE-NAME: the rows so far as a table, each against the first;
# then forgets them.
print_rows() {
  echo "| tool | command | ms | x $1 |"
  echo "|---|---|---:|---:|"
  local base
  base=$(printf '%s\n' "${rows[0]}" | cut -d'|' -f3)
  for r in "${rows[@]}"; do
    IFS='|' read -r name text ms <<<"$r"
    local ratio=-
    [[ $ms =~ ^[0-9]+$ && $base =~ ^[0-9]+$ ]] && ratio=$(awk -v a="$ms" -v b="$base" 'BEGIN {printf "%.2f", a / b}')
    echo "| $name | \`$text\` | $ms | $ratio |"
  done
  rows=()
}

imagemagick_version() { /usr/bin/convert -version | sed -n '1s/Version: ImageMagick \([^ ]*\).*/\1/p'; }
vips_version() { vips --version 2>/dev/null | sed 's/vips-//'; }
