#!/usr/bin/env python3
"""The OpenCV-Python peer of scripts/bench_batch.sh: --blur 3 --invert on
every image of IN, written under the same name in OUT, by a process pool of
one worker per core (each OpenCV single-threaded, so the pool is the only
parallelism, as gpuimg's decode and encode threads are).

Usage: bench_batch_opencv.py IN OUT [JPEG_QUALITY]

The same operation as gpuimg's: the 7x7 mean with replicated borders
(cv2.blur rounds, gpuimg rounds half up, so a sample may differ by one),
then 255 - v. The encoder settings follow gpuimg's: JPEG at the given
quality with 4:4:4 chroma and optimised Huffman tables; PNG with OpenCV's
defaults, which are gpuimg's (zlib's run-length strategy, fastest level).
"""
import multiprocessing
import os
import sys

import cv2


def setup():
    cv2.setNumThreads(1)


def work(job):
    src, dst, jpeg_params = job
    img = cv2.imread(src, cv2.IMREAD_UNCHANGED)
    if img is None:
        return f"{src}: cannot read"
    out = cv2.bitwise_not(cv2.blur(img, (7, 7), borderType=cv2.BORDER_REPLICATE))
    params = jpeg_params if dst.lower().endswith((".jpg", ".jpeg")) else []
    return None if cv2.imwrite(dst, out, params) else f"{dst}: cannot write"


def main():
    if len(sys.argv) not in (3, 4):
        print("usage: bench_batch_opencv.py IN OUT [JPEG_QUALITY]", file=sys.stderr)
        return 2
    src_dir, dst_dir = sys.argv[1], sys.argv[2]
    quality = int(sys.argv[3]) if len(sys.argv) == 4 else 95
    jpeg_params = [cv2.IMWRITE_JPEG_QUALITY, quality, cv2.IMWRITE_JPEG_OPTIMIZE, 1]
    if hasattr(cv2, "IMWRITE_JPEG_SAMPLING_FACTOR"):
        jpeg_params += [cv2.IMWRITE_JPEG_SAMPLING_FACTOR, cv2.IMWRITE_JPEG_SAMPLING_FACTOR_444]
    names = sorted(os.listdir(src_dir))
    jobs = [(os.path.join(src_dir, n), os.path.join(dst_dir, n), jpeg_params) for n in names]
    with multiprocessing.Pool(os.cpu_count(), initializer=setup) as pool:
        problems = [p for p in pool.imap_unordered(work, jobs, chunksize=4) if p]
    for p in problems:
        print(f"bench_batch_opencv.py: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
