#!/usr/bin/env bash
# The README's GNU parallel recipe, on this machine with two shards: every
# good output once and byte-identical to a one-process run, the bad file
# reported by one shard, the merged report right, --resume running nothing
# once both shards are logged, and a shard taken out of the job log (as if
# it had been killed) rerun alone, redoing only its missing output.
# Usage: parallel_shards_test.sh GPUIMG DATA_DIR
set -uo pipefail
GPUIMG=$(realpath "$1") DATA=$(realpath "$2")
source "$(dirname "$0")/scale_common.sh"
command -v parallel >/dev/null || skip "GNU parallel is not installed (Debian: apt-get install parallel; scripts/setup.sh --tests installs it)"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
make_scale_input
make_reference
cd "$WORK"

N=2
shards() {
  parallel --joblog jobs.log --resume -j "$N" \
    "$GPUIMG" in/ "${OPS[@]}" out/ --shard {}/$N --skip-existing --quiet --report reports/{}.json \
    ::: $(seq 1 $N) 2>>shards.err
}
mkdir reports
shards
[ "$?" -eq 1 ] || fail "parallel should exit 1: one shard failed bad.png ($(cat shards.err))"
expect_same_as_reference out
[ "$(grep -c 'in/sub/bad.png' shards.err)" -eq 1 ] || fail "bad.png named other than once: $(cat shards.err)"
[ "$(grep -l '"file": "in/sub/bad.png"' reports/*.json | wc -l)" -eq 1 ] || fail "bad.png in other than one report"

merged_json reports/*.json >merged.json
[ "$MERGE_STATUS" -eq 1 ] || fail "report merge exited $MERGE_STATUS, not 1"
grep -q '^gpuimg: in/sub/bad.png: .*(shard [12]/2)$' "$WORK/merge.err" || fail "merge did not name bad.png: $(cat "$WORK/merge.err")"
for field in files:13 processed:12 failed:1 skipped:0 complete:true; do
  [ "$(json_field merged.json "${field%%:*}")" = "${field#*:}" ] ||
    fail "merged ${field%%:*} is $(json_field merged.json "${field%%:*}"), not ${field#*:}"
done

# Both shards logged: --resume starts neither.
cp reports/1.json first-run.json
shards
[ "$(wc -l <jobs.log)" -eq $((N + 1)) ] || fail "--resume ran a logged shard again: $(cat jobs.log)"
cmp -s reports/1.json first-run.json || fail "--resume rewrote shard 1's report"

# Shard 2 taken out of the log, one of its outputs gone: it alone reruns,
# and --skip-existing has it redo that output and nothing else.
grep -v "shard 2/$N" jobs.log >jobs.kept && mv jobs.kept jobs.log
rm out/scene2.png  # the second of the sorted inputs: shard 2's
shards
cmp -s reports/1.json first-run.json || fail "shard 1 ran again"
[ "$(json_field reports/2.json processed)" -eq 1 ] || fail "the rerun shard processed $(json_field reports/2.json processed), not 1"
expect_same_as_reference out
echo "parallel: 2 shards, one bad file reported once, resume reran only the shard taken out of the log"
