#!/usr/bin/env bash
# Start-up: the wall time of whole processes on a tiny image, where nothing
# but loading, start-up and exit counts. RUNS runs each of
# `gpuimg tiny.png --invert out.png` and `gpuimg --version` for each binary
# given, beside ImageMagick's `convert tiny.png -negate out.png` and
# `vips invert tiny.png out.png`, run in turn (not one command's runs in a
# row), each timed from spawn to exit in Python; the median and mean per run.
#
# Usage: scripts/bench_startup.sh [RUNS] [LABEL=BINARY ...]
#   RUNS default 50; binaries default "gpuimg=build/gpuimg". Give several to
#   compare builds: `50 cuda=build-cuda/gpuimg cpu-only=build/gpuimg`.
# Environment: GPUIMG_COMMIT (the commit to name, where the checkout is not
# the one measured).
# Writes the section startup-dev: to $OUT/ when OUT is set, else into
# docs/PERFORMANCE.md through scripts/perf_doc.py.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-50}
shift || true
binaries=("$@")
[ ${#binaries[@]} -gt 0 ] || binaries=("gpuimg=build/gpuimg")
for b in "${binaries[@]}"; do
  [ -x "${b#*=}" ] || { echo "bench_startup.sh: no binary ${b#*=} (build it first)" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fragment=$work/startup-dev.md
load=$(cut -d' ' -f1-3 /proc/loadavg)
{
  echo "### Start-up, a machine without a GPU"
  echo
  echo "$(date -u +%Y-%m-%d), \`scripts/bench_startup.sh $runs ${binaries[*]}\` at gpuimg ${GPUIMG_COMMIT:-$(git rev-parse --short HEAD)}." \
    "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; load average before the run: $load." \
    "$(/usr/bin/convert -version | head -1 | cut -d' ' -f2-3), $(/usr/bin/vips --version)."
  echo
  echo "Each command run $runs times, the commands in turn, on a 16×16 RGB PNG; wall time from spawn to exit" \
    "(Python's \`subprocess.run\`, the same overhead for every row). Shared libraries each binary loads: \`ldd\`'s count."
  echo
  /usr/bin/python3 - "$work" "$runs" "${binaries[@]}" <<'PY'
import os, statistics, subprocess, sys, time, zlib, struct

work, runs, binaries = sys.argv[1], int(sys.argv[2]), [b.split("=", 1) for b in sys.argv[3:]]
tiny = os.path.join(work, "tiny.png")
def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
rows = b"".join(b"\0" + bytes((x * 16 + y) % 256 for x in range(16) for _ in range(3)) for y in range(16))
with open(tiny, "wb") as f:
    f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))
out = os.path.join(work, "out.png")
def libraries(path):
    text = subprocess.run(["ldd", path], capture_output=True, text=True).stdout
    return sum(1 for line in text.splitlines() if "=>" in line or line.strip().startswith("/"))
commands = []
for label, path in binaries:
    commands.append((f"gpuimg ({label}) tiny.png --invert out.png", [path, tiny, "--invert", out], path))
    commands.append((f"gpuimg ({label}) --version", [path, "--version"], path))
commands.append(("convert tiny.png -negate out.png", ["/usr/bin/convert", tiny, "-negate", out], "/usr/bin/convert"))
commands.append(("vips invert tiny.png out.png", ["/usr/bin/vips", "invert", tiny, out], "/usr/bin/vips"))
times = {name: [] for name, _, _ in commands}
for name, argv, _ in commands:  # once each first: page cache, not start-up, is what a first run measures
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
for _ in range(runs):
    for name, argv, _ in commands:
        start = time.perf_counter()
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
        times[name].append((time.perf_counter() - start) * 1000)
print("| command | median ms | mean ms | shared libraries |")
print("|---|---:|---:|---:|")
for name, _, path in commands:
    t = times[name]
    print(f"| `{name}` | {statistics.median(t):.1f} | {statistics.mean(t):.1f} | {libraries(path)} |")
PY
} >"$fragment"
if [ -n "${OUT:-}" ]; then
  cp "$fragment" "$OUT/"
else
  python3 scripts/perf_doc.py startup-dev "$fragment"
fi
cat "$fragment"
