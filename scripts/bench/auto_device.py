#!/usr/bin/env python3
"""Whole-process times of --device cpu, cuda and auto over pipelines of
growing cost, for scripts/bench_auto_device.sh (standard library only).

  auto_device.py GPUIMG INPUT RUNS STAGES...

For each count in STAGES, the pipeline of that many `--blur 3` stages runs
on INPUT with each device, one after another in every round (so that all
meet the same load), RUNS rounds after one warm-up round; prints one
Markdown table row per count: auto's estimate and choice (from -v) and the
median wall time, fork to exit, of each device.
"""
import re
import statistics
import subprocess
import sys
import tempfile
import time

DEVICE = re.compile(r"gpuimg: device: (\w+), ")
ESTIMATE = re.compile(r"estimated at (under )?([\d.]+) ms")


def run(gpuimg, args):
    start = time.perf_counter()
    p = subprocess.run([gpuimg] + args, capture_output=True, text=True)
    wall = (time.perf_counter() - start) * 1e3
    if p.returncode != 0:
        sys.exit(f"auto_device.py: {' '.join(args[:4])}... failed: {p.stderr.strip()}")
    return wall, p.stderr


def main():
    gpuimg, image, runs = sys.argv[1], sys.argv[2], int(sys.argv[3])
    print("| blur 3 stages | auto's estimate | auto chose | --device cpu | --device cuda | --device auto |")
    print("|---:|---:|---|---:|---:|---:|")
    with tempfile.TemporaryDirectory() as work:
        for stages in map(int, sys.argv[4:]):
            ops = ["--blur", "3"] * stages
            times = {"cpu": [], "cuda": [], "auto": []}
            chose, estimate = "?", "?"
            for round in range(runs + 1):
                for device in times:
                    wall, err = run(gpuimg, [image, *ops, "-v", "--device", device, f"{work}/{device}.png"])
                    if round > 0:
                        times[device].append(wall)
                    if device == "auto":
                        chose = DEVICE.search(err).group(1)
                        m = ESTIMATE.search(err)
                        estimate = f"{'< ' if m.group(1) else ''}{m.group(2)} ms" if m else "none"
            ms = {d: statistics.median(t) for d, t in times.items()}
            print(f"| {stages} | {estimate} | {chose} | {ms['cpu']:.0f} ms | {ms['cuda']:.0f} ms | **{ms['auto']:.0f} ms** |")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
