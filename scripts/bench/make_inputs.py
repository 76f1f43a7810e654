#!/usr/bin/env python3
"""Writes the end-to-end benchmark's input: a 3840x2160 RGB image, smooth
colour gradients (a stand-in for a photo's content) plus per-sample noise
of +-12, as a PNG that no tool under test wrote.

Usage: make_inputs.py OUT.png [--smooth]

Deterministic on any machine: the noise is a splitmix64 hash of each
sample's index, not a random generator whose stream could change between
NumPy versions. The PNG is written here with zlib level 6 and the Sub
filter on every row; a PNG's filters and zlib level change its decode time
a little, and this keeps them fixed whatever the tools do.
--smooth: the same gradients with noise of +-2, a stand-in for a clean
photo (for the PNG encoder settings, scripts/bench_png.sh).
"""
import struct
import sys
import zlib

import numpy as np

W, H = 3840, 2160


def noise(amplitude: int) -> np.ndarray:
    z = np.arange(W * H * 3, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    z ^= z >> np.uint64(30)
    z *= np.uint64(0xBF58476D1CE4E5B9)
    z ^= z >> np.uint64(27)
    z *= np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    return (z % np.uint64(2 * amplitude + 1)).astype(np.int16).reshape(H, W, 3) - amplitude


def image(amplitude: int) -> np.ndarray:
    y, x = np.mgrid[0:H, 0:W].astype(np.float32)
    base = np.stack([128 + 90 * np.sin(x / 300 + y / 500),
                     128 + 90 * np.sin(x / 410 - y / 260 + 1),
                     128 + 90 * np.cos((x + y) / 350)], axis=-1)
    return np.clip(np.rint(base).astype(np.int16) + noise(amplitude), 0, 255).astype(np.uint8)


def png(pixels: np.ndarray) -> bytes:
    rows = pixels.reshape(H, W * 3)
    sub = rows.copy()
    sub[:, 3:] = rows[:, 3:] - rows[:, :-3]  # filter type 1 (Sub), modulo 256
    raw = np.concatenate([np.ones((H, 1), np.uint8), sub], axis=1).tobytes()

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", W, H, 8, 2, 0, 0, 0)  # 8-bit RGB, no interlace
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6))
            + chunk(b"IEND", b""))


def main() -> int:
    if len(sys.argv) not in (2, 3) or (len(sys.argv) == 3 and sys.argv[2] != "--smooth"):
        print(__doc__.strip().splitlines()[4], file=sys.stderr)
        return 2
    with open(sys.argv[1], "wb") as f:
        f.write(png(image(2 if len(sys.argv) == 3 else 12)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
