# What the scale-out tests share (sourced): a folder of images drawn by
# gpuimg itself from data/scene.png, of a few sizes and depths, with one
# bad file among them, and the one-process run they are checked against.
# Needs GPUIMG (the binary), DATA (the repo's data/) and WORK (a temp dir).

skip() {  # ctest counts exit 77 as skipped (SKIP_RETURN_CODE)
  echo "SKIPPED: $*"
  exit 77
}
fail() {
  echo "FAILED: $*" >&2
  exit 1
}

# WORK/in: 12 good images in two folders and sub/bad.png, random bytes.
make_scale_input() {
  mkdir -p "$WORK/in/sub"
  local i
  for i in 1 2 3 4 5 6; do
    "$GPUIMG" "$DATA/scene.png" --blur "$i" "$WORK/in/scene$i.png" --device cpu
    "$GPUIMG" "$DATA/scene16.png" --resize "$((40 + i))x$((30 + i))" "$WORK/in/sub/s16-$i.png" --device cpu
  done
  head -c 4000 /dev/urandom >"$WORK/in/sub/bad.png"
}

# WORK/ref: the same operations in one process, every good file once.
OPS=(--blur 2 --invert --device cpu --jobs 2)
make_reference() {
  "$GPUIMG" "$WORK/in/" "${OPS[@]}" "$WORK/ref/" --quiet 2>/dev/null
  [ "$?" -eq 1 ] || fail "the one-process run should fail bad.png alone"
  [ "$(find "$WORK/ref" -type f | wc -l)" -eq 12 ] || fail "the one-process run wrote $(find "$WORK/ref" -type f | wc -l) files"
}

# Every good output exactly once (the same files, byte for byte) and nothing else.
expect_same_as_reference() {
  diff -r "$WORK/ref" "$1" || fail "$1 differs from the one-process run"
}

# `gpuimg report merge` of the reports named: its JSON, and its exit status in MERGE_STATUS.
merged_json() {
  MERGE_STATUS=0
  "$GPUIMG" report merge "$@" --json 2>"$WORK/merge.err" || MERGE_STATUS=$?
}

# A top-level number or boolean of a report or of merge's JSON, which puts
# each top-level member on its own line, indented two spaces; the gtest
# suite reads the same documents with a strict parser.
json_field() {
  sed -n "s/^  \"$2\": \([^,]*\),\{0,1\}\$/\1/p" "$1"
}
