#!/usr/bin/env python3
"""Times CuPy doing the work of gpuimg's ops, for scripts/bench_gpu.sh.

Usage: cupy_peers.py BENCH_ROWS GPUIMG [MOST_REPETITIONS]

BENCH_ROWS is gpuimg_bench's output: its sizes, types and ops are the cases
timed here, so both time the same work. Prints rows of the same form
(op, size, type, impl, bytes, ms, note) with impl 'cupy'. Timing follows
gpuimg_bench: CUDA events, warm-up, the median of runs within a time budget,
inputs rotated over 400 MB so that none is found in the L2.

Equality is checked at each type's smallest size: the same random image goes
through the gpuimg CLI (GPUIMG, --device cuda) as a PNG and through CuPy, and
the outputs are compared sample by sample.
"""
import csv
import pathlib
import subprocess
import sys
import tempfile

import cupy as cp
import cupyx.scipy.ndimage as ndi
import cv2
import numpy as np

BUDGET_MS = 400.0  # the timed runs of one row, as in gpuimg_bench
SLOW_MS = 50.0  # a run this slow is its own warm-up
TYPES = {"rgb8": (3, np.uint8), "gray16": (1, np.uint16)}


def median_ms(run, most):
    start, stop = cp.cuda.Event(), cp.cuda.Event()

    def once(i):
        start.record()
        run(i)
        stop.record()
        stop.synchronize()
        return cp.cuda.get_elapsed_time(start, stop)

    estimate = once(0)
    i = 1
    if estimate < SLOW_MS:
        run(1)
        run(2)
        estimate = once(3)
        i = 4
    reps = min(max(3, most), max(3, int(BUDGET_MS / max(estimate, 1e-3))))
    times = sorted(once(i + k) for k in range(reps))
    return times[len(times) // 2]


def round_half_up(dtype):
    """One elementwise pass from float64 to the sample type: v / n rounded
    half up and clamped as gpuimg does, so CuPy's output is the same bytes."""
    name = np.dtype(dtype).name
    return cp.ElementwiseKernel(
        "float64 v, float64 n, float64 hi",
        f"{name} out",
        "out = fmin(fmax(floor(v / n + 0.5), 0.0), hi);",
        f"round_half_up_{name}",
    )


def peer(label, channels, dtype):
    """f(x, y): CuPy doing op `label` ('invert', 'sharpen_F=1', 'blur_R=3')
    from x into y; None where CuPy has no equivalent."""
    name, _, param = label.partition("_")
    if name not in ("invert", "sharpen", "blur"):
        return None  # the geometry ops and resize have no CuPy rows yet
    value = float(param.split("=")[1]) if param else None
    top = np.iinfo(dtype).max
    to_samples = round_half_up(dtype)
    # Filters run over rows and columns, never across channels.
    per_channel = (1,) if channels > 1 else ()
    if name == "invert":
        return lambda x, y: cp.subtract(dtype(top), x, out=y)
    # CuPy's filters sum in float64 when the weights are integers; float
    # weights on an integer image are summed in float32.
    if name == "sharpen":
        if value != int(value):
            return None  # no integer kernel: not the same arithmetic as gpuimg's
        f = int(value)
        w = cp.asarray([[0, -f, 0], [-f, 1 + 4 * f, -f], [0, -f, 0]], dtype=cp.int32).reshape((3, 3) + per_channel)
        # Every term is an exact integer, so only the clamp remains to match gpuimg.
        return lambda x, y: to_samples(ndi.correlate(x, w, output=cp.float64, mode="nearest"), 1.0, float(top), y)
    if name == "blur":
        # uniform_filter's own two 1-D passes, but with integer weights (ones:
        # exact sums in float64) and one division at the end. uniform_filter
        # itself weighs by 1/n in float32, and its means come out 1 off where
        # they lie near k + 0.5: seen on the H100 for gray16 from R=8.
        n = 2 * int(value) + 1
        ones = cp.ones(n, dtype=cp.int32)

        def blur(x, y):
            rows = ndi.correlate1d(x, ones, axis=0, output=cp.float64, mode="nearest")
            sums = ndi.correlate1d(rows, ones, axis=1, output=cp.float64, mode="nearest")
            to_samples(sums, float(n * n), float(top), y)

        return blur
    return None


def random_image(width, height, channels, dtype, seed=1):
    shape = (height, width, channels) if channels > 1 else (height, width)
    return np.random.default_rng(seed).integers(0, np.iinfo(dtype).max, size=shape, dtype=dtype, endpoint=True)


def compare(expected, actual):
    """'equal', or how many samples of `actual` differ from `expected`, by
    how much at most, and how many of them are lower (as gpuimg_bench says)."""
    d = actual.astype(np.int64) - expected.astype(np.int64)
    n = int(np.count_nonzero(d))
    if n == 0:
        return "equal"
    lower = int(np.count_nonzero(d < 0))
    return (
        f"differs: {n} samples ({100 * n / d.size:.3g}%), max |d| {int(np.abs(d).max())}, "
        f"{100 * lower / n:.3g}% of them lower"
    )


def gpuimg_output(gpuimg, image, label, folder):
    """What the gpuimg CLI writes for `image` after op `label`, or None if it fails."""
    name, _, param = label.partition("_")
    src, dst = folder / "in.png", folder / f"{label}.png"
    bgr = image[..., ::-1] if image.ndim == 3 else image
    if not cv2.imwrite(str(src), np.ascontiguousarray(bgr), [cv2.IMWRITE_PNG_COMPRESSION, 1]):
        raise RuntimeError(f"cupy_peers.py: could not write {src}")
    args = [gpuimg, str(src), f"--{name}"] + ([param.split("=")[1]] if param else []) + [str(dst), "--device", "cuda"]
    done = subprocess.run(args)
    out = cv2.imread(str(dst), cv2.IMREAD_UNCHANGED) if done.returncode == 0 else None
    if out is None:
        return None
    return out[..., ::-1] if out.ndim == 3 else out


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    rows_path, gpuimg = sys.argv[1], sys.argv[2]
    most = int(sys.argv[3]) if len(sys.argv) == 4 else 30
    with open(rows_path) as f:
        rows = list(csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t"))
    cases = {}  # (size, type) -> (bytes, [ops]), in the benchmark's order
    for r in rows:
        if r["impl"] == "gpuimg":
            cases.setdefault((r["size"], r["type"]), (int(r["bytes"]), []))[1].append(r["op"])

    # Equality, at each type's smallest size.
    checked = {}
    with tempfile.TemporaryDirectory() as tmp:
        for kind, (channels, dtype) in TYPES.items():
            sizes = [s for (s, t) in cases if t == kind]
            if not sizes:
                continue
            size = min(sizes, key=lambda s: int(s.split("x")[0]) * int(s.split("x")[1]))
            width, height = map(int, size.split("x"))
            image = random_image(width, height, channels, dtype)
            x = cp.asarray(image)
            for label in cases[(size, kind)][1]:
                run = peer(label, channels, dtype)
                if run is None:
                    continue
                y = cp.empty_like(x)
                run(x, y)
                expected = gpuimg_output(gpuimg, image, label, pathlib.Path(tmp))
                verdict = "not checked: the gpuimg CLI failed" if expected is None else compare(expected, y.get())
                checked[(label, kind)] = (size, verdict)

    print(f"# cupy: {cp.__version__}, numpy {np.__version__}")
    print("op\tsize\ttype\timpl\tbytes\tms\tnote", flush=True)
    for (size, kind), (nbytes, ops) in cases.items():
        channels, dtype = TYPES[kind]
        width, height = map(int, size.split("x"))
        image = random_image(width, height, channels, dtype)
        sets = max(2, (400 << 20) // (2 * nbytes))
        src = [cp.asarray(image) for _ in range(sets)]
        dst = [cp.empty_like(src[0]) for _ in range(sets)]
        for label in ops:
            run = peer(label, channels, dtype)
            if run is None:
                continue
            ms = median_ms(lambda i: run(src[i % sets], dst[i % sets]), most)
            at, verdict = checked[(label, kind)]
            note = verdict if at == size else f"(checked at {at})"
            print(f"{label}\t{size}\t{kind}\tcupy\t{nbytes}\t{ms:.4f}\t{note}", flush=True)
        del src, dst
        cp.get_default_memory_pool().free_all_blocks()
    return 0


if __name__ == "__main__":
    sys.exit(main())
