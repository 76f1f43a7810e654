#!/usr/bin/env python3
"""Writes a benchmark input: by default the end-to-end benchmark's
3840x2160 RGB image, smooth colour gradients (a stand-in for a photo's
content) plus per-sample noise of +-12, as a PNG that no tool under test
wrote.

Usage: make_inputs.py OUT.png [--smooth] [--size WxH] [--change block|noise]

Deterministic on any machine: the noise is a splitmix64 hash of each
sample's index, not a random generator whose stream could change between
NumPy versions. The PNG is written here with zlib level 6 and the Sub
filter on every row; a PNG's filters and zlib level change its decode time
a little, and this keeps them fixed whatever the tools do.
--smooth: the same gradients with noise of +-2, a stand-in for a clean
photo (for the PNG encoder settings, scripts/bench_png.sh).
--change: the same image changed, for compare's benchmark: *block* paints
a red 20x20 square at (100, 100) (400 pixels differ); *noise* adds a second
noise of +-6 to every sample (nearly every pixel differs).
"""
import argparse
import struct
import sys
import zlib

import numpy as np


def noise(w: int, h: int, amplitude: int, stream: int = 0) -> np.ndarray:
    z = (np.arange(w * h * 3, dtype=np.uint64) + np.uint64(stream * w * h * 3)) * np.uint64(0x9E3779B97F4A7C15)
    z ^= z >> np.uint64(30)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    z ^= z >> np.uint64(27)
    z *= np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return (z % np.uint64(2 * amplitude + 1)).astype(np.int16).reshape(h, w, 3) - amplitude


def image(w: int, h: int, amplitude: int) -> np.ndarray:
    y, x = np.mgrid[0:h, 0:w].astype(np.float32)
    base = np.stack([128 + 90 * np.sin(x / 300 + y / 500),
                     128 + 90 * np.sin(x / 410 - y / 260 + 1),
                     128 + 90 * np.cos((x + y) / 350)], axis=-1)
    return np.clip(np.rint(base).astype(np.int16) + noise(w, h, amplitude), 0, 255).astype(np.uint8)


def changed(pixels: np.ndarray, change: str) -> np.ndarray:
    out = pixels.copy()
    if change == "block":
        out[100:120, 100:120] = (255, 0, 0)
    else:
        h, w, _ = pixels.shape
        out = np.clip(out.astype(np.int16) + noise(w, h, 6, stream=1), 0, 255).astype(np.uint8)
    return out


def png(pixels: np.ndarray) -> bytes:
    h, w, _ = pixels.shape
    rows = pixels.reshape(h, w * 3)
    sub = rows.copy()
    sub[:, 3:] = rows[:, 3:] - rows[:, :-3]  # filter type 1 (Sub), modulo 256
    raw = np.concatenate([np.ones((h, 1), np.uint8), sub], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


def main() -> int:
    parser = argparse.ArgumentParser(usage=__doc__.strip().splitlines()[5][len("Usage: "):])
    parser.add_argument("out")
    parser.add_argument("--smooth", action="store_true")
    parser.add_argument("--size", default="3840x2160")
    parser.add_argument("--change", choices=("block", "noise"))
    args = parser.parse_args()
    try:
        w, h = (int(v) for v in args.size.split("x"))
    except ValueError:
        parser.error(f"--size must be WxH, not {args.size!r}")
    if w < 1 or h < 1 or (args.change == "block" and (w < 120 or h < 120)):
        parser.error(f"--size {args.size}: too small" + (" for the block at (100, 100)" if args.change else ""))
    pixels = image(w, h, 2 if args.smooth else 12)
    if args.change:
        pixels = changed(pixels, args.change)
    with open(args.out, "wb") as f:
        f.write(png(pixels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
