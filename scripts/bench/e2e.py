#!/usr/bin/env python3
"""Timing and reporting for scripts/bench_e2e.sh (standard library only).

  e2e.py time RESULTS LABEL INPUT OUTPUT -- CMD... [::: CMD...]
      (OUTPUT - for a command that writes no image)
      Runs the command line(s) once, one after another, and appends one JSON
      line to RESULTS: the whole-process wall time (fork to exit, as the
      shell sees it) and its split. Splits come from gpuimg's -v lines, from
      peers' `split NAME MS` lines on stderr, or, for several commands, from
      each command's own wall time. bench_e2e.sh times every tool once per
      round, so that all meet the same load from the rest of the machine.
  e2e.py summary RESULTS
      Prints each label's and input's median wall time and splits.
  e2e.py report RESULTS REFERENCE_LABEL GPUIMG
      Prints the Markdown table of RESULTS, one row per label and input,
      each output compared with REFERENCE_LABEL's for the same input by
      `GPUIMG compare --json`, then the exact command lines, with paths
      shortened to file names.
"""
import json
import os
import re
import statistics
import subprocess
import sys
import time

GPUIMG_LINES = {
    "decode": re.compile(r"decoded in ([\d.]+) ms"),
    "ready": re.compile(r"ready ([\d.]+) ms after start"),
    "upload": re.compile(r"gpuimg: upload ([\d.]+) ms"),
    "download": re.compile(r"gpuimg: download ([\d.]+) ms"),
    "encode": re.compile(r"encoded and written in ([\d.]+) ms"),
    "total": re.compile(r"([\d.]+) ms in all"),
}
STAGE = re.compile(r"gpuimg: stage \d+: +(\S+).*?([\d.]+) ms$")
PEER = re.compile(r"^split (\S+) ([\d.]+)$")


def splits_of(stderr: str) -> dict:
    found = {}
    for line in stderr.splitlines():
        m = PEER.match(line)
        if m:
            found[m.group(1)] = float(m.group(2))
            continue
        m = STAGE.match(line)
        if m:
            found[m.group(1)] = found.get(m.group(1), 0.0) + float(m.group(2))
            continue
        for name, pattern in GPUIMG_LINES.items():
            m = pattern.search(line)
            if m:
                found[name] = float(m.group(1))
    return found


def gpuimg_split(s: dict, wall: float) -> dict:
    """gpuimg's -v times as a critical path: what the process did, in order."""
    out = {"start+exit": wall - s["total"], "decode": s["decode"]}
    # CUDA starts beside decoding; only what it took beyond the decode waits.
    out["wait for device"] = max(0.0, s["ready"] - s["decode"])
    for name in ("upload",):
        if name in s:
            out[name] = s[name]
    stages = [k for k in s if k not in GPUIMG_LINES]
    for k in stages:
        out[k] = s[k]
    if "download" in s:
        out["download"] = s["download"]
    out["encode"] = s["encode"]
    out["other"] = s["total"] - sum(v for k, v in out.items() if k != "start+exit")
    return out


def time_command(argv: list) -> None:
    results, label, input_path, output = argv[0], argv[1], argv[2], argv[3]
    assert argv[4] == "--"
    commands, current = [], []
    for word in argv[5:]:
        if word == ":::":
            commands.append(current)
            current = []
        else:
            current.append(word)
    commands.append(current)
    total, split = 0.0, {}
    for i, cmd in enumerate(commands):
        start = time.perf_counter()
        p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        wall = (time.perf_counter() - start) * 1000
        if p.returncode != 0:
            sys.exit(f"e2e.py: {label}: {' '.join(cmd)} exited {p.returncode}: {p.stderr.strip()}")
        total += wall
        if len(commands) > 1:
            split[f"command {i + 1}"] = wall
        else:
            split = splits_of(p.stderr)
            if "total" in split:
                split = gpuimg_split(split, wall)
            elif split:
                split["start+exit"] = wall - sum(split.values())
    record = {
        "label": label, "input": os.path.basename(input_path), "output": output, "wall_ms": total,
        "split_ms": split, "output_bytes": os.path.getsize(output) if output != "-" else 0,
        "commands": [" ".join(c) for c in commands],
    }
    with open(results, "a") as f:
        f.write(json.dumps(record) + "\n")


def summaries(results: str) -> list:
    """One summary per (label, input), in first-seen order: the median wall
    time and the median of each split over that pair's runs."""
    runs = {}
    for line in open(results):
        r = json.loads(line)
        runs.setdefault((r["label"], r["input"]), []).append(r)
    out = []
    for (label, input_name), rs in runs.items():
        walls = [r["wall_ms"] for r in rs]
        names = list(rs[0]["split_ms"])
        out.append({**rs[0], "runs": len(rs), "wall_ms": statistics.median(walls), "min_ms": min(walls),
                    "max_ms": max(walls),
                    "split_ms": {n: statistics.median(r["split_ms"].get(n, 0.0) for r in rs) for n in names}})
    return out


def compare(gpuimg: str, reference: str, output: str) -> str:
    if reference == output:
        return "(reference)"
    p = subprocess.run([gpuimg, "compare", reference, output, "--json"], capture_output=True, text=True)
    if p.returncode not in (0, 1):
        return "not compared: " + p.stderr.strip()
    o = json.loads(p.stdout)["overall"]
    if o["max_diff"] == 0:
        return "identical"
    return f"max diff {o['max_diff']}, {100 * o['differing_share']:.1f}% of pixels"


def summary(argv: list) -> None:
    for r in summaries(argv[0]):
        print(f"{r['label']:24} {r['input']:10} {r['wall_ms']:8.1f} ms  "
              + ", ".join(f"{k} {v:.1f}" for k, v in r["split_ms"].items()))


def report(argv: list) -> None:
    results, reference_label, gpuimg = argv
    records = summaries(results)
    reference = {r["input"]: r["output"] for r in records if r["label"] == reference_label}
    print("| tool | input | whole process, median (min–max) | split (medians, ms) | output | pixels vs gpuimg |")
    print("|---|---|---|---|---|---|")
    for r in records:
        split = ", ".join(f"{k} {v:.1f}" for k, v in r["split_ms"].items())
        same = compare(gpuimg, reference[r["input"]], r["output"]) if r["input"] in reference else ""
        print(f"| {r['label']} | {r['input']} | **{r['wall_ms']:.0f} ms** ({r['min_ms']:.0f}–{r['max_ms']:.0f}) "
              f"| {split} | {r['output_bytes'] / 1e6:.2f} MB | {same} |")
    print("\nThe command lines, as run (paths shortened to file names):\n")
    for r in records:
        shown = " && ".join(" ".join(os.path.basename(w) if "/" in w and not w.startswith("-") else w
                                     for w in c.split()) for c in r["commands"])
        print(f"- {r['label']}, {r['input']}: `{shown}`")


def main() -> int:
    commands = {"time": time_command, "report": report, "summary": summary}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    commands[sys.argv[1]](sys.argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main())
