#!/usr/bin/env python3
"""Writes the resize goldens in test/data/resize/ with Pillow (deterministic).

Each input is a small seeded random image of an awkward size in L, LA, RGB
or RGBA; each is resized by every filter to a set of sizes (shrink and
enlarge, by whole and fractional factors, one axis only, to 1x1, to its own
size) with Pillow's Image.resize, whose bytes gpuimg's resize must match at
8 bits (test/resize_pillow_test.cpp). manifest.txt lists the cases. Needs
Pillow (Debian's python3-pil: run it as /usr/bin/python3); the goldens were
made with Pillow 9.4.0, which the manifest's first line records. Rerun only
to change the set:
    /usr/bin/python3 scripts/make_resize_goldens.py
"""
import random
from pathlib import Path

import PIL
from PIL import Image

OUT = Path(__file__).resolve().parent.parent / "test" / "data" / "resize"
SEED = 21

FILTERS = [
    ("nearest", Image.Resampling.NEAREST),
    ("box", Image.Resampling.BOX),
    ("linear", Image.Resampling.BILINEAR),
    ("cubic", Image.Resampling.BICUBIC),
    ("lanczos3", Image.Resampling.LANCZOS),
]
MODES = ["L", "LA", "RGB", "RGBA"]
# Input sizes: single pixels, single rows and columns, odd and prime sides,
# and one wider image (97x31) for long shrinks.
SIZES = [(1, 1), (1, 9), (11, 1), (2, 2), (7, 5), (13, 17), (33, 9), (97, 31)]
# Nearest sums its step one output at a time; from 2 to 7 or 15 samples the
# sum reaches an integer from below (0.999...) where (i + 0.5) * scale is
# exactly 1, so these sizes tell the two apart.
EXTRA_TARGETS = {(2, 2): [(7, 15), (15, 7)]}


def targets(w, h):
    """Output sizes for a w x h input, in a fixed order, without repeats."""
    def side(v):
        return max(1, int(v + 0.5))
    cand = [
        (1, 1),                                  # everything into one pixel
        (w, h),                                  # unchanged: Pillow copies
        (side(w / 2), side(h / 2)),              # shrink, near a whole factor
        (side(w * 0.37), side(h * 0.61)),        # shrink, fractional factors
        (w * 3, h * 2),                          # enlarge by whole factors
        (side(w * 2.3) + 1, side(h * 1.7) + 1),  # enlarge, fractional
        (w, side(h * 1.9) + 1),                  # the height alone
        (side(w * 0.45), h),                     # the width alone
        (side(w * 1.6) + 1, side(h / 3)),        # enlarge one side, shrink the other
    ] + EXTRA_TARGETS.get((w, h), [])
    if w * h > 1000:  # the large input: long shrinks only, to keep the set small
        cand = [t for t in cand if t[0] <= w and t[1] <= h] + [(5, 3), (side(w / 7.5), side(h / 4.3))]
    seen, out = set(), []
    for t in cand:
        if t not in seen:
            seen.add(t)
            out.append(t)
    return out


def random_image(rng, mode, w, h):
    """Noise, with an eighth of the samples at 0 and an eighth at 255; alpha
    is drawn from 0, 255, 1 to 4 (where un-premultiplying divides by little)
    and anything, so that every branch of the alpha conversions is taken."""
    bands = len(mode)
    data = bytearray()
    for _ in range(w * h):
        for b in range(bands):
            if mode.endswith("A") and b == bands - 1:
                kind = rng.randrange(4)
                data.append([0, 255, rng.randint(1, 4), rng.randint(0, 255)][kind])
            else:
                kind = rng.randrange(8)
                data.append(0 if kind == 0 else 255 if kind == 1 else rng.randint(0, 255))
    return Image.frombytes(mode, (w, h), bytes(data))


def main():
    rng = random.Random(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.png"):
        old.unlink()
    lines = [
        f"# resize goldens, Pillow {PIL.__version__}, seed {SEED}: made by scripts/make_resize_goldens.py",
        "# input filter out_width out_height expected",
    ]
    for mode in MODES:
        for w, h in SIZES:
            src = random_image(rng, mode, w, h)
            name = f"{mode.lower()}_{w}x{h}"
            src.save(OUT / f"{name}.png", optimize=True)
            for tw, th in targets(w, h):
                for fname, f in FILTERS:
                    out = src.resize((tw, th), f)
                    out_name = f"{name}_{fname}_{tw}x{th}.png"
                    out.save(OUT / out_name, optimize=True)
                    lines.append(f"{name}.png {fname} {tw} {th} {out_name}")
    (OUT / "manifest.txt").write_text("\n".join(lines) + "\n")
    total = sum(p.stat().st_size for p in OUT.iterdir())
    print(f"{len(lines) - 2} cases, {total} bytes in {OUT}")


if __name__ == "__main__":
    main()
