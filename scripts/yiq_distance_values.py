#!/usr/bin/env python3
"""Prints the table of --threshold's YIQ distances that
test/compare_threshold_test.cpp checks gpuimg against, bit for bit.

Written from the formula in docs/compare.md, not from gpuimg's code: each
pixel as R, G, B, A (gray as R = G = B, no alpha as opaque), composited over
white, its difference scaled to 0..255, then pixelmatch's YIQ delta and
sqrt(delta / 35215). Python's floats are IEEE doubles and its operations
here run in the order the formula is written, so the values are the exact
doubles gpuimg must give. Rerun only to change the pairs:
    python3 scripts/yiq_distance_values.py
"""
import math

# (channels, bits, first pixel's samples, second pixel's samples)
PAIRS = [
    (3, 8, (10, 20, 30), (40, 20, 200)),
    (3, 8, (200, 100, 50), (190, 110, 50)),
    (1, 8, (100,), (120,)),
    (1, 8, (0,), (255,)),
    (3, 8, (255, 255, 0), (0, 0, 255)),
    (3, 16, (1000, 30000, 65535), (1300, 29000, 60000)),
    (1, 16, (25700,), (30840,)),
    (4, 8, (255, 0, 0, 128), (255, 0, 0, 255)),
    (2, 8, (0, 0), (255, 0)),
    (2, 16, (1000, 65535), (1000, 65534)),
    (4, 16, (1, 2, 3, 40000), (60000, 2, 3, 40001)),
]


def rgba(channels, m, s):
    if channels == 1:
        return s[0], s[0], s[0], m
    if channels == 2:
        return s[0], s[0], s[0], s[1]
    if channels == 3:
        return s[0], s[1], s[2], m
    return s


def distance(channels, bits, s1, s2):
    m = (1 << bits) - 1
    p, q = rgba(channels, m, s1), rgba(channels, m, s2)

    def unit(c):
        over1 = p[c] * p[3] + m * (m - p[3])
        over2 = q[c] * q[3] + m * (m - q[3])
        return float(over1 - over2) * 255 / (float(m) * m)

    dr, dg, db = unit(0), unit(1), unit(2)
    y = dr * 0.29889531 + dg * 0.58662247 + db * 0.11448223
    i = dr * 0.59597799 - dg * 0.27417610 - db * 0.32180189
    k = dr * 0.21147017 - dg * 0.52261711 + db * 0.31114694
    return math.sqrt((0.5053 * y * y + 0.299 * i * i + 0.1957 * k * k) / 35215)


for channels, bits, s1, s2 in PAIRS:
    first = ", ".join(map(str, s1))
    second = ", ".join(map(str, s2))
    print(f"    {{{channels}, {bits}, {{{first}}}, {{{second}}}, {distance(channels, bits, s1, s2)!r}}},")
