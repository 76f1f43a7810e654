#!/usr/bin/env python3
"""The OpenCV-Python peer of `gpuimg IN --blur R --invert OUT`.

Usage: opencv_blur_invert.py IN OUT R

cv2.imread (IMREAD_UNCHANGED), cv2.blur with a (2R+1)x(2R+1) kernel and
BORDER_REPLICATE, cv2.bitwise_not (255 - v for 8-bit samples), cv2.imwrite:
PNG at OpenCV's defaults; JPEG at gpuimg's settings (quality 95, 4:4:4,
optimised Huffman tables), so that both write the same kind of file. OpenCV
uses every core (its default). Prints `split NAME MS` lines on stderr, import
included, for scripts/bench/e2e.py.
"""
import sys
import time

t0 = time.perf_counter()
import cv2  # noqa: E402  (the import is timed)

t1 = time.perf_counter()
src, dst, radius = sys.argv[1], sys.argv[2], int(sys.argv[3])
img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
t2 = time.perf_counter()
k = 2 * radius + 1
img = cv2.blur(img, (k, k), borderType=cv2.BORDER_REPLICATE)
t3 = time.perf_counter()
img = cv2.bitwise_not(img)
t4 = time.perf_counter()
params = []
if dst.lower().endswith((".jpg", ".jpeg")):
    params = [cv2.IMWRITE_JPEG_QUALITY, 95, cv2.IMWRITE_JPEG_OPTIMIZE, 1,
              cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
if not cv2.imwrite(dst, img, params):
    sys.exit(f"opencv_blur_invert.py: cannot write {dst}")
t5 = time.perf_counter()
for name, a, b in (("import", t0, t1), ("decode", t1, t2), ("blur", t2, t3), ("invert", t3, t4), ("encode", t4, t5)):
    print(f"split {name} {(b - a) * 1000:.2f}", file=sys.stderr)
