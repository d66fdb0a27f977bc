#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Regenerate every test fixture of KingfisherTests into this directory.

Requirements (Python 3.11 was used):

    pip install pillow scikit-image

(Pillow 13 and scikit-image 0.26 were used; numpy comes with scikit-image.)
Optional: `cjpeg` from libjpeg-turbo (Debian: libjpeg-turbo-progs) for the
4:1:1 and 4:4:0 JPEGs.  Without it those two fixtures are kept if they
already exist (their refs are re-derived) and skipped otherwise.

Usage:

    python3 Tests/Fixtures/make_fixtures.py

The script is deterministic (fixed seeds, no clocks) and idempotent: running
it again rewrites byte-identical files, as long as the same Pillow/libjpeg/
libwebp/zlib builds are used.  It also checks its own output and exits with
an error if a check fails.

Conventions
-----------
* `<fixture-name>.ref.png` (or `<fixture-name>.frame<N>.ref.png` for
  animations) is an 8-bit, non-interlaced RGBA PNG written by Pillow holding
  the upright, straight (not premultiplied) RGBA pixels that a correct
  decoder must produce.
* `manifest.json` describes every fixture; see `CONVENTIONS` below.
* PNG and GIF fixtures with odd features are written by the small encoders in
  this file, so their refs are computed from the source arrays, not read back
  through Pillow.  Pillow (and ImageMagick's `identify`, when present) is only
  used to check that these files are valid.
"""

import hashlib
import io
import json
import os
import shutil
import struct
import subprocess
import sys
import zlib

import numpy as np
from PIL import Image, ImageOps
import skimage.data

OUT = os.path.dirname(os.path.abspath(__file__))
FIXTURES = []  # manifest entries, in generation order
WRITTEN = []   # every file written, for the summary

CONVENTIONS = {
    "refs": "8-bit RGBA non-interlaced PNGs (straight alpha) with the upright pixels a "
            "correct decoder must produce; one per frame for animations.",
    "width/height": "upright (displayed) size, after EXIF orientation; for purpose "
                    "'invalid' the size the header claims; null if unknown.",
    "pixelWidth/pixelHeight": "size of the pixel grid stored in the file (differs from "
                              "width/height only for EXIF orientations 5-8).",
    "durations": "seconds per frame; empty for still images. GIF delays of 0.011 s or "
                 "less are given as 0.1 s.",
    "loopCount": "raw loop count of an animation (NETSCAPE2.0 / WebP ANIM value; "
                 "0 = infinite); 1 for an animated GIF without a NETSCAPE extension; "
                 "null for still images.",
    "hasAlpha": "true if any reference pixel has alpha < 255.",
    "orientation": "EXIF orientation tag value (1 when absent).",
    "refKind": "'exact': refs are the true pixels of the source; 'pillow': refs are "
               "Pillow's own decode (lossy formats: allow a small tolerance when "
               "comparing another decoder's output).",
    "refMaxError": "largest per-channel difference between Pillow's decode of the "
                   "fixture (oriented) and its ref(s); a hint for tolerances.",
    "purpose": "'decode': must decode to the refs; 'recognise': only the format must be "
               "detected from magic bytes; 'invalid': must be rejected / must not "
               "allocate the claimed size.",
}


# ----------------------------------------------------------------------------
# small helpers
# ----------------------------------------------------------------------------

def path_of(name):
    return os.path.join(OUT, name)


def write_bytes(name, data):
    with open(path_of(name), "wb") as f:
        f.write(data)
    WRITTEN.append(name)


def save_pil(name, im, **params):
    buf = io.BytesIO()
    fmt = params.pop("format")
    im.save(buf, format=fmt, **params)
    write_bytes(name, buf.getvalue())


def save_ref(name, rgba):
    rgba = np.ascontiguousarray(rgba, dtype=np.uint8)
    assert rgba.ndim == 3 and rgba.shape[2] == 4, rgba.shape
    im = Image.fromarray(rgba)
    assert im.mode == "RGBA"
    save_pil(name, im, format="PNG", optimize=True)
    return name


def rgba_of(im):
    """Pillow image -> uint8 (h, w, 4) array."""
    if im.mode == "CMYK":
        im = im.convert("RGB")
    return np.asarray(im.convert("RGBA"), dtype=np.uint8).copy()


def opaque(rgb):
    rgb = np.asarray(rgb, dtype=np.uint8)
    a = np.full(rgb.shape[:2] + (1,), 255, np.uint8)
    return np.concatenate([rgb, a], axis=2)


def max_err(a, b):
    if a.shape != b.shape:
        return None
    return int(np.abs(a.astype(np.int32) - b.astype(np.int32)).max())


def check(cond, msg):
    if not cond:
        raise SystemExit("CHECK FAILED: " + msg)


def add(name, file, fmt, purpose, width=None, height=None, frames=1, durations=(),
        loop_count=None, refs=(), ref_kind=None, ref_max_error=None, orientation=1,
        pixel_size=None, has_alpha=None, notes=None):
    if has_alpha is None and refs:
        has_alpha = any(
            bool((np.asarray(Image.open(path_of(r)).convert("RGBA"))[..., 3] < 255).any())
            for r in refs)
    pw, ph = pixel_size if pixel_size else (width, height)
    entry = {
        "name": name,
        "file": file,
        "format": fmt,
        "purpose": purpose,
        "width": width,
        "height": height,
        "pixelWidth": pw,
        "pixelHeight": ph,
        "frames": frames,
        "durations": [round(float(d), 6) for d in durations],
        "loopCount": loop_count,
        "hasAlpha": has_alpha,
        "orientation": orientation,
        "refs": list(refs),
        "refKind": ref_kind,
        "refMaxError": ref_max_error,
    }
    if notes:
        entry["notes"] = notes
    FIXTURES.append(entry)


def jpeg_segments(data):
    """Yield (marker, offset_of_marker, payload) up to and including SOS."""
    check(data[:2] == b"\xff\xd8", "not a JPEG")
    pos = 2
    while pos < len(data):
        check(data[pos] == 0xFF, "bad JPEG marker at %d" % pos)
        while data[pos] == 0xFF:
            pos += 1
        marker = data[pos]
        pos += 1
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:
            continue
        length = struct.unpack(">H", data[pos:pos + 2])[0]
        yield marker, pos - 2, data[pos + 2:pos + length]
        if marker == 0xDA:
            return
        pos += length


def jpeg_info(data):
    """-> dict(sof=marker, width, height, sampling=[(h, v), ...], adobe=transform|None)"""
    info = {"adobe": None, "exif": False}
    for marker, _, payload in jpeg_segments(data):
        if marker in (0xC0, 0xC1, 0xC2):
            info["sof"] = marker
            info["height"], info["width"] = struct.unpack(">HH", payload[1:5])
            n = payload[5]
            info["sampling"] = [(payload[6 + 3 * i + 1] >> 4, payload[6 + 3 * i + 1] & 15)
                                for i in range(n)]
        elif marker == 0xEE and payload.startswith(b"Adobe"):
            info["adobe"] = payload[11]
        elif marker == 0xE1 and payload.startswith(b"Exif\0\0"):
            info["exif"] = True
    return info


# ----------------------------------------------------------------------------
# 1. photos
# ----------------------------------------------------------------------------

PHOTO_W, PHOTO_H = 190, 127  # ~3:2, deliberately not a multiple of 8/16 (partial MCUs)


def photo_sources():
    def fit(arr, box):
        im = Image.fromarray(arr).convert("RGB").crop(box)
        return im.resize((PHOTO_W, PHOTO_H), Image.Resampling.LANCZOS)
    return {
        "astronaut": fit(skimage.data.astronaut(), (0, 20, 512, 361)),
        "chelsea": fit(skimage.data.chelsea(), (0, 0, 450, 300)),
        "coffee": fit(skimage.data.coffee(), (0, 0, 600, 400)),
    }


def rgb_to_cmyk_gcr(rgb):
    """Full grey-component replacement: K carries max(R,G,B); the inverse
    (255-C)(255-K)/255 then gives back the RGB (up to rounding)."""
    rgb = np.asarray(rgb, dtype=np.float64)
    mx = rgb.max(axis=2)
    k = 255.0 - mx
    safe = np.where(mx > 0, mx, 1.0)
    cmy = np.where(mx[..., None] > 0, 255.0 - rgb * 255.0 / safe[..., None], 0.0)
    cmyk = np.concatenate([cmy, k[..., None]], axis=2)
    return Image.fromarray(np.clip(np.rint(cmyk), 0, 255).astype(np.uint8), "CMYK")


def make_photos():
    src = photo_sources()

    def pillow_ref_jpeg(name, file, expect_sampling, expect_sof=0xC0, notes=None,
                        expect_adobe=None):
        data = open(path_of(file), "rb").read()
        info = jpeg_info(data)
        check(info["sof"] == expect_sof, "%s: SOF %x" % (file, info["sof"]))
        check(info["sampling"] == expect_sampling,
              "%s: sampling %r != %r" % (file, info["sampling"], expect_sampling))
        check((info["width"], info["height"]) == (PHOTO_W, PHOTO_H), file + ": size")
        if expect_adobe is not None:
            check(info["adobe"] == expect_adobe, "%s: Adobe transform %r" % (file, info["adobe"]))
        with Image.open(path_of(file)) as im:
            check(im.format == "JPEG", file)
            ref = rgba_of(im)
        r = save_ref(name + ".ref.png", ref)
        add(name, file, "jpeg", "decode", PHOTO_W, PHOTO_H, refs=[r], ref_kind="pillow",
            ref_max_error=0, notes=notes)
        return ref

    # Pillow-written JPEGs
    jpeg_specs = [
        ("photo_baseline_420", "astronaut", dict(subsampling="4:2:0"), [(2, 2), (1, 1), (1, 1)], 0xC0),
        ("photo_baseline_422", "astronaut", dict(subsampling="4:2:2"), [(2, 1), (1, 1), (1, 1)], 0xC0),
        ("photo_baseline_444", "astronaut", dict(subsampling="4:4:4"), [(1, 1), (1, 1), (1, 1)], 0xC0),
        ("photo_progressive", "chelsea", dict(subsampling="4:2:0", progressive=True),
         [(2, 2), (1, 1), (1, 1)], 0xC2),
    ]
    for name, s, params, sampling, sof in jpeg_specs:
        save_pil(name + ".jpg", src[s], format="JPEG", quality=90, **params)
        pillow_ref_jpeg(name, name + ".jpg", sampling, sof,
                        notes="source: skimage.data.%s(), quality 90" % s)

    save_pil("photo_gray.jpg", src["coffee"].convert("L"), format="JPEG", quality=90)
    pillow_ref_jpeg("photo_gray", "photo_gray.jpg", [(1, 1)],
                    notes="single-component (grayscale) JPEG; ref has R=G=B")

    cmyk = rgb_to_cmyk_gcr(src["chelsea"])
    save_pil("photo_cmyk.jpg", cmyk, format="JPEG", quality=90)
    ref = pillow_ref_jpeg(
        "photo_cmyk", "photo_cmyk.jpg", [(1, 1)] * 4, expect_adobe=0,
        notes="4-component CMYK JPEG with Adobe APP14 (transform 0); samples stored "
              "inverted (Adobe/Photoshop convention, 255 = no ink). Ref = Pillow's "
              "naive conversion R=(255-C)(255-K)/255 etc. (no ICC profile).")
    # sanity: with the GCR split above the naive conversion recovers the photo
    check(max_err(ref[..., :3], np.asarray(src["chelsea"])) < 40, "cmyk round trip")

    # 4:1:1 and 4:4:0 need cjpeg (Pillow only knows 4:4:4, 4:2:2, 4:2:0)
    cjpeg = shutil.which("cjpeg")
    for name, sample, sampling in [("photo_411", "4x1,1x1,1x1", [(4, 1), (1, 1), (1, 1)]),
                                   ("photo_440", "1x2,1x1,1x1", [(1, 2), (1, 1), (1, 1)])]:
        file = name + ".jpg"
        if cjpeg:
            ppm = io.BytesIO()
            src["chelsea"].save(ppm, format="PPM")
            data = subprocess.run([cjpeg, "-quality", "90", "-sample", sample],
                                  input=ppm.getvalue(), stdout=subprocess.PIPE,
                                  check=True).stdout
            write_bytes(file, data)
        elif not os.path.exists(path_of(file)):
            print("warning: cjpeg not found, skipping", file, file=sys.stderr)
            continue
        else:
            print("warning: cjpeg not found, keeping existing", file, file=sys.stderr)
        pillow_ref_jpeg(name, file, sampling,
                        notes="written by libjpeg-turbo cjpeg -quality 90 -sample " + sample)

    # lossless PNG and WebP: exact refs
    coffee = np.asarray(src["coffee"])
    save_pil("photo.png", src["coffee"], format="PNG", optimize=True)
    photo_ref = save_ref("photo.ref.png", opaque(coffee))
    with Image.open(path_of("photo.png")) as im:
        check(im.mode == "RGB" and max_err(rgba_of(im), opaque(coffee)) == 0, "photo.png")
    add("photo", "photo.png", "png", "decode", PHOTO_W, PHOTO_H, refs=[photo_ref],
        ref_kind="exact", ref_max_error=0, notes="RGB 8-bit, written by Pillow")

    save_pil("photo_lossless.webp", src["coffee"], format="WEBP", lossless=True)
    with Image.open(path_of("photo_lossless.webp")) as im:
        err = max_err(rgba_of(im), opaque(coffee))
    check(err == 0, "lossless webp not exact")
    add("photo_lossless", "photo_lossless.webp", "webp", "decode", PHOTO_W, PHOTO_H,
        refs=[photo_ref], ref_kind="exact", ref_max_error=err,
        notes="VP8L lossless, same pixels as photo.png (shares its ref)")

    save_pil("photo_lossy.webp", src["coffee"], format="WEBP", quality=80)
    with Image.open(path_of("photo_lossy.webp")) as im:
        ref = rgba_of(im)
    r = save_ref("photo_lossy.ref.png", ref)
    add("photo_lossy", "photo_lossy.webp", "webp", "decode", PHOTO_W, PHOTO_H, refs=[r],
        ref_kind="pillow", ref_max_error=0, notes="VP8 lossy quality 80 (simple format)")

    astro = np.asarray(src["astronaut"])
    xs = np.arange(PHOTO_W)
    alpha = np.rint(255.0 * (1.0 - xs / (PHOTO_W - 1)))[None, :].repeat(PHOTO_H, 0)
    rgba = np.concatenate([astro, alpha[..., None].astype(np.uint8)], axis=2)
    save_pil("photo_alpha.webp", Image.fromarray(rgba), format="WEBP", quality=80)
    with Image.open(path_of("photo_alpha.webp")) as im:
        ref = rgba_of(im)
    check(ref[:, 0, 3].min() == 255 and ref[:, -1, 3].max() == 0, "webp alpha gradient")
    r = save_ref("photo_alpha.ref.png", ref)
    add("photo_alpha", "photo_alpha.webp", "webp", "decode", PHOTO_W, PHOTO_H, refs=[r],
        ref_kind="pillow", ref_max_error=0,
        notes="VP8X + ALPH + VP8: lossy colour, alpha falls 255 -> 0 left to right. "
              "Colour under alpha 0 is not meaningful.")

    q = src["chelsea"].quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                dither=Image.Dither.FLOYDSTEINBERG)
    save_pil("photo.gif", q, format="GIF")
    with Image.open(path_of("photo.gif")) as im:
        check(getattr(im, "n_frames", 1) == 1, "photo.gif frames")
        ref = rgba_of(im)
    r = save_ref("photo_gif.ref.png", ref)
    add("photo_gif", "photo.gif", "gif", "decode", PHOTO_W, PHOTO_H, refs=[r],
        ref_kind="pillow", ref_max_error=0,
        notes="single-frame GIF quantised by Pillow (median cut, Floyd-Steinberg); "
              "no GCE/NETSCAPE; the ref is exact (GIF is lossless)")


# ----------------------------------------------------------------------------
# 2. EXIF orientation
# ----------------------------------------------------------------------------

def make_orientation():
    colours = [(230, 30, 30), (30, 200, 40), (40, 60, 220),
               (240, 220, 30), (30, 210, 220), (210, 40, 200)]
    u = np.zeros((32, 48, 3), np.uint8)
    for i, c in enumerate(colours):
        r, col = divmod(i, 3)
        u[r * 16:(r + 1) * 16, col * 16:(col + 1) * 16] = c
    ref_rgba = opaque(u)
    ref = save_ref("orientation.ref.png", ref_rgba)
    T = Image.Transpose
    inverse = {1: None, 2: T.FLIP_LEFT_RIGHT, 3: T.ROTATE_180, 4: T.FLIP_TOP_BOTTOM,
               5: T.TRANSPOSE, 6: T.ROTATE_90, 7: T.TRANSVERSE, 8: T.ROTATE_270}
    upright = Image.fromarray(u)
    for o in range(1, 9):
        stored = upright if inverse[o] is None else upright.transpose(inverse[o])
        exif = Image.Exif()
        exif[0x0112] = o
        file = "orientation_%d.jpg" % o
        save_pil(file, stored, format="JPEG", quality=95, subsampling="4:4:4",
                 exif=exif.tobytes())
        data = open(path_of(file), "rb").read()
        info = jpeg_info(data)
        check(info["exif"] and info["sampling"] == [(1, 1)] * 3, file + " markers")
        with Image.open(path_of(file)) as im:
            check(im.getexif().get(0x0112) == o, file + " orientation tag")
            fixed = ImageOps.exif_transpose(im)
            got = rgba_of(fixed)
        check(got.shape == ref_rgba.shape, file + " upright shape %r" % (got.shape,))
        err = max_err(got, ref_rgba)
        check(err <= 8, "%s: error %d" % (file, err))
        add("orientation_%d" % o, file, "jpeg", "decode", 48, 32, refs=[ref],
            ref_kind="exact", ref_max_error=err, orientation=o, pixel_size=stored.size,
            notes="stored pixels = upright image under the inverse of orientation %d; "
                  "ref = upright source (JPEG q95 4:4:4, compare with a small tolerance)" % o)


# ----------------------------------------------------------------------------
# 3. PNG: own encoder
# ----------------------------------------------------------------------------

PNG_SIG = b"\x89PNG\r\n\x1a\n"
ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
         (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]  # (x0, y0, dx, dy)


def png_chunk(ctype, data):
    return (struct.pack(">I", len(data)) + ctype + data
            + struct.pack(">I", zlib.crc32(ctype + data) & 0xFFFFFFFF))


def png_pack_row(samples, depth):
    """1-D sequence of samples -> packed scanline bytes (no filter byte)."""
    s = np.asarray(samples, dtype=np.int64)
    if depth == 16:
        return s.astype(">u2").tobytes()
    if depth == 8:
        return s.astype(np.uint8).tobytes()
    per = 8 // depth
    pad = (-len(s)) % per
    s = np.concatenate([s, np.zeros(pad, np.int64)]).reshape(-1, per)
    shifts = 8 - depth * (np.arange(per) + 1)
    return (s << shifts).sum(axis=1).astype(np.uint8).tobytes()


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def png_filter(ftype, raw, prev, bpp):
    out = bytearray(len(raw))
    for i, x in enumerate(raw):
        a = raw[i - bpp] if i >= bpp else 0
        b = prev[i]
        c = prev[i - bpp] if i >= bpp else 0
        if ftype == 0:
            pred = 0
        elif ftype == 1:
            pred = a
        elif ftype == 2:
            pred = b
        elif ftype == 3:
            pred = (a + b) >> 1
        else:
            pred = paeth(a, b, c)
        out[i] = (x - pred) & 0xFF
    return bytes([ftype]) + bytes(out)


def png_scanlines(samples, depth, filter_offset, interlace):
    """samples: (h, w, channels) ints -> filtered scanline stream."""
    h, w, ch = samples.shape
    bpp = max(1, ch * depth // 8)
    images = [samples] if not interlace else [
        samples[y0::dy, x0::dx] for (x0, y0, dx, dy) in ADAM7]
    out = bytearray()
    row_no = filter_offset
    for sub in images:
        sh, sw = sub.shape[:2]
        if sh == 0 or sw == 0:
            continue  # empty Adam7 pass: no scanlines at all
        prev = bytes(len(png_pack_row(sub[0].reshape(-1), depth)))
        for y in range(sh):
            raw = png_pack_row(sub[y].reshape(-1), depth)
            out += png_filter(row_no % 5, raw, prev, bpp)
            prev = raw
            row_no += 1
    return bytes(out)


def png_bytes(width, height, depth, color_type, idat_payload, interlace=0,
              before_idat=(), idat_split=128):
    out = PNG_SIG + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth,
                                                   color_type, 0, 0, interlace))
    for ctype, data in before_idat:
        out += png_chunk(ctype, data)
    for i in range(0, max(len(idat_payload), 1), idat_split):
        out += png_chunk(b"IDAT", idat_payload[i:i + idat_split])
    return out + png_chunk(b"IEND", b"")


def sample_pattern(h, w, ch, maxv, seed):
    """Varied deterministic content: gradients, noise rows, both extremes."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    out = np.empty((h, w, ch), np.int64)
    span = w + h - 1
    for c in range(ch):
        grad = ((x * (3 + 2 * c) + y * (5 + c) + 7 * c) % (span + 1)) * maxv // span
        noise = rng.integers(0, maxv + 1, size=(h, w))
        out[..., c] = np.where(y % 3 == 1, noise, grad)
    out[0, 0, :] = 0
    out[0, -1, :] = maxv
    out[-1, 0, :] = maxv // 2
    out[-1, -1, :] = maxv
    return out


def to8(v, depth):
    v = np.asarray(v, np.int64)
    if depth == 16:
        return (v >> 8).astype(np.uint8)
    return (v * 255 // ((1 << depth) - 1)).astype(np.uint8)


def make_pngs():
    W, H = 17, 13
    seed = [100]

    def emit(name, samples, depth, color_type, expected, interlace=0, extra=(),
             pillow_compare="rgba", notes=None):
        seed[0] += 1
        h, w = samples.shape[:2]
        stream = png_scanlines(samples, depth, seed[0] % 5, interlace)
        payload = zlib.compress(stream, 9)
        file = name + ".png"
        write_bytes(file, png_bytes(w, h, depth, color_type, payload, interlace, extra))
        # validity check through Pillow
        with Image.open(path_of(file)) as im:
            im.load()
            check(im.size == (w, h), file + " size")
            if pillow_compare == "rgba":
                got = rgba_of(im)
                err = max_err(got, expected)
            elif pillow_compare == "raw16":  # Pillow keeps 16-bit gray as I;16
                got = np.asarray(im).astype(np.int64)
                err = int(np.abs(got - samples[..., 0]).max())
            elif pillow_compare == "rgb":  # Pillow ignores 16-bit tRNS keys
                err = max_err(rgba_of(im)[..., :3], expected[..., :3])
            check(err == 0, "%s: Pillow disagrees (max error %s)" % (file, err))
        r = save_ref(name + ".ref.png", expected)
        add(name, file, "png", "decode", w, h, refs=[r], ref_kind="exact",
            ref_max_error=0, notes=notes)

    # grayscale, all depths
    for d in (1, 2, 4, 8, 16):
        s = sample_pattern(H, W, 1, (1 << d) - 1, d)
        g = to8(s[..., 0], d)
        exp = opaque(np.stack([g] * 3, axis=2))
        emit("png_gray_%d" % d, s, d, 0, exp,
             pillow_compare="raw16" if d == 16 else "rgba",
             notes="colour type 0, bit depth %d" % d)

    # gray + alpha, rgb, rgba
    for d in (8, 16):
        s = sample_pattern(H, W, 2, (1 << d) - 1, 20 + d)
        g, a = to8(s[..., 0], d), to8(s[..., 1], d)
        emit("png_gray_alpha_%d" % d, s, d, 4, np.stack([g, g, g, a], axis=2),
             notes="colour type 4, bit depth %d" % d)
    for d in (8, 16):
        s = sample_pattern(H, W, 3, (1 << d) - 1, 40 + d)
        emit("png_rgb_%d" % d, s, d, 2, opaque(to8(s, d)),
             notes="colour type 2, bit depth %d" % d)
    for d in (8, 16):
        s = sample_pattern(H, W, 4, (1 << d) - 1, 60 + d)
        emit("png_rgba_%d" % d, s, d, 6, to8(s, d), notes="colour type 6, bit depth %d" % d)

    # palettes
    rng = np.random.default_rng(7)
    for d, n in ((1, 2), (2, 4), (4, 13), (8, 200)):
        pal = rng.integers(0, 256, size=(n, 3))
        pal[0] = (0, 0, 0)
        pal[-1] = (255, 255, 255)
        idx = sample_pattern(H, W, 1, n - 1, 80 + d)
        plte = pal.astype(np.uint8).tobytes()
        emit("png_palette_%d" % d, idx, d, 3, opaque(pal[idx[..., 0]].astype(np.uint8)),
             extra=[(b"PLTE", plte)],
             notes="colour type 3, bit depth %d, %d palette entries" % (d, n))

    pal = rng.integers(0, 256, size=(64, 3))
    trns = np.array([0, 64, 128, 255, 1, 254, 32, 200, 0, 100, 160, 90, 17, 230, 45, 0,
                     75, 128, 255, 10], np.int64)  # 20 entries < 64 palette entries
    idx = sample_pattern(H, W, 1, 63, 90)
    alpha_of = np.full(64, 255, np.int64)
    alpha_of[:len(trns)] = trns
    exp = np.concatenate([pal[idx[..., 0]], alpha_of[idx[..., 0]][..., None]], axis=2)
    emit("png_palette_trns", idx, 8, 3, exp.astype(np.uint8),
         extra=[(b"PLTE", pal.astype(np.uint8).tobytes()),
                (b"tRNS", trns.astype(np.uint8).tobytes())],
         notes="8-bit palette of 64 entries with a 20-entry tRNS (entries >= 20 opaque)")

    # colour keys
    s = sample_pattern(H, W, 3, 255, 120)
    key = (12, 200, 99)
    s[2:5, 3:9] = key
    s[9, 10:16] = key
    s[6, 0:5] = (12, 200, 98)  # near-miss stays opaque
    a = np.where((s == key).all(axis=2), 0, 255)
    emit("png_rgb_trns", s, 8, 2, np.concatenate([s, a[..., None]], axis=2).astype(np.uint8),
         extra=[(b"tRNS", struct.pack(">HHH", *key))],
         notes="RGB 8 with tRNS colour key %r" % (key,))

    s = sample_pattern(H, W, 1, 255, 121)
    gkey = 77
    s[4:8, 5:12, 0] = gkey
    s[11, :, 0] = gkey
    a = np.where(s[..., 0] == gkey, 0, 255)
    g = s[..., 0]
    emit("png_gray_trns", s, 8, 0, np.stack([g, g, g, a], axis=2).astype(np.uint8),
         extra=[(b"tRNS", struct.pack(">H", gkey))],
         notes="gray 8 with tRNS key %d" % gkey)

    s = sample_pattern(H, W, 3, 65535, 122)
    key16 = (0x1234, 0xABCD, 0x0F0F)
    s[1:4, 2:7] = key16
    s[8, 3:12] = (0x1299, 0xAB00, 0x0FFF)  # same high bytes, different value: opaque
    a = np.where((s == key16).all(axis=2), 0, 255)
    emit("png_rgb_16_trns", s, 16, 2,
         np.concatenate([to8(s, 16), a[..., None].astype(np.uint8)], axis=2),
         extra=[(b"tRNS", struct.pack(">HHH", *key16))], pillow_compare="rgb",
         notes="RGB 16 with 16-bit tRNS key: only exact 16-bit matches are transparent "
               "(row 8 has the key's high bytes but is opaque)")

    # Adam7
    s = sample_pattern(H, W, 4, 255, 130)
    emit("png_rgba_8_adam7", s, 8, 6, s.astype(np.uint8), interlace=1,
         notes="RGBA 8, Adam7 interlaced")
    s = sample_pattern(H, W, 1, 3, 131)
    g = to8(s[..., 0], 2)
    emit("png_gray_2_adam7", s, 2, 0, opaque(np.stack([g] * 3, axis=2)), interlace=1,
         notes="gray 2-bit, Adam7 interlaced")
    s = sample_pattern(H, W, 3, 65535, 132)
    emit("png_rgb_16_adam7", s, 16, 2, opaque(to8(s, 16)), interlace=1,
         notes="RGB 16, Adam7 interlaced")
    s = sample_pattern(3, 3, 3, 255, 133)
    emit("png_rgb_8_adam7_3x3", s, 8, 2, opaque(s.astype(np.uint8)), interlace=1,
         notes="3x3 Adam7: passes 2 and 3 are empty and have no scanlines")


# ----------------------------------------------------------------------------
# 4. GIF: own encoder
# ----------------------------------------------------------------------------

def lzw_encode(indices, min_size, clear_at=511):
    """GIF LZW. Emits a clear code whenever the next free code reaches clear_at."""
    clear, eoi = 1 << min_size, (1 << min_size) + 1
    out = bytearray()
    acc = nbits = 0

    def put(code, width):
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    width = min_size + 1
    table, hi = {}, eoi  # hi: code the decoder will assign next - 1 after each read
    put(clear, width)
    w = None
    for k in (int(v) for v in indices):
        if w is None:
            w = k
            continue
        if (w, k) in table:
            w = table[(w, k)]
            continue
        put(w, width)
        hi += 1
        table[(w, k)] = hi
        if hi >= (1 << width) and width < 12:
            width += 1
        w = k
        if hi >= clear_at:
            put(clear, width)
            width, table, hi = min_size + 1, {}, eoi
    if w is not None:
        put(w, width)
        hi += 1
        if hi >= (1 << width) and width < 12:
            width += 1
    put(eoi, width)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


def gif_sub_blocks(data):
    out = bytearray()
    for i in range(0, len(data), 255):
        part = data[i:i + 255]
        out += bytes([len(part)]) + part
    return bytes(out) + b"\x00"


def colour_table(colours):
    n = 0
    while (2 << n) < len(colours):
        n += 1
    padded = list(colours) + [(0, 0, 0)] * ((2 << n) - len(colours))
    return n, bytes(v for c in padded for v in c)


INTERLACE_PASSES = [(0, 8), (4, 8), (2, 4), (1, 2)]


def gif_bytes(sw, sh, gct, frames, loop=None, bg_index=0):
    out = bytearray(b"GIF89a")
    if gct is not None:
        n, table = colour_table(gct)
        out += struct.pack("<HHBBB", sw, sh, 0x80 | (7 << 4) | n, bg_index, 0) + table
    else:
        out += struct.pack("<HHBBB", sw, sh, 7 << 4, 0, 0)
    if loop is not None:
        out += b"\x21\xFF\x0BNETSCAPE2.0\x03\x01" + struct.pack("<H", loop) + b"\x00"
    for f in frames:
        if f.get("gce", True):
            t = f.get("transparent")
            packed = (f.get("disposal", 0) << 2) | (1 if t is not None else 0)
            out += b"\x21\xF9\x04" + struct.pack("<BHB", packed, f.get("delay", 0),
                                                  t or 0) + b"\x00"
        pix = np.asarray(f["pixels"])
        h, w = pix.shape
        lct = f.get("lct")
        packed = 0x40 if f.get("interlace") else 0
        if lct is not None:
            n, table = colour_table(lct)
            packed |= 0x80 | n
            ncolours = 2 << n
        else:
            table = b""
            ncolours = 2 << colour_table(gct)[0]
        out += b"\x2C" + struct.pack("<HHHHB", f["x"], f["y"], w, h, packed) + table
        rows = list(range(h))
        if f.get("interlace"):
            rows = [y for start, step in INTERLACE_PASSES for y in range(start, h, step)]
        min_size = max(2, (ncolours - 1).bit_length())
        data = pix[rows].reshape(-1) if len(rows) else np.zeros(0, np.int64)
        check(int(data.max()) < ncolours, "GIF index out of table")
        out += bytes([min_size]) + gif_sub_blocks(
            lzw_encode(data, min_size, f.get("clear_at", 511)))
    return bytes(out + b"\x3B")


def gif_composite(sw, sh, gct, frames):
    canvas = np.zeros((sh, sw, 4), np.uint8)
    result = []
    for f in frames:
        before = canvas.copy()
        pal = np.asarray(f.get("lct") or gct, np.uint8)
        pix = np.asarray(f["pixels"])
        h, w = pix.shape
        x0, y0 = f["x"], f["y"]
        t = f.get("transparent")
        for y in range(h):
            for x in range(w):
                cx, cy = x0 + x, y0 + y
                if cx >= sw or cy >= sh or pix[y, x] == t:
                    continue
                canvas[cy, cx, :3] = pal[pix[y, x]]
                canvas[cy, cx, 3] = 255
        result.append(canvas.copy())
        d = f.get("disposal", 0)
        if d == 2:
            canvas[y0:y0 + h, x0:x0 + w] = 0
        elif d == 3:
            canvas = before
    return result


def gif_duration(delay_cs):
    s = delay_cs / 100.0
    return 0.1 if s <= 0.011 else s


GIF_PALETTE = [(0, 0, 0), (255, 255, 255), (230, 25, 75), (60, 180, 75), (255, 225, 25),
               (0, 130, 200), (245, 130, 48), (145, 30, 180), (70, 240, 240),
               (240, 50, 230), (210, 245, 60), (250, 190, 212), (0, 128, 128),
               (170, 110, 40), (128, 0, 0), (128, 128, 128)]


def make_gifs():
    SW, SH = 20, 16
    yy, xx = np.mgrid[0:SH, 0:SW]

    def block(h, w, fn):
        y, x = np.mgrid[0:h, 0:w]
        return fn(y, x).astype(np.int64)

    def emit(name, gct, frames, loop, notes, bg_index=0):
        file = name + ".gif"
        write_bytes(file, gif_bytes(SW, SH, gct, frames, loop, bg_index))
        canvases = gif_composite(SW, SH, gct, frames)
        refs = [save_ref("%s.frame%d.ref.png" % (name, i), c) for i, c in enumerate(canvases)]
        # validity check through Pillow (Pillow's disposal handling is not the
        # browser model, so only report the largest difference)
        errs = []
        with Image.open(path_of(file)) as im:
            check(im.n_frames == len(frames), file + " frame count")
            for i in range(len(frames)):
                im.seek(i)
                got = rgba_of(im)
                got[got[..., 3] == 0] = 0  # colour of fully transparent pixels is moot
                errs.append(max_err(got, canvases[i]))
        check(errs[0] == 0, file + ": Pillow disagrees on frame 0")
        animated = len(frames) > 1
        add(name, file, "gif", "decode", SW, SH, frames=len(frames),
            durations=[gif_duration(f.get("delay", 0)) for f in frames] if animated else [],
            loop_count=(loop if loop is not None else 1) if animated else None,
            refs=refs, ref_kind="exact", ref_max_error=0, notes=notes)
        return errs

    pillow_errs = {}

    # disposal 1 everywhere, global table, delays 10/20/30, loop 0 (infinite)
    f0 = dict(x=0, y=0, pixels=(xx // 4 + yy // 4) % 8, disposal=1, delay=10)
    f1 = dict(x=3, y=2, pixels=block(8, 10, lambda y, x: np.where((x + y) % 3 == 0, 15, 8 + (x % 7))),
              transparent=15, disposal=1, delay=20)
    f2 = dict(x=9, y=7, pixels=block(9, 11, lambda y, x: np.where((x // 2 + y // 2) % 2 == 0, 0, 9 + (y % 5))),
              transparent=0, disposal=1, delay=30, clear_at=20)
    pillow_errs["gif_disposal_none"] = emit(
        "gif_disposal_none", GIF_PALETTE, [f0, f1, f2], 0,
        "global colour table only; frame 0 full screen, frames 1-2 sub-rectangles with a "
        "transparent index; disposal 1 (keep); delays 10/20/30 cs; NETSCAPE loop 0 "
        "(infinite); frame 2 resets its LZW table every few codes")

    # disposal 2 on frame 1, local colour table on frame 1, delays 0/1/25, loop 3
    lct = [(20, 20, 120), (250, 250, 0), (0, 250, 250), (9, 9, 9)]
    f0 = dict(x=0, y=0, pixels=block(11, 14, lambda y, x: np.where((x * y) % 7 == 3, 15, (x + 2 * y) % 12)),
              transparent=15, disposal=1, delay=0)
    f1 = dict(x=6, y=4, pixels=block(10, 12, lambda y, x: np.where((x + y) % 4 == 0, 3, (x // 3 + y // 3) % 3)),
              lct=lct, transparent=3, disposal=2, delay=1)
    f2 = dict(x=1, y=12, pixels=block(4, 6, lambda y, x: 2 + (x + y) % 4), disposal=0, delay=25)
    pillow_errs["gif_disposal_background"] = emit(
        "gif_disposal_background", GIF_PALETTE, [f0, f1, f2], 3,
        "frame 0 covers only (0,0,14x11) so the rest of the canvas stays transparent; "
        "frame 1 has a 4-colour local table and disposal 2 (its rect, incl. the part "
        "over frame 0, is cleared to transparent, not to the background colour index 5); "
        "delays 0/1/25 cs -> 0.1/0.1/0.25 s; NETSCAPE loop 3",
        bg_index=5)

    # disposal 3 on frame 1, 8-colour table, no NETSCAPE extension
    pal8 = GIF_PALETTE[:7] + [(128, 128, 128)]
    f0 = dict(x=0, y=0, pixels=np.where((xx + yy) % 5 == 0, 7, (xx // 5 + yy // 4) % 7),
              transparent=7, disposal=1, delay=4)
    f1 = dict(x=4, y=3, pixels=block(9, 12, lambda y, x: np.where(x == y, 7, (x + y) % 7)),
              transparent=7, disposal=3, delay=8)
    f2 = dict(x=10, y=8, pixels=block(8, 10, lambda y, x: (x * 3 + y) % 7), disposal=1, delay=12)
    pillow_errs["gif_disposal_previous"] = emit(
        "gif_disposal_previous", pal8, [f0, f1, f2], None,
        "frame 0 full screen with transparent holes; frame 1 has disposal 3 (restore "
        "previous) so frame 2's canvas is frame 0 + frame 2; delays 4/8/12 cs; no "
        "NETSCAPE extension (plays once)")

    # interlaced single frame, no GCE
    fi = dict(x=0, y=0, pixels=(yy * 3 + xx // 5) % 16, interlace=True, gce=False)
    pillow_errs["gif_interlaced"] = emit(
        "gif_interlaced", GIF_PALETTE, [fi], None,
        "single frame, interlace flag set, rows stored in GIF interlace order "
        "(0,8 | 4,12 | 2,6,10,14 | odd rows); every row differs; no GCE")

    # an extra check of the LZW encoder through Pillow: long incompressible data
    # that grows the code size to 12 bits without clear codes
    rng = np.random.default_rng(5)
    noise = rng.integers(0, 256, size=(64, 64))
    pal256 = [(i, (i * 7) % 256, (i * 13) % 256) for i in range(256)]
    data = gif_bytes(64, 64, pal256, [dict(x=0, y=0, pixels=noise, gce=False, clear_at=4095)])
    with Image.open(io.BytesIO(data)) as im:
        check(np.array_equal(np.asarray(im), noise.astype(np.uint8)), "LZW 12-bit round trip")
    return pillow_errs


# ----------------------------------------------------------------------------
# 5. animated WebP
# ----------------------------------------------------------------------------

def make_animated_webp():
    w, h = 24, 16
    y, x = np.mgrid[0:h, 0:w]
    f0 = np.stack([x * 10, y * 15, 255 - x * 10, np.where(x < 18, 255, 0)], axis=2)
    f1 = np.stack([np.full((h, w), 200), 255 - y * 15, (x * y) % 256,
                   np.where((x // 4 + y // 4) % 2 == 0, 255, 128)], axis=2)
    f2 = np.zeros((h, w, 4), np.int64)
    f2[4:12, 6:18] = (30, 90, 250, 255)
    f2[6:10, 8:16, 3] = 64
    frames = [Image.fromarray(f.astype(np.uint8)) for f in (f0, f1, f2)]
    buf = io.BytesIO()
    frames[0].save(buf, format="WEBP", save_all=True, append_images=frames[1:],
                   lossless=True, duration=[100, 200, 300], loop=2)
    write_bytes("webp_animated.webp", buf.getvalue())
    refs = []
    with Image.open(path_of("webp_animated.webp")) as im:
        check(im.n_frames == 3 and im.info.get("loop") == 2, "animated webp header")
        for i in range(3):
            im.seek(i)
            im.load()
            check(im.info.get("duration") == [100, 200, 300][i], "webp duration %d" % i)
            ref = rgba_of(im)
            src = np.asarray(frames[i])
            vis = src[..., 3] > 0
            check(np.array_equal(ref[..., 3], src[..., 3]) and
                  np.array_equal(ref[vis], src[vis]), "webp frame %d not lossless" % i)
            refs.append(save_ref("webp_animated.frame%d.ref.png" % i, ref))
    add("webp_animated", "webp_animated.webp", "webp", "decode", w, h, frames=3,
        durations=[0.1, 0.2, 0.3], loop_count=2, refs=refs, ref_kind="pillow",
        ref_max_error=0,
        notes="lossless animated WebP written by Pillow save_all (libwebp may store "
              "sub-rectangle frames with blending); refs = Pillow's composited frames, "
              "which equal the source frames wherever alpha > 0")


# ----------------------------------------------------------------------------
# 6. other formats (BMP and TIFF decoded; HEIC and AVIF recognised only)
# ----------------------------------------------------------------------------

def make_other_formats():
    y, x = np.mgrid[0:12, 0:16]
    rgb = np.stack([x * 16, y * 20, (x + y) * 9], axis=2).astype(np.uint8)
    for name, fmt in (("sample.bmp", "BMP"), ("sample.tiff", "TIFF")):
        save_pil(name, Image.fromarray(rgb), format=fmt)
        with Image.open(path_of(name)) as im:
            check(max_err(rgba_of(im), opaque(rgb)) == 0, name)
        stem = name.replace(".", "_")
        r = save_ref(stem + ".ref.png", opaque(rgb))
        add(stem, name, fmt.lower(), "decode", 16, 12, refs=[r], ref_kind="exact",
            ref_max_error=0, notes="written by Pillow (%s, uncompressed)" % fmt)

    def ftyp(major, compatible):
        body = major + b"\x00\x00\x00\x00" + b"".join(compatible)
        return struct.pack(">I", 8 + len(body)) + b"ftyp" + body

    free = struct.pack(">I", 16) + b"free" + bytes(range(8))
    write_bytes("sample.heic", ftyp(b"heic", [b"mif1", b"heic"]) + free)
    write_bytes("sample.avif", ftyp(b"avif", [b"avif", b"mif1", b"miaf"]) + free)
    for stem, fmt in (("sample_heic", "heic"), ("sample_avif", "avif")):
        add(stem, "sample." + fmt, fmt, "recognise", frames=None, has_alpha=None,
            notes="ISO-BMFF 'ftyp' box (major brand '%s') + a 'free' box only; "
                  "not decodable: refused as corrupted or truncated data of that format" % fmt)


# ----------------------------------------------------------------------------
# 7. bad inputs
# ----------------------------------------------------------------------------

HTML_404 = """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>404 Not Found</title>
  <style>
    body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif;
           background: #f6f8fa; color: #24292f; margin: 0; }
    main { max-width: 36rem; margin: 12vh auto; padding: 0 1.5rem; }
    h1 { font-size: 2.25rem; margin-bottom: .5rem; }
    code { background: #eaeef2; padding: .1rem .3rem; border-radius: 4px; }
    a { color: #0969da; }
  </style>
</head>
<body>
  <main>
    <h1>404 &mdash; Not Found</h1>
    <p>The requested URL <code>/images/avatars/kingfisher-1234.png</code> was not found on this server.</p>
    <p>It may have been moved or deleted. <a href="/">Return to the home page</a>.</p>
    <hr>
    <address>nginx/1.24.0</address>
  </main>
</body>
</html>
"""


def seeded_bytes(n, seed):
    out = bytearray()
    counter = 0
    while len(out) < n:
        out += hashlib.sha256(b"%s:%d" % (seed, counter)).digest()
        counter += 1
    return bytes(out[:n])


def make_bad_inputs():
    write_bytes("html_error.html", HTML_404.encode("utf-8"))
    add("html_error", "html_error.html", "html", "invalid", frames=None,
        notes="a 404 page served instead of an image")

    data = seeded_bytes(2048, b"kingfisher-random")
    magics = [b"\x89PNG", b"\xff\xd8", b"GIF8", b"RIFF", b"BM", b"II*", b"MM\0*", b"<"]
    check(not any(data.startswith(m) for m in magics) and data[4:8] != b"ftyp",
          "random.bin looks like an image")
    write_bytes("random.bin", data)
    add("random", "random.bin", "unknown", "invalid", frames=None,
        notes="2048 bytes from SHA-256 in counter mode (seed 'kingfisher-random')")

    png = png_bytes(100000, 100000, 8, 6, zlib.compress(b"\x00" * 64, 9))
    write_bytes("png_100000x100000.png", png)
    add("png_100000x100000", "png_100000x100000.png", "png", "invalid", 100000, 100000,
        frames=None, notes="valid chunks/CRCs; IHDR claims 100000x100000 RGBA8 "
                           "(40 GB decoded); IDAT holds 64 zero bytes")

    # a tiny real baseline JPEG with patched SOF0 dimensions
    buf = io.BytesIO()
    tiny = np.zeros((16, 16, 3), np.uint8)
    tiny[:8, :, 0] = 200
    tiny[:, :8, 2] = 180
    Image.fromarray(tiny).save(buf, format="JPEG", quality=90, subsampling="4:2:0")
    jpg = bytearray(buf.getvalue())
    sof = [off for m, off, _ in jpeg_segments(bytes(jpg)) if m == 0xC0]
    check(len(sof) == 1, "tiny JPEG has no SOF0")
    # marker(2) length(2) precision(1) height(2) width(2)
    jpg[sof[0] + 5:sof[0] + 9] = struct.pack(">HH", 65000, 65000)
    info = jpeg_info(bytes(jpg))
    check((info["width"], info["height"]) == (65000, 65000), "jpeg patch")
    write_bytes("jpeg_65000x65000.jpg", bytes(jpg))
    add("jpeg_65000x65000", "jpeg_65000x65000.jpg", "jpeg", "invalid", 65000, 65000,
        frames=None, notes="16x16 baseline JPEG whose SOF0 was patched to claim "
                           "65000x65000; scan data is for 16x16 only")

    gif = gif_bytes(65535, 65535, GIF_PALETTE[:4],
                    [dict(x=0, y=0, pixels=np.array([[1, 2, 3, 1]]), gce=False)])
    gif = bytearray(gif)
    # patch the image descriptor's width/height (encoded from the 1x4 array)
    desc = gif.index(b"\x2C", 13 + 12)
    check(struct.unpack("<HHHH", gif[desc + 1:desc + 9]) == (0, 0, 4, 1), "gif desc")
    gif[desc + 5:desc + 9] = struct.pack("<HH", 65535, 65535)
    write_bytes("gif_huge_screen.gif", bytes(gif))
    add("gif_huge_screen", "gif_huge_screen.gif", "gif", "invalid", 65535, 65535,
        frames=None, notes="logical screen and the single frame both claim 65535x65535; "
                           "LZW data holds 4 pixels")

    buf = io.BytesIO()
    Image.fromarray(tiny).save(buf, format="WEBP", lossless=True)
    webp = bytearray(buf.getvalue())
    check(webp[:4] == b"RIFF" and webp[8:12] == b"WEBP", "webp header")
    check(struct.unpack("<I", webp[4:8])[0] == len(webp) - 8, "webp RIFF size")
    pos, patched = 12, False
    while pos + 8 <= len(webp):
        ctype = bytes(webp[pos:pos + 4])
        size = struct.unpack("<I", webp[pos + 4:pos + 8])[0]
        body = pos + 8
        if ctype == b"VP8X":
            webp[body + 4:body + 10] = (16382).to_bytes(3, "little") * 2
        elif ctype == b"VP8L":
            check(webp[body] == 0x2F, "VP8L signature")
            bits = struct.unpack("<I", webp[body + 1:body + 5])[0]
            bits = (bits & ~0x0FFFFFFF) | 16382 | (16382 << 14)  # width-1, height-1
            webp[body + 1:body + 5] = struct.pack("<I", bits)
            patched = True
        pos = body + size + (size & 1)
    check(patched and pos == len(webp), "webp chunk walk")
    write_bytes("webp_huge.webp", bytes(webp))
    add("webp_huge", "webp_huge.webp", "webp", "invalid", 16383, 16383, frames=None,
        notes="16x16 lossless WebP whose VP8L header (and VP8X canvas, if any) was "
              "patched to claim 16383x16383; RIFF/chunk sizes unchanged and consistent")

    rows = bytearray()
    prev = bytes(64 * 3)
    for y in range(8):
        raw = bytes(((x * 4 + y * 30 + c * 80) & 0xFF) for x in range(64) for c in range(3))
        rows += png_filter(y % 5, raw, prev, 3)
        prev = raw
    write_bytes("png_lying_idat.png", png_bytes(64, 64, 8, 2, zlib.compress(bytes(rows), 9)))
    add("png_lying_idat", "png_lying_idat.png", "png", "invalid", 64, 64, frames=None,
        notes="IHDR 64x64 RGB8, but the (complete, valid) zlib stream in IDAT only holds "
              "8 scanlines; all CRCs valid")


# ----------------------------------------------------------------------------

def expect_pillow_rejects():
    """Sanity: what Pillow makes of the bad inputs.  Only headers are read for
    the huge ones: a full load() of the JPEG really allocates ~12 GB."""
    results = {}
    for name in ("html_error.html", "random.bin", "png_100000x100000.png",
                 "jpeg_65000x65000.jpg", "gif_huge_screen.gif", "webp_huge.webp",
                 "png_lying_idat.png"):
        try:
            with Image.open(path_of(name)) as im:
                results[name] = "header %s %r" % (im.format, im.size)
                if name == "png_lying_idat.png":
                    try:
                        im.load()
                        results[name] += ", load() succeeded (missing rows zero-filled)"
                    except Exception as e:  # noqa: BLE001 - report only
                        results[name] += ", load() failed: %s" % type(e).__name__
        except Exception as e:  # noqa: BLE001
            results[name] = "open failed: %s" % type(e).__name__
    return results


def main():
    Image.MAX_IMAGE_PIXELS = 1 << 40  # our bad inputs should fail on data, not on size
    make_photos()
    make_orientation()
    make_pngs()
    gif_errs = make_gifs()
    make_animated_webp()
    make_other_formats()
    make_bad_inputs()

    manifest = {"version": 1, "generator": "make_fixtures.py", "conventions": CONVENTIONS,
                "fixtures": FIXTURES}
    with open(path_of("manifest.json"), "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=2, sort_keys=False)
        f.write("\n")
    WRITTEN.append("manifest.json")

    # every file referenced exists, refs are 8-bit RGBA non-interlaced PNGs
    for e in FIXTURES:
        check(os.path.exists(path_of(e["file"])), e["file"])
        for r in e["refs"]:
            with Image.open(path_of(r)) as im:
                check(im.format == "PNG" and im.mode == "RGBA" and
                      not im.info.get("interlace"), r)
                if e["width"] is not None:
                    check(im.size == (e["width"], e["height"]), r + " size")
    check(len(set(WRITTEN)) == len(WRITTEN), "a file was written twice")
    total = sum(os.path.getsize(path_of(n)) for n in WRITTEN)
    check(total < 1_500_000, "fixtures too large: %d bytes" % total)

    print("wrote %d files, %d bytes" % (len(WRITTEN), total))
    print("Pillow vs browser-model GIF refs (max channel error per frame):")
    for k, v in gif_errs.items():
        print("  %s: %s" % (k, v))
    print("Pillow on bad inputs:")
    for k, v in expect_pillow_rejects().items():
        print("  %s: %s" % (k, v))


if __name__ == "__main__":
    main()
