#!/usr/bin/env python3
"""Merges gpuimg_bench's rows and cupy_peers.py's into one table.

Usage: gpu_table.py BENCH_ROWS CUPY_ROWS MACHINE COMMAND [FRAGMENT]

Prints the table as plain text (one row per op, size, type and impl) and,
given FRAGMENT, writes it as the Markdown section of docs/PERFORMANCE.md
that scripts/perf_doc.py puts in place. CUPY_ROWS may be empty: the table
then has no CuPy rows.
"""
import csv
import datetime
import pathlib
import sys

COLUMNS = ["op", "size", "type", "impl", "ms", "GB/s", "x copy", "gpuimg/peer", "equality / target"]


def read_rows(path):
    """The rows of a tab-separated file and its '# key: value' lines."""
    notes, lines = {}, []
    for line in pathlib.Path(path).read_text().splitlines():
        if line.startswith("#"):
            key, _, value = line[1:].partition(":")
            notes[key.strip()] = value.strip()
        elif line.strip():
            lines.append(line)
    return notes, list(csv.DictReader(lines, delimiter="\t"))


def target(op, size):
    """The issues' limit for gpuimg's op on an input of `size`, as a multiple
    of that input's copy (issue 3: invert, sharpen, blur; issue 21: the
    geometry ops, grayscale, and lanczos3 halving the size; its 4K-to-8K
    limit is against the 8K copy, which the 4K table has no row for; issue
    22: a chain of five table stages, fused, the median up to R = 3, a 5x5
    convolution of integer weights, the kind NPP's figure was for, and the
    Gaussian by S)."""
    if "+" in op:
        return 1.1 if op.count("+") == 4 else None  # issue 22: five point stages in one pass
    name, _, param = op.partition("_")
    if name == "resize":
        fields = dict(p.split("=") for p in param.split("_"))
        halves = [int(v) * 2 for v in fields["SIZE"].split("x")] == [int(v) for v in size.split("x")]
        return 1.5 if fields["FILTER"] == "lanczos3" and halves else None
    if name in ("invert", "crop", "flip", "flop") or op == "rotate_ANGLE=180":
        return 1.1
    if name in ("rotate", "transpose"):
        return 1.3
    if name == "grayscale":
        return 0.75
    if name == "sharpen":
        return 1.2
    if name == "convolve":
        fields = dict(p.split("=") for p in param.split("_"))
        whole = all(float(k).is_integer() for k in fields["WEIGHTS"].split(","))
        return 2.0 if fields["SIZE"] == "5x5" and whole else None
    if name == "blur":
        return 1.3 if int(param.split("=")[1]) <= 8 else 2.0
    if name == "median":
        return {1: 1.5, 2: 3.0, 3: 6.0}.get(int(param.split("=")[1]))
    if name == "gaussian":
        sigma = float(param.split("=")[1])
        return 1.5 if sigma <= 3 else 3.0 if sigma <= 10 else None
    return None


def number(text):
    return None if text in ("", "-") else float(text)


def figure(v, decimals):
    """v with `decimals` decimals, or 2 significant digits where that would
    show too few (a 0.003 ratio, a 0.4 GB/s rate)."""
    return f"{v:.{decimals}f}" if v >= 10 ** (1 - decimals) else f"{v:.2g}"


def table(bench, cupy):
    """The merged rows, as lists of cells in COLUMNS order: for each size and
    type, the copy, then each op's gpuimg, npp and cupy rows."""
    peers = {}
    for r in bench + cupy:
        if r["impl"] not in ("gpuimg", "cudaMemcpy"):
            peers.setdefault((r["op"], r["size"], r["type"]), []).append(r)
    copy = {(r["size"], r["type"]): float(r["ms"]) for r in bench if r["op"] == "copy"}
    out = []
    for r in bench:
        if r["impl"] not in ("gpuimg", "cudaMemcpy"):
            continue
        key = (r["size"], r["type"])
        mine = float(r["ms"])
        for s in [r] + peers.get((r["op"],) + key, []):
            ms = number(s["ms"])
            cells = [s["op"], s["size"], s["type"], s["impl"]]
            if ms is None:
                cells += ["-", "-", "-", "-"]
            else:
                cells += [f"{ms:.4g}", figure(2 * int(s["bytes"]) / ms / 1e6, 0), figure(ms / copy[key], 2)]
                cells.append("" if s is r else figure(mine / ms, 2))
            if s is r and r["op"] != "copy" and target(r["op"], r["size"]) is not None:
                limit = target(r["op"], r["size"])
                verdict = "met" if mine / copy[key] <= limit else "missed"
                cells.append(f"target <= {limit:g}x copy: {verdict}")
            else:
                cells.append(s["note"])
            out.append(cells)
    return out


