#!/usr/bin/env python3
"""The Pillow peer of `gpuimg IN --blur R --invert OUT`.

Usage: pillow_blur_invert.py IN OUT R

Image.open + load, ImageFilter.BoxBlur(R), ImageOps.invert, save. BoxBlur(R)
is Pillow's mean over the (2R+1)x(2R+1) box with the edge pixels extended
(as gpuimg's border replicate), done as a horizontal then a vertical pass,
each rounded to 8 bits, so its means can differ by one from the exact ones.
Pillow runs on one core. PNG at Pillow's defaults (zlib level 6); JPEG at
gpuimg's settings (quality 95, 4:4:4, optimised Huffman tables; Pillow's
default quality would be 75). Prints `split NAME MS` lines on stderr, import
included, for scripts/bench/e2e.py.
"""
import sys
import time

t0 = time.perf_counter()
from PIL import Image, ImageFilter, ImageOps  # noqa: E402  (the import is timed)

t1 = time.perf_counter()
src, dst, radius = sys.argv[1], sys.argv[2], int(sys.argv[3])
img = Image.open(src)
img.load()
t2 = time.perf_counter()
img = img.filter(ImageFilter.BoxBlur(radius))
t3 = time.perf_counter()
img = ImageOps.invert(img)
t4 = time.perf_counter()
if dst.lower().endswith((".jpg", ".jpeg")):
    img.save(dst, quality=95, subsampling=0, optimize=True)
else:
    img.save(dst)
t5 = time.perf_counter()
for name, a, b in (("import", t0, t1), ("decode", t1, t2), ("blur", t2, t3), ("invert", t3, t4), ("encode", t4, t5)):
    print(f"split {name} {(b - a) * 1000:.2f}", file=sys.stderr)
