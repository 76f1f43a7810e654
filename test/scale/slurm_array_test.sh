#!/usr/bin/env bash
# scripts/slurm/gpuimg-array.sbatch on a real Slurm: munged, slurmctld and
# slurmd started here on localhost with a generated slurm.conf (state,
# spool, logs and the munge socket in a temporary folder, ports that are
# free), a 4-task array over a folder holding one bad file, then: every good
# output once and byte-identical to a one-process run, the bad file reported
# by exactly one task, the merged report right, and the array submitted
# again processing nothing. The daemons are stopped by their pids. Skipped,
# saying why, only where Slurm or munge is not installed or will not start.
# Usage: slurm_array_test.sh GPUIMG DATA_DIR
set -uo pipefail
GPUIMG=$(realpath "$1") DATA=$(realpath "$2")
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
source "$(dirname "$0")/scale_common.sh"
for tool in munged mungekey slurmctld slurmd sbatch squeue sinfo scontrol; do
  command -v "$tool" >/dev/null ||
    skip "$tool is not installed (Debian: apt-get install slurm-wlm munge; scripts/setup.sh --tests installs them)"
done

T=$(mktemp -d)
chmod 755 "$T"  # munged wants every folder above its socket searchable by all
WORK=$T/work
pids=()
stop_daemons() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$T"
}
trap stop_daemons EXIT
trap 'exit 143' TERM INT  # so that ctest's timeout still stops the daemons
logs() { tail -n 20 "$T"/log/* 2>/dev/null; }

# A TCP port no one listens on (ports in /proc/net/tcp are hex).
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 40000))
    grep -qi ":$(printf %04X "$p") " /proc/net/tcp /proc/net/tcp6 2>/dev/null || { echo "$p"; return; }
  done
}

mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$WORK"
mungekey --create --keyfile="$T/munge/munge.key" || skip "mungekey could not make a key"
munged -F --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" --pid-file="$T/munge/munged.pid" \
  --log-file="$T/log/munged.log" --seed-file="$T/munge/munged.seed" >"$T/log/munged.out" 2>&1 &
pids+=($!)

user=$(id -un)
cat >"$T/slurm.conf" <<CONF
ClusterName=gpuimgtest
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$(free_port)
SlurmdPort=$(free_port)
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
SchedulerType=sched/builtin
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
ReturnToService=2
SlurmdParameters=config_overrides
NodeName=gpuimgnode NodeHostname=localhost NodeAddr=127.0.0.1 CPUs=4 State=UNKNOWN
PartitionName=gpuimgtest Nodes=gpuimgnode Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF=$T/slurm.conf
for i in $(seq 50); do [ -S "$T/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.socket" ] || skip "munged did not start: $(logs)"
slurmctld -D -f "$SLURM_CONF" >"$T/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N gpuimgnode -f "$SLURM_CONF" >"$T/log/slurmd.out" 2>&1 &
pids+=($!)
for i in $(seq 150); do
  [ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ] && break
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null || skip "a Slurm or munge daemon would not start: $(logs)"; done
  sleep 0.2
done
[ "$(sinfo -h -N -o %T 2>/dev/null)" = idle ] || fail "the node never came up idle: $(sinfo -N 2>&1) $(logs)"

make_scale_input
make_reference
cd "$WORK"
export GPUIMG

# Submits the 4-task array and waits (a minute at most) for every task to end.
run_array() {
  local job i
  job=$(sbatch --parsable --array=1-4 --cpus-per-task=1 --output="$WORK/$1-%a.log" \
    "$ROOT/scripts/slurm/gpuimg-array.sbatch" in/ out/ "$1/" "${OPS[@]}") || fail "sbatch refused the array: $(logs)"
  for i in $(seq 600); do
    [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
    sleep 0.1
  done
  [ -z "$(squeue -h -j "$job")" ] || fail "the array did not finish in a minute: $(squeue) $(logs)"
  JOB_STATES=$(scontrol -o show job "$job" | grep -o 'JobState=[A-Z]*' | sort | uniq -c | tr -s ' \n' ' ')
}

run_array first
expect_same_as_reference out
[ "$(grep -l 'in/sub/bad.png' first-*.log | wc -l)" -eq 1 ] || fail "bad.png named in other than one task's log"
[ "$(grep -l '"file": "in/sub/bad.png"' first/*.json | wc -l)" -eq 1 ] || fail "bad.png in other than one report"
[ "$JOB_STATES" = " 3 JobState=COMPLETED 1 JobState=FAILED " ] || fail "task states: $JOB_STATES"
for k in 1 2 3 4; do
  grep -q "\"shard\": {\"index\": $k, \"count\": 4}" "first/$k.json" || fail "first/$k.json is not shard $k/4"
done
merged_json first/*.json >first.json
[ "$MERGE_STATUS" -eq 1 ] || fail "report merge exited $MERGE_STATUS, not 1"
for field in files:13 processed:12 failed:1 skipped:0 complete:true; do
  [ "$(json_field first.json "${field%%:*}")" = "${field#*:}" ] ||
    fail "merged ${field%%:*}: $(json_field first.json "${field%%:*}"), not ${field#*:}"
done

# Submitted again: every good output is there, so nothing is processed and
# none is rewritten; the bad file fails again, in one task.
stamps() { find out -type f -printf '%P %T@\n' | sort; }
before=$(stamps)
run_array again
merged_json again/*.json >again.json
for field in files:13 processed:0 failed:1 skipped:12; do
  [ "$(json_field again.json "${field%%:*}")" = "${field#*:}" ] ||
    fail "resubmitted: merged ${field%%:*}: $(json_field again.json "${field%%:*}"), not ${field#*:}"
done
[ "$(stamps)" = "$before" ] || fail "the resubmitted array rewrote outputs"
expect_same_as_reference out
echo "slurm: a 4-task array matched the one-process run, bad.png reported once, resubmitted it processed nothing"
