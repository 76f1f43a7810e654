#!/usr/bin/env python3
"""Writes the small test images in data/ (deterministic; standard library only).

Every image is synthetic, drawn here, and dedicated to the public domain
(CC0), like the rest of data/. Rerun only to change the set:
    python3 scripts/make_test_data.py
"""
import math
import random
import struct
import zlib
from pathlib import Path

DATA = Path(__file__).resolve().parent.parent / "data"


def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)


def write_png(path, width, height, rows, bit_depth, color_type, palette=None, trns=None):
    """rows: one bytes object per row, already packed at bit_depth."""
    raw = b"".join(b"\x00" + r for r in rows)
    body = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0))
    if palette:
        body += chunk(b"PLTE", bytes(c for rgb in palette for c in rgb))
    if trns:
        body += chunk(b"tRNS", bytes(trns))
    body += chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")
    path.write_bytes(body)


def pack(samples, bits):
    if bits == 8:
        return bytes(samples)
    if bits == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    per_byte = 8 // bits
    out = bytearray()
    for i in range(0, len(samples), per_byte):
        group = samples[i:i + per_byte] + [0] * (per_byte - len(samples[i:i + per_byte]))
        byte = 0
        for s in group:
            byte = (byte << bits) | s
        out.append(byte)
    return bytes(out)


def scene(x, y, w, h, rng):
    """A small landscape: sky gradient, a sun, two rows of hills, grain. Values 0..1 per channel."""
    u, v = x / w, y / h
    r, g, b = 0.35 + 0.4 * v, 0.55 + 0.3 * v, 0.95 - 0.2 * v
    if (u - 0.72) ** 2 + ((v - 0.25) * h / w) ** 2 < 0.01:
        r, g, b = 1.0, 0.85, 0.3
    if v > 0.55 + 0.08 * math.sin(u * 9.0):
        r, g, b = 0.25, 0.5 + 0.15 * math.sin(u * 40) * math.sin(v * 30), 0.2
    if v > 0.75 + 0.05 * math.sin(u * 23.0 + 1.0):
        r, g, b = 0.35, 0.28, 0.15
    grain = rng.uniform(-0.04, 0.04)
    return [min(1.0, max(0.0, c + grain)) for c in (r, g, b)]


def image(path, w, h, channels, bits, seed):
    rng = random.Random(seed)
    top = (1 << bits) - 1
    rows = []
    for y in range(h):
        row = []
        for x in range(w):
            rgb = scene(x, y, w, h, rng)
            gray = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
            alpha = (x + y) / (w + h - 2) if w + h > 2 else 1.0
            px = {1: [gray], 2: [gray, alpha], 3: rgb, 4: rgb + [alpha]}[channels]
            row += [round(c * top) for c in px]
        rows.append(pack(row, bits))
    write_png(DATA / path, w, h, rows, bits, {1: 0, 2: 4, 3: 2, 4: 6}[channels])


def palette_image(path, w, h):
    pal = [(int(255 * i / 15), 40 + 10 * i, 255 - 16 * i) for i in range(16)]
    rows = [pack([(x * 3 + y * 5) % 16 for x in range(w)], 8) for y in range(h)]
    write_png(DATA / path, w, h, rows, 8, 3, palette=pal, trns=[255 - 17 * i for i in range(16)])


def low_bit_gray(path, w, h, bits):
    rows = [pack([(x + 2 * y) % (1 << bits) for x in range(w)], bits) for y in range(h)]
    write_png(DATA / path, w, h, rows, bits, 0)


if __name__ == "__main__":
    image("scene.png", 320, 200, 3, 8, 1)
    image("scene16.png", 97, 61, 3, 16, 2)
    image("gray.png", 64, 48, 1, 8, 3)
    image("gray_alpha16.png", 45, 33, 2, 16, 4)
    image("rgba.png", 73, 41, 4, 8, 5)
    image("tiny.png", 1, 1, 3, 8, 6)
    image("row.png", 57, 1, 4, 16, 7)
    palette_image("palette.png", 40, 30)
    low_bit_gray("gray4bit.png", 31, 17, 4)
    print("wrote", ", ".join(sorted(p.name for p in DATA.glob("*.png"))))
