#!/usr/bin/env bash
# Regenerates every golden in data/golden/ from data/golden/cases.txt
# (`NAME | INPUT | ARGS...`) with the built binary on the CPU, and removes
# goldens no case names. Run it after a deliberate change to what an op
# computes, then look at what changed before committing: the tests trust
# these files exactly. GPUIMG=path overrides the binary (default build/gpuimg).
set -euo pipefail
shopt -s nullglob
cd "$(dirname "$0")/.."
bin=${GPUIMG:-build/gpuimg}
dir=data/golden
if [ ! -x "$bin" ]; then
  echo "update_goldens: no binary at $bin (run scripts/build.sh first)" >&2
  exit 1
fi

declare -A named=()
while IFS= read -r line || [ -n "$line" ]; do
  read -r -a all <<<"$line"
  [ ${#all[@]} -eq 0 ] || [[ ${all[0]} == \#* ]] && continue
  IFS='|' read -r name input args <<<"$line"
  read -r name <<<"$name"
  read -r input <<<"$input"
  read -r -a ops <<<"$args"
  if ! "$bin" "data/$input" "${ops[@]}" --device cpu "$dir/$name.png"; then
    echo "update_goldens: case '$name' failed" >&2
    exit 1
  fi
  named[$name]=1
  echo "$dir/$name.png"
done <"$dir/cases.txt"

for golden in "$dir"/*.png; do
  name=$(basename "$golden" .png)
  if [ -z "${named[$name]:-}" ]; then
    rm -- "$golden"
    echo "update_goldens: removed $golden, which no case names"
  fi
done
