#!/usr/bin/env python3
"""The OpenCV-Python peer of scripts/bench_batch.sh: --blur 3 --invert on
every image of IN, written under the same name in OUT, by a process pool of
one worker per core (each OpenCV single-threaded, so the pool is the only
parallelism, as gpuimg's decode and encode threads are).

Usage: bench_batch_opencv.py IN OUT [--png-sub-filter]

The same operation as gpuimg's: the 7x7 mean with replicated borders
(cv2.blur rounds, gpuimg rounds half up, so a sample may differ by one),
then 255 - v. The encoder settings are gpuimg's: JPEG at quality 95 with
4:4:4 chroma and optimised Huffman tables; PNG with zlib's run-length
strategy and libpng's adaptive choice among all five row filters.
--png-sub-filter keeps OpenCV's own PNG default instead, the SUB filter on
every row: about half the encoding time for files a few percent larger.
"""
import multiprocessing
import os
import sys

import cv2


def setup():
    cv2.setNumThreads(1)


def work(job):
    src, dst, jpeg_params, png_params = job
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        return f"{src}: cannot read"
    out = cv2.bitwise_not(cv2.blur(img, (7, 7), borderType=cv2.BORDER_REPLICATE))
    params = jpeg_params if dst.lower().endswith((".jpg", ".jpeg")) else png_params
    return None if cv2.imwrite(dst, out, params) else f"{dst}: cannot write"


def main():
    if len(sys.argv) not in (3, 4) or sys.argv[3:] not in ([], ["--png-sub-filter"]):
        print("usage: bench_batch_opencv.py IN OUT [--png-sub-filter]", file=sys.stderr)
        return 2
    src_dir, dst_dir = sys.argv[1], sys.argv[2]
    jpeg_params = [cv2.IMWRITE_JPEG_QUALITY, 95, cv2.IMWRITE_JPEG_OPTIMIZE, 1,
                   cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
    png_params = [] if sys.argv[3:] else [cv2.IMWRITE_PNG_FILTER, cv2.IMWRITE_PNG_ALL_FILTERS]
    names = sorted(os.listdir(src_dir))
    jobs = [(os.path.join(src_dir, n), os.path.join(dst_dir, n), jpeg_params, png_params) for n in names]
    with multiprocessing.Pool(os.cpu_count(), initializer=setup) as pool:
        problems = [p for p in pool.imap_unordered(work, jobs, chunksize=4) if p]
    for p in problems:
        print(f"bench_batch_opencv.py: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