def plain(rows):
    widths = [max(len(c), *(len(r[i]) for r in rows)) for i, c in enumerate(COLUMNS[:-1])]
    fmt = lambda cells: "  ".join(c.ljust(w) for c, w in zip(cells, widths)) + "  " + cells[-1]
    return "\n".join([fmt(COLUMNS)] + [fmt(r) for r in rows])


def markdown(rows, notes, machine, command):
    npp = notes.get("npp")
    cupy = notes.get("cupy")
    text = [
        "## GPU kernels",
        "",
        f"Machine: {machine}. Date: {datetime.date.today().isoformat()}. "
        f"NPP: {npp or 'not built in'}. CuPy: {cupy or 'not run'}.",
        "",
        f"Command: `{command}`",
        "",
        "Each row is one op on one image, timed with CUDA events: warm-up, then the",
        f"median of up to {notes.get('most runs', '?')} runs (fewer where a run is slow: about 0.4 s of",
        "timed runs a row, at least 3), the inputs rotated over 400 MB so that no run",
        "finds its input in the 50 MB L2. Inputs are uniformly random samples.",
        "",
        "- **copy**: `cudaMemcpyAsync` device to device of the same bytes: the",
        "  memory-bandwidth limit. GB/s counts the image read once and written once,",
        "  for every row, so it is the bandwidth the op would need at that speed.",
        "- **gpuimg**: `launch_stage`, the kernels the CLI runs, one stage.",
        "- **histogram**, **radix**: the median's other GPU path at the radii its",
        "  selection networks take (R = 1 to 3): the per-column histograms at 8 bits,",
        "  the radix select at 16; where one beats gpuimg's row, the networks' limit",
        "  (`Median::kMaxGpuNetworkRadius`) should come down for that depth.",
        "- **npp**: NPP's `_Ctx` calls with a stream context filled by hand. invert:",
        "  `nppiNot_8u_C3R_Ctx` (rgb8), `nppiXorC_16u_C1R_Ctx` with 0xFFFF (gray16:",
        "  NPP has no 16-bit Not; the XOR is 65535 - v exactly). sharpen F=1:",
        "  `nppiFilterBorder_8u_C3R_Ctx` / `_16u_C1R_Ctx` with the Npp32s kernel",
        "  [0,-1,0; -1,5,-1; 0,-1,0], divisor 1, `NPP_BORDER_REPLICATE`. blur R:",
        "  `nppiFilterBoxBorder_8u_C3R_Ctx` / `_16u_C1R_Ctx`, mask (2R+1)x(2R+1),",
        "  anchor (R, R), `NPP_BORDER_REPLICATE`. Its box filter costs O(R^2) a pixel:",
        "  a radius whose run it predicts (from the last radius, by the mask's area)",
        "  to take over 1.5 s is skipped, and the row says so. median R:",
        "  `nppiFilterMedian_8u_C3R_Ctx` / `_16u_C1R_Ctx`, mask (2R+1)x(2R+1), anchor",
        "  (R, R), scratch from `nppiFilterMedianGetBufferSize`. It has no border",
        "  mode and reads R pixels past its region, so it runs on the region R",
        "  pixels in from every edge (a little less work than gpuimg's), and its",
        "  bytes are compared there; skipped by the same prediction as the blur.",
        "  convolve 5x5 of integer",
        "  weights: `nppiFilterBorder_8u_C3R_Ctx` / `_16u_C1R_Ctx` with the weights",
        "  reversed (NPP convolves where gpuimg correlates), divisor their sum,",
        "  `NPP_BORDER_REPLICATE`. gaussian S:",
        "  `nppiFilterGaussAdvancedBorder_8u_C3R_Ctx` / `_16u_C1R_Ctx` with 2r + 1",
        "  float taps, gpuimg's own integer weights over 2^K, `NPP_BORDER_REPLICATE`:",
        "  the same weights, summed in float, so its bytes differ where gpuimg's",
        "  exact sums round the other way.",
        "- **cupy**: invert: `cupy.subtract(max, x, out=y)`. sharpen F=1:",
        "  `cupyx.scipy.ndimage.correlate(x, w, output=float64, mode='nearest')` with",
        "  w the same 3x3 kernel as int32. blur R: the two 1-D passes of",
        "  `cupyx.scipy.ndimage.uniform_filter`, as `correlate1d(x, ones(2R+1,",
        "  int32), axis, output=float64, mode='nearest')` over rows then columns.",
        "  Integer weights make CuPy sum in float64, so the window sums are exact;",
        "  with float weights on an integer image it sums in float32, and",
        "  `uniform_filter` (weights 1/(2R+1)) gives means 1 off near k + 0.5.",
        "  Each filter is followed by one elementwise kernel that divides, rounds",
        "  half up and clamps into the sample type: what it takes for CuPy to",
        "  produce gpuimg's bytes. The timing includes it.",
        "",
        "**equality**: each peer's output compared sample by sample with gpuimg's",
        "(gpuimg's definitions: blur is the exact mean over the clamped window rounded",
        "half up, sharpen is c + F(4c - n - s - e - w) rounded half up and clamped,",
        "invert is max - v). NPP's on every row, on the device's own output. CuPy's",
        "at each type's smallest size, against the gpuimg CLI (`--device cuda`) run",
        "on the same random image written as a PNG. Where a peer differs, the column",
        "gives how many samples, the largest difference and the share of them that",
        "are lower than gpuimg's: a box filter that truncates its mean where gpuimg",
        "rounds half up differs by 1 on about half the samples, all lower. gray16 at",
        "R=256 needs window sums past 2^32 (513^2 x 65535); a peer whose sums wrap",
        "shows it there.",
        "",
        "**gpuimg/peer**: gpuimg's time divided by the peer's; below 1, gpuimg is",
        "faster. **target**: issue 3's limit for gpuimg, as a multiple of the copy:",
        "invert <= 1.1x, sharpen <= 1.2x, blur <= 1.3x up to R=8 and <= 2x up to",
        "R=256; issue 22's: the median <= 1.5x at R=1, 3x at R=2, 6x at R=3; a 5x5",
        "  convolution of integer weights <= 2x; gaussian <= 1.5x up to S=3 and",
        "  <= 3x at S=10.",
    ]
    groups = []
    for r in rows:
        key = (r[1], r[2])
        if not groups or groups[-1][0] != key:
            groups.append((key, []))
        groups[-1][1].append(r)
    for (size, kind), group in groups:
        text += ["", f"### {size} {kind}", ""]
        text.append("| " + " | ".join(c for i, c in enumerate(COLUMNS) if i not in (1, 2)) + " |")
        text.append("|" + "|".join("---" if i in (0, 1, 6) else "---:" for i in range(len(COLUMNS) - 2)) + "|")
        for r in group:
            cells = [c.replace("|", "\\|") for i, c in enumerate(r) if i not in (1, 2)]
            text.append("| " + " | ".join(cells) + " |")
    return "\n".join(text) + "\n"


def main():
    if len(sys.argv) not in (5, 6):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    notes, bench = read_rows(sys.argv[1])
    cupy_notes, cupy = read_rows(sys.argv[2])
    notes.update(cupy_notes)
    rows = table(bench, cupy)
    print(plain(rows))
    if len(sys.argv) == 6:
        pathlib.Path(sys.argv[5]).write_text(markdown(rows, notes, sys.argv[3], sys.argv[4]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
