#!/usr/bin/env python3
"""Writes test/data/apng/: a few small animated PNGs made by Pillow, and
each of their frames as Pillow's APNG reader composes it (NAME.N.png), the
oracle test/apng_frames_test.cpp holds gpuimg's frames to, byte for byte.

Pillow's OVER is a paste through the frame's alpha, alpha included
(out = dst + (src - dst) * a / 255 on every channel), which is the APNG
specification's OVER only where a frame's alpha is 0 or 255: the frames
here have no other alpha (Pillow's writer stores a frame's changed
rectangle, unchanged pixels in it included, so any frame's alpha may be
blended), and the test checks partial alpha against its own loop.
Pillow's writer cannot dispose to the background outside RGB, RGBA and LA
("images do not match"), and its reader draws an animation's first frame
over a default image outside it (the specification clears the canvas):
the first animation frame here covers the canvas, blend SOURCE.

Run with a python3 that has Pillow (Debian: apt-get install python3-pil):
    python3 scripts/make_apng_goldens.py
"""
import os
import random

from PIL import Image

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "data", "apng")
W, H = 7, 6
NONE, BACKGROUND, PREVIOUS = 0, 1, 2
SOURCE, OVER = 0, 1


def colour(rng, mode):
    if mode in ("L", "P"):
        return rng.randrange(1, 256)
    if mode == "I;16":
        return rng.randrange(1, 65536)
    alpha = rng.choice((0, 255))
    grey = rng.randrange(256)
    return {"RGB": (rng.randrange(256), grey, rng.randrange(256)), "RGBA": (rng.randrange(256), grey, 9, alpha),
            "LA": (grey, alpha)}[mode]


def frames(mode, count, seed):
    """Each frame the one before with a random rectangle repainted (the
    first: all of it), so that Pillow's writer stores a part at an offset."""
    rng = random.Random(seed)
    out = []
    for k in range(count):
        im = out[-1].copy() if out else Image.new(mode, (W, H))
        x0, y0 = (0, 0) if k == 0 else (rng.randrange(W), rng.randrange(H))
        x1, y1 = (W, H) if k == 0 else (rng.randrange(x0 + 1, W + 1), rng.randrange(y0 + 1, H + 1))
        for y in range(y0, y1):
            for x in range(x0, x1):
                im.putpixel((x, y), colour(rng, mode))
        if mode == "P":
            im.putpalette(PALETTE)
        out.append(im)
    return out


# Entry 0 transparent black, as Pillow's reader leaves a P canvas.
PALETTE = [0, 0, 0] + [(i * 37 + c * 91) % 256 for i in range(1, 256) for c in range(3)]

CASES = [
    # name, mode, disposal, blend, default image outside the animation
    ("rgba", "RGBA", [NONE, BACKGROUND, PREVIOUS, NONE, BACKGROUND, NONE], [SOURCE, OVER, SOURCE, OVER, OVER, SOURCE], False),
    ("rgb", "RGB", [BACKGROUND, PREVIOUS, NONE, BACKGROUND, NONE], [SOURCE, OVER, SOURCE, OVER, SOURCE], False),
    ("gray_alpha", "LA", [NONE, PREVIOUS, BACKGROUND, NONE], [SOURCE, OVER, SOURCE, OVER], False),
    ("gray", "L", [NONE, PREVIOUS, NONE, NONE], [SOURCE, SOURCE, OVER, SOURCE], False),
    ("palette", "P", [NONE, PREVIOUS, NONE, PREVIOUS], [SOURCE, OVER, OVER, SOURCE], False),
    ("gray16", "I;16", [NONE, PREVIOUS, NONE], [SOURCE, SOURCE, SOURCE], False),
    ("default_apart", "RGBA", [NONE, BACKGROUND, PREVIOUS, NONE], [SOURCE, SOURCE, OVER, SOURCE], True),
]


def main():
    os.makedirs(OUT, exist_ok=True)
    for seed, (name, mode, disposal, blend, default_apart) in enumerate(CASES):
        ims = frames(mode, len(blend), seed)
        first, rest = ims[0], ims[1:]
        kwargs = dict(save_all=True, disposal=disposal, blend=blend, duration=100)
        if mode == "P":
            kwargs["transparency"] = 0
        if default_apart:
            # The default image, shown by viewers without APNG, is none of the frames.
            first = Image.new(mode, (W, H), colour(random.Random(99), mode))
            rest = ims
        path = os.path.join(OUT, name + ".png")
        first.save(path, append_images=rest, default_image=default_apart, **kwargs)
        with Image.open(path) as read:
            for n in range(read.n_frames):
                read.seek(n)
                frame = read.convert("RGBA") if read.mode == "P" else read.copy()
                frame.save(os.path.join(OUT, "%s.%d.png" % (name, n)))
                frame.close()


if __name__ == "__main__":
    main()
