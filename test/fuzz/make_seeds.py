#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora under test/fuzz/corpus/ (deterministic).

One tiny file per format and layout the decoder takes, so that the replay
in ctest walks every decoder and the fuzzer starts from each; argument
lists for the command line; manifests; image pairs for compare; and --map
expressions.
PNG, PNM, PSD and Radiance headers are written here by hand (Pillow writes
no interlaced PNG, plain PNM or PSD); JPEG, TIFF, WebP, BMP, TGA and GIF by
Pillow (Debian: python3-pil). Rerun only to change the set:
    python3 test/fuzz/make_seeds.py
"""
import io
import struct
import sys
import zlib
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent.parent / "scripts"))
from make_test_data import chunk, pack  # noqa: E402  (the PNG chunk and bit packing data/ uses)

CORPUS = ROOT / "corpus"
W, H = 9, 7  # every Adam7 pass holds pixels at this size


def sample(x, y, c, top):
    return (x * 37 + y * 91 + c * 53) * top // (W * 37 + H * 91 + 3 * 53)


def pixels(channels, top, w=W, h=H):
    return [[sample(x, y, c, top) for x in range(w) for c in range(channels)] for y in range(h)]


def png(rows, w, h, bits, colour, interlace=0, palette=None, trns=None, extra=b""):
    """rows: samples per row; interlaced, each Adam7 pass's rows filtered separately."""
    channels = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}[colour]
    if interlace:
        passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        raw = b""
        for x0, y0, dx, dy in passes:
            for y in range(y0, h, dy):
                picked = [s for x in range(x0, w, dx) for s in rows[y][x * channels:(x + 1) * channels]]
                raw += b"\x00" + pack(picked, bits) if picked else b""
    else:
        raw = b"".join(b"\x00" + pack(r, bits) for r in rows)
    body = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, bits, colour, 0, 0, interlace)) + extra
    if palette:
        body += chunk(b"PLTE", bytes(c for rgb in palette for c in rgb))
    if trns:
        body += chunk(b"tRNS", bytes(trns))
    return body + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def pnm(magic, channels, top, plain):
    rows = pixels(channels, top)
    if magic in ("P1", "P4"):
        rows = [[1 - (s * 2 // (top + 1)) for s in r] for r in rows]  # PBM: 1 is black
    head = f"{magic}\n# seed\n{W} {H}\n" + ("" if magic in ("P1", "P4") else f"{top}\n")
    if plain:
        return (head + "\n".join(" ".join(map(str, r)) for r in rows) + "\n").encode()
    bits = 1 if magic == "P4" else 16 if top > 255 else 8
    return head.encode() + b"".join(pack(r, bits) for r in rows)


def psd(rle, channels=3, bits=8):
    """A PSD with no layers: the merged image, raw or (8-bit) PackBits per row."""
    rows = pixels(channels, (1 << bits) - 1)
    planes = [[rows[y][c::channels] for y in range(H)] for c in range(channels)]
    head = b"8BPS" + struct.pack(">H6xHIIHH", 1, channels, H, W, bits, 3) + struct.pack(">III", 0, 0, 0)
    if not rle:
        return head + struct.pack(">H", 0) + b"".join(pack(r, bits) for p in planes for r in p)
    rows = [bytes([len(r) - 1]) + bytes(r) for p in planes for r in p]  # one literal run a row
    return head + struct.pack(">H", 1) + b"".join(struct.pack(">H", len(r)) for r in rows) + b"".join(rows)


def exif(orientation):
    """A little-endian EXIF block: IFD0 holding Make and Orientation."""
    ifd = struct.pack("<H", 2) + struct.pack("<HHII", 0x010F, 2, 12, 38) + struct.pack("<HHIHH", 0x0112, 3, 1, orientation, 0)
    return b"II*\x00" + struct.pack("<I", 8) + ifd + struct.pack("<I", 0) + b"gpuimg-seed\x00"


def tiff_exif():
    """A little-endian 2x2 gray TIFF, byte by byte: IFD0 with Make and the
    Exif and GPS IFD pointers; the Exif IFD with ExposureTime 1/250 and ISO
    200; the GPS IFD with LatitudeRef and Latitude."""
    def ifd(entries, at):
        """entries: (tag, type, count, value bytes); values past 4 bytes after the IFD."""
        data_at = at + 2 + 12 * len(entries) + 4
        head, data = struct.pack("<H", len(entries)), b""
        for tag, kind, count, value in entries:
            if len(value) <= 4:
                head += struct.pack("<HHI", tag, kind, count) + value.ljust(4, b"\0")
            else:
                head += struct.pack("<HHII", tag, kind, count, data_at + len(data))
                data += value
        return head + struct.pack("<I", 0) + data

    short = lambda v: struct.pack("<H", v)
    long_ = lambda v: struct.pack("<I", v)
    gps = ifd([(1, 2, 2, b"N\0"), (2, 5, 3, struct.pack("<6I", 52, 1, 30, 1, 1234, 100))], 8)
    exif_at = 8 + len(gps)
    exif_ifd = ifd([(0x829A, 5, 1, struct.pack("<2I", 1, 250)), (0x8827, 3, 1, short(200))], exif_at)
    image_at = exif_at + len(exif_ifd)
    pixels_at = image_at + 2 + 12 * 13 + 4 + 8  # after IFD0 and its Make
    image = ifd([(256, 3, 1, short(2)), (257, 3, 1, short(2)), (258, 3, 1, short(8)), (259, 3, 1, short(1)),
                 (262, 3, 1, short(1)), (271, 2, 8, b"fuzzcam\0"), (273, 4, 1, long_(pixels_at)), (274, 3, 1, short(6)),
                 (277, 3, 1, short(1)), (278, 3, 1, short(2)), (279, 4, 1, long_(4)), (34665, 4, 1, long_(exif_at)),
                 (34853, 4, 1, long_(8))], image_at)
    return b"II*\0" + struct.pack("<I", image_at) + gps + exif_ifd + image + bytes([10, 20, 30, 40])


def icc(size, space=b"RGB "):
    body = bytes((i * 31 + 7) & 0xFF for i in range(size - 4))
    return struct.pack(">I", size) + body[:12] + space + body[16:]


def png_metadata():
    xmp = b"<x:xmpmeta xmlns:x='adobe:ns:meta/'>seed</x:xmpmeta>"
    extra = (chunk(b"iCCP", b"ICC profile\x00\x00" + zlib.compress(icc(300), 9)) + chunk(b"eXIf", exif(6))
             + chunk(b"iTXt", b"XML:com.adobe.xmp\x00\x00\x00\x00\x00" + xmp))
    return png(pixels(3, 255), W, H, 8, 2, extra=extra)


def pillow_raw(mode):
    if mode == "I;16":
        return b"".join(struct.pack(f"<{W}H", *r) for r in pixels(1, 65535))
    channels = {"L": 1, "P": 1, "RGB": 3, "RGBA": 4}[mode]
    return b"".join(bytes(r) for r in pixels(channels, 15 if mode == "P" else 255))


def pillow(mode, fmt, **options):
    img = Image.frombytes(mode, (W, H), pillow_raw(mode))
    if mode == "P":
        img.putpalette([v for i in range(16) for v in (i * 17, 255 - i * 17, 128)])
    out = io.BytesIO()
    img.save(out, fmt, **options)
    return out.getvalue()


def apng(mode, disposal, blend, default_image=False):
    """Frames of the pattern shifted, each stored by Pillow as the rectangle
    that changed, at its offset; `default_image`: the first image apart."""
    frames = []
    for k in range(len(disposal) + (1 if default_image else 0)):
        img = Image.frombytes("RGBA", (W, H), pillow_raw("RGBA"))
        img = img.transform((W, H), Image.AFFINE, (1, 0, k, 0, 1, k // 2)).convert(mode)
        frames.append(img)
    out = io.BytesIO()
    frames[0].save(out, "PNG", save_all=True, append_images=frames[1:], disposal=disposal, blend=blend,
                   default_image=default_image)
    return out.getvalue()


def tiff_ifd(entries):
    """A little-endian TIFF's header and first IFD: (tag, type, value) entries of count 1, no next IFD."""
    body = b"II*\0" + struct.pack("<IH", 8, len(entries))
    body += b"".join(struct.pack("<HHII", tag, kind, 1, value) for tag, kind, value in entries)
    return body + struct.pack("<I", 0)


def decode_seeds():
    palette = [(i * 17, 255 - i * 17, 90) for i in range(16)]
    trns = [255 - 16 * i for i in range(16)]
    return {
        "png_gray1.png": png([[s // 128 for s in r] for r in pixels(1, 255)], W, H, 1, 0),
        "png_gray_alpha8.png": png(pixels(2, 255), W, H, 8, 4),
        "png_rgb8.png": png(pixels(3, 255), W, H, 8, 2),
        "png_rgba16.png": png(pixels(4, 65535), W, H, 16, 6),
        "png_gray16.png": png(pixels(1, 65535), W, H, 16, 0),
        "png_palette_trns.png": png(pixels(1, 15), W, H, 8, 3, palette=palette, trns=trns),
        "png_interlaced_rgb8.png": png(pixels(3, 255), W, H, 8, 2, interlace=1),
        "png_interlaced_gray16.png": png(pixels(1, 65535), W, H, 16, 0, interlace=1),
        "jpeg_gray.jpg": pillow("L", "JPEG", quality=90),
        "jpeg_rgb.jpg": pillow("RGB", "JPEG", quality=90),
        "jpeg_rgb_progressive.jpg": pillow("RGB", "JPEG", quality=90, progressive=True),
        # Metadata, read as the processing command reads it: an ICC profile
        # in two APP2 chunks, EXIF orientation 6; PNG's iCCP, eXIf and iTXt;
        # TIFF's ICC profile and Orientation, and its Exif and GPS IFDs.
        "jpeg_metadata.jpg": pillow("RGB", "JPEG", quality=90, exif=b"Exif\x00\x00" + exif(6), icc_profile=icc(70000)),
        "png_metadata.png": png_metadata(),
        "tiff_metadata.tif": pillow("RGB", "TIFF", icc_profile=icc(300), tiffinfo={274: 8}),
        "tiff_exif.tif": tiff_exif(),
        "tiff_rgb.tif": pillow("RGB", "TIFF"),
        "tiff_rgba_lzw.tif": pillow("RGBA", "TIFF", compression="tiff_lzw"),
        "tiff_gray16.tif": pillow("I;16", "TIFF"),
        "webp_lossless.webp": pillow("RGBA", "WEBP", lossless=True),
        "webp_lossy.webp": pillow("RGB", "WEBP", quality=80),
        "bmp_rgb.bmp": pillow("RGB", "BMP"),
        "bmp_palette.bmp": pillow("P", "BMP"),
        "pnm_p1.pbm": pnm("P1", 1, 255, True),
        "pnm_p2.pgm": pnm("P2", 1, 255, True),
        "pnm_p3.ppm": pnm("P3", 3, 255, True),
        "pnm_p4.pbm": pnm("P4", 1, 255, False),
        "pnm_p5.pgm": pnm("P5", 1, 255, False),
        "pnm_p5_16bit.pgm": pnm("P5", 1, 65535, False),
        "pnm_p6.ppm": pnm("P6", 3, 255, False),
        "tga_raw.tga": pillow("RGBA", "TGA", compression=None),
        "tga_rle.tga": pillow("RGB", "TGA", compression="tga_rle"),
        "psd_raw.psd": psd(rle=False),
        "psd_rle.psd": psd(rle=True),
        "gif.gif": pillow("P", "GIF"),
        # APNG: every dispose_op and blend_op, frames at offsets, and a
        # default image apart from the animation.
        "apng_rgba.png": apng("RGBA", [0, 1, 2, 0], [0, 1, 0, 1]),
        "apng_rgb_default_apart.png": apng("RGB", [1, 2, 0], [0, 1, 1], default_image=True),
        "apng_gray.png": apng("L", [0, 2, 0], [0, 0, 1]),
        "radiance.hdr": b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y 1 +X 1\n\x80\x80\x80\x81",
        # Findings of the decode fuzzer, each fixed since and kept so that it
        # stays fixed. stb_image, which read PSDs before psd_codec.cpp,
        # "removed the white matte" of RGBA pixels whose alpha is neither 0
        # nor full by a float expression that went below 0 and converted it
        # to an unsigned type (undefined; UBSan: stb_image.h:6213 at 16 bits,
        # 6225 at 8).
        "finding_psd_rgba8_matte.psd": psd(rle=False, channels=4, bits=8),
        "finding_psd_rgba16_matte.psd": psd(rle=False, channels=4, bits=16),
        # A size the header check could not read (not separated by white
        # space) but OpenCV could: it allocated the 2.4 GB image before
        # finding no pixels, whatever the pixel limit.
        "finding_pnm_size_past_limit.ppm": b"P6\n20000x20000\n65535\n",
        # A comment straight after the width: the header check and the probe
        # skipped the rest of the line and took 65535 for the height, OpenCV
        # took 7 and decoded 1x7. The pixel limit was checked on the wrong
        # size: "P5\n200# 200\n1\n" and 40000 samples passed --max-pixels 1000.
        "finding_pnm_comment_after_width.pgm": b"P5\n1# 7\n65535\n" + bytes(range(14)),
        # A classic TIFF entry of type LONG8 (BigTIFF's): the header check
        # read its 8-byte value at 8 bytes into a 12-byte entry, the last in
        # the file, 4 bytes past the end (AddressSanitizer: heap overflow).
        "finding_tiff_long8_entry.tif": b"II*\0" + struct.pack("<IHHHII", 8, 1, 256, 16, 1, 9),
        # A lossy WebP whose VP8 chunk claims 32 of the 48 bytes after it:
        # libwebp's decoder reads the 32 and decodes, its demuxer takes the
        # 16 left for a broken chunk. gpuimg info read every WebP through the
        # demuxer, and refused an image the processing command reads.
        "finding_webp_chunk_past_image.webp": bytes.fromhex(
            "524946463c000000574542505650382020000000d001009d012a090007000140262594027400f4aec6b6"
            "0000fefc74f035c2e5f13f95e2d4c47e6d5a4d22f1cde01c1000"),
        # gpuimg info, which sets no pixel limit, described this JPEG TIFF of
        # 4294967280x1 in one strip, whose sides the decoder refuses.
        "info_tiff_side_past_int.tif": tiff_ifd([(256, 4, 4294967280), (257, 4, 1), (258, 3, 8), (259, 3, 7),
                                                 (262, 3, 1), (273, 4, 122), (277, 3, 1), (278, 4, 1),
                                                 (279, 4, 100)]) + bytes(100),
    }


def ops_seeds():
    """Command lines, one argument a line."""
    lines = {
        "one_image": "in.png --blur 3 --invert out.png",
        "every_option": "photo.jpg --sharpen 0.8 --blur 1 --sharpen 0.5 result.tif --device cpu --max-pixels 100 "
                        "--quality 90 --png-level 9 -v",
        "batch": "a.png b.jpg out/ --format jpg --jobs 4 --shard 2/3 --skip-existing --fail-fast --quiet",
        "files_from": "--files-from - --invert out/ --devices 0,1 --no-recursive --progress",
        "compare": "compare expected.png actual.png --max-diff 1 --psnr 45 --ssim 0.99 --diff d.png --json",
        "golden": "golden check cases.txt --device cpu",
        "bad_value": "in.png --blur out.png",
        "unknown": "in.png --blurr 3 out.png",
        "list_ops": "--list-ops",
        "help": "--help",
    }
    return {name: "\n".join(text.split()).encode() for name, text in lines.items()}


def manifest_seeds():
    return {
        "cases.txt": (ROOT.parent.parent / "data" / "golden" / "cases.txt").read_bytes(),
        "limits.txt": b"# a comment\n\nblur | in.png | --blur 3 --invert | max-diff=1 min-psnr=45 ssim=0.99\n"
                      b"sharpen_2 | sub/in.png | --sharpen 0.5 --sharpen 1000 | max-differing-share=0.5\n",
        "bad.txt": b"a b | in.png | --blur\nname | in.png | --nope | max-mae=x\n",
    }


def compare_seeds(images):
    """Pairs: a 4-byte little-endian length of the expected image's bytes, then it, then the actual image."""
    def pair(expected, actual):
        return struct.pack("<I", len(expected)) + expected + actual

    def changed(channels, top, bits, colour):
        rows = [[s ^ 5 if i % 7 == 0 else s for i, s in enumerate(r)] for r in pixels(channels, top)]
        return png(rows, W, H, bits, colour)

    rgb8, rgba16 = images["png_rgb8.png"], images["png_rgba16.png"]
    one = png([[10]], 1, 1, 8, 0)
    return {
        "identical": pair(rgb8, rgb8),
        "rgb8_differs": pair(rgb8, changed(3, 255, 8, 2)),
        "rgba16_differs": pair(rgba16, changed(4, 65535, 16, 6)),
        "gray_vs_rgb": pair(images["png_gray_alpha8.png"], rgb8),
        "one_pixel": pair(one, png([[200]], 1, 1, 8, 0)),
        "jpeg_vs_png": pair(images["jpeg_gray.jpg"], png(pixels(1, 255), W, H, 8, 0)),
    }


def expr_seeds():
    """--map expressions: every operator and function, and ones the compiler refuses."""
    return {
        "all.txt": b"clamp(mix(v, r*g/b, a) ^ 2.2 + step(0.5, x/w) - smoothstep(0, 1, y/h), 0, 1) ? "
                   b"min(max(abs(floor(v) + ceil(v) + round(v)), sqrt(v)), exp(log(v + 1e-3))) : "
                   b"-sin(v*pi) * cos(c) + tan(e) + atan2(y, x) + hypot(r, g) + pow(v, .5)",
        "logic.txt": b"!(v < .5) && v <= 1 || v > 2 && v >= -1 || v == 0 != (v != 1)",
        "more.txt": b"min(v, r, g, b) + max(v % 0.25, sign(v - .5), trunc(x / 7)) + log2(v) + log10(w) + "
                    b"asin(v * 2 - 1) + acos(g) + atan(y)",
        "hyperbolic.txt": b"sinh(v) + cosh(r)\n\t- tanh(g) * asinh(b)\r\n+ acosh(1 + x) + atanh(v / 2)\n"
                          b"+ log1p(v) - expm1(-v) + cbrt(v - .5) * exp2(y / h)",
        "lines.txt": b"r * 0.3 +\n  g * * 0.6 +\n  cot(b)",
        "channels.txt": b"r; g * 0.5; 1 - b",
        "errors.txt": b"clamp(vv, 1e400) + sine(x",
        "nested.txt": b"((((((((-(-(+(!v))))))))))) ^ -2 ^ 3",
    }


def write(folder, files):
    (CORPUS / folder).mkdir(parents=True, exist_ok=True)
    for name, data in files.items():
        (CORPUS / folder / name).write_bytes(data)
    print(f"{folder}: {len(files)} seeds, {sum(len(d) for d in files.values())} bytes")


if __name__ == "__main__":
    images = decode_seeds()
    write("decode", images)
    write("ops", ops_seeds())
    write("manifest", manifest_seeds())
    write("compare", compare_seeds(images))
    write("expr", expr_seeds())
