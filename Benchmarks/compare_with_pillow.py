#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Check that `kf process X --output X.png` gives the pixels Pillow gives.

Acceptance criterion: for real photographs of every kind, `kf process` yields
the pixels Pillow yields (identical for lossless formats, PSNR >= 40 dB for
JPEG and lossy WebP), upright, as an 8-bit PNG.

Usage:
    python3 Benchmarks/compare_with_pillow.py [--kf PATH] [--workdir DIR]

Inputs are generated at run time from the real photographs shipped inside the
scikit-image wheel (no network). Each input X is processed with
`kf process X --output X.kf.png`; the result is loaded with Pillow as RGBA and
compared with Pillow's own decode of X:
`ImageOps.exif_transpose(first frame of Image.open(X))`, converted to RGBA
(16-bit samples reduced to their high byte, as kf does).

Prints a Markdown table and exits 1 if any check fails.
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import struct
import subprocess
import sys
import tempfile
import time
import warnings
import zlib
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageOps

warnings.filterwarnings("ignore")
from skimage import data  # noqa: E402

WIDTH = 640            # moderate size the photos are resized to
JPEG_QUALITY = 90
WEBP_QUALITY = 90
PSNR_MIN = 40.0

# --------------------------------------------------------------------------
# Source photographs
# --------------------------------------------------------------------------


def load_photos() -> dict[str, np.ndarray]:
    """Real photographs from the scikit-image wheel, as uint8 arrays."""
    photos: dict[str, np.ndarray] = {}
    for name in ("astronaut", "coffee", "chelsea", "rocket", "retina",
                 "hubble_deep_field", "immunohistochemistry", "camera",
                 "moon", "coins"):
        loader = getattr(data, name, None)
        if loader is None:
            continue
        try:
            arr = np.asarray(loader())
        except Exception:  # needs pooch/network: skip
            continue
        if arr.dtype != np.uint8:
            continue
        photos[name] = arr
    for required in ("astronaut", "coffee", "chelsea"):
        if required not in photos:
            sys.exit(f"scikit-image photo {required!r} is not available")
    return photos


def resized(arr: np.ndarray, width: int = WIDTH) -> Image.Image:
    img = Image.fromarray(arr)
    if img.width == width:
        return img
    height = max(1, round(img.height * width / img.width))
    return img.resize((width, height), Image.Resampling.LANCZOS)


def alpha_gradient(w: int, h: int) -> np.ndarray:
    """A real alpha ramp: 0 at the left edge to 255 at the right, plus a
    vertical modulation so every alpha value occurs with many colours."""
    x = np.linspace(0.0, 1.0, w)[None, :]
    y = np.linspace(0.0, 1.0, h)[:, None]
    a = 255.0 * x * (0.6 + 0.4 * np.cos(3.0 * math.pi * y) ** 2)
    return np.clip(np.rint(a), 0, 255).astype(np.uint8)


def with_alpha(img: Image.Image) -> Image.Image:
    rgb = np.asarray(img.convert("RGB"))
    a = alpha_gradient(img.width, img.height)
    return Image.fromarray(np.dstack([rgb, a]), "RGBA")


# --------------------------------------------------------------------------
# A small PNG writer we control (16-bit, Adam7, all five filter types)
# --------------------------------------------------------------------------

ADAM7 = ((0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4),
         (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2))


def _chunk(tag: bytes, body: bytes) -> bytes:
    return (struct.pack(">I", len(body)) + tag + body
            + struct.pack(">I", zlib.crc32(tag + body) & 0xFFFFFFFF))


def _filter_rows(raw: np.ndarray, bpp: int, first_filter: int) -> bytes:
    """raw: (h, rowbytes) uint8. Filter type cycles 0..4 per row."""
    h, n = raw.shape
    out = bytearray()
    prev = np.zeros(n, np.int16)
    for y in range(h):
        cur = raw[y].astype(np.int16)
        left = np.concatenate([np.zeros(bpp, np.int16), cur[:-bpp]])
        upleft = np.concatenate([np.zeros(bpp, np.int16), prev[:-bpp]])
        ftype = (first_filter + y) % 5
        if ftype == 0:
            f = cur
        elif ftype == 1:
            f = cur - left
        elif ftype == 2:
            f = cur - prev
        elif ftype == 3:
            f = cur - (left + prev) // 2
        else:
            p = left + prev - upleft
            pa, pb, pc = np.abs(p - left), np.abs(p - prev), np.abs(p - upleft)
            pred = np.where((pa <= pb) & (pa <= pc), left,
                            np.where(pb <= pc, prev, upleft))
            f = cur - pred
        out.append(ftype)
        out += (f & 0xFF).astype(np.uint8).tobytes()
        prev = cur
    return bytes(out)


def write_png(path: str, arr: np.ndarray, interlace: bool = False) -> None:
    """arr: (h, w) or (h, w, c) uint8/uint16; c in 1..4 (gray, GA, RGB, RGBA)."""
    if arr.ndim == 2:
        arr = arr[:, :, None]
    h, w, c = arr.shape
    depth = 16 if arr.dtype == np.uint16 else 8
    ctype = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    bpp = c * depth // 8
    samples = arr.astype(">u2") if depth == 16 else arr.astype(np.uint8)
    ihdr = struct.pack(">IIBBBBB", w, h, depth, ctype, 0, 0, 1 if interlace else 0)
    passes = ADAM7 if interlace else ((0, 0, 1, 1),)
    stream = b""
    for i, (x0, y0, dx, dy) in enumerate(passes):
        sub = samples[y0::dy, x0::dx]
        if sub.shape[0] == 0 or sub.shape[1] == 0:
            continue
        raw = np.ascontiguousarray(sub).view(np.uint8).reshape(sub.shape[0], -1)
        stream += _filter_rows(raw, bpp, i)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", ihdr)
                + _chunk(b"IDAT", zlib.compress(stream, 6)) + _chunk(b"IEND", b""))


def png_header(path: str) -> tuple[int, int, int] | None:
    """(bit depth, colour type, interlace) of a PNG, or None."""
    with open(path, "rb") as f:
        head = f.read(29)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        return None
    return head[24], head[25], head[28]


# --------------------------------------------------------------------------
# Cases
# --------------------------------------------------------------------------


@dataclass
class Case:
    file: str
    kind: str
    mode: str                       # "exact" | "psnr"
    upright: tuple[int, int]        # expected (w, h) after orientation
    expected: np.ndarray | None = None  # independent upright RGBA truth (exact cases)
    note: str = ""
    region: tuple[int, int, int, int] | None = None  # compare only this rect


# Stored image = inverse of the transform exif_transpose applies for tag k.
STORE_FOR_ORIENTATION = {
    1: None,
    2: Image.Transpose.FLIP_LEFT_RIGHT,
    3: Image.Transpose.ROTATE_180,
    4: Image.Transpose.FLIP_TOP_BOTTOM,
    5: Image.Transpose.TRANSPOSE,
    6: Image.Transpose.ROTATE_90,   # exif_transpose applies ROTATE_270
    7: Image.Transpose.TRANSVERSE,
    8: Image.Transpose.ROTATE_270,  # exif_transpose applies ROTATE_90
}


def oriented(img: Image.Image, k: int) -> tuple[Image.Image, Image.Exif]:
    t = STORE_FOR_ORIENTATION[k]
    stored = img if t is None else img.transpose(t)
    exif = Image.Exif()
    exif[0x0112] = k
    return stored, exif


def rgba(arr_or_img) -> np.ndarray:
    img = arr_or_img if isinstance(arr_or_img, Image.Image) else Image.fromarray(arr_or_img)
    return np.asarray(img.convert("RGBA"))


def make_inputs(wd: str, photos: dict[str, np.ndarray], skipped: list[str]) -> list[Case]:
    cases: list[Case] = []
    P = lambda name: os.path.join(wd, name)  # noqa: E731

    astronaut = resized(photos["astronaut"])          # 640x640
    coffee = resized(photos["coffee"])                # 640x427
    chelsea_full = Image.fromarray(photos["chelsea"])  # 451x300, odd width
    rocket = resized(photos.get("rocket", photos["coffee"]))
    ihc = resized(photos.get("immunohistochemistry", photos["astronaut"]))
    hubble = resized(photos.get("hubble_deep_field", photos["coffee"]))
    camera = resized(photos.get("camera", np.asarray(astronaut.convert("L"))))
    full_name = "retina" if "retina" in photos else "astronaut"
    full = Image.fromarray(photos[full_name])         # full-size original

    def add(name, kind, mode, size, expected=None, note=""):
        cases.append(Case(name, kind, mode, size, expected, note))

    # ---- JPEG -----------------------------------------------------------
    for name, img, kind, kw in [
        ("astronaut_420.jpg", astronaut, "JPEG baseline 4:2:0", dict(subsampling=2)),
        ("chelsea_full_420.jpg", chelsea_full, "JPEG baseline 4:2:0, full size (odd width)", dict(subsampling=2)),
        (f"{full_name}_full_420.jpg", full, "JPEG baseline 4:2:0, full-size original", dict(subsampling=2)),
        ("coffee_422.jpg", coffee, "JPEG baseline 4:2:2", dict(subsampling=1)),
        ("chelsea_full_422.jpg", chelsea_full, "JPEG baseline 4:2:2 (odd width)", dict(subsampling=1)),
        ("rocket_444.jpg", rocket, "JPEG baseline 4:4:4", dict(subsampling=0)),
        ("astronaut_progressive.jpg", astronaut, "JPEG progressive 4:2:0", dict(subsampling=2, progressive=True)),
        ("hubble_progressive_444.jpg", hubble, "JPEG progressive 4:4:4", dict(subsampling=0, progressive=True)),
        ("camera_gray.jpg", camera, "JPEG grayscale", {}),
        ("coffee_gray.jpg", coffee.convert("L"), "JPEG grayscale (from colour photo)", {}),
    ]:
        img.save(P(name), "JPEG", quality=JPEG_QUALITY, **kw)
        add(name, kind, "psnr", img.size)

    # CMYK: Pillow's RGB->CMYK (K = 0), written Adobe-inverted.
    ihc.convert("CMYK").save(P("ihc_cmyk.jpg"), "JPEG", quality=JPEG_QUALITY)
    add("ihc_cmyk.jpg", "JPEG CMYK (Adobe inverted, K=0)", "psnr", ihc.size)
    # CMYK with real black generation, so the CMYK->RGB rule matters.
    rgbf = np.asarray(coffee, dtype=np.float64)
    k = 255.0 - rgbf.max(axis=2)
    denom = np.where(k < 255.0, 255.0 - k, 1.0)
    cmy = (255.0 - rgbf - k[..., None]) * 255.0 / denom[..., None]
    cmyk = np.clip(np.rint(np.dstack([cmy, k])), 0, 255).astype(np.uint8)
    Image.fromarray(cmyk, "CMYK").save(P("coffee_cmyk_gcr.jpg"), "JPEG", quality=JPEG_QUALITY)
    add("coffee_cmyk_gcr.jpg", "JPEG CMYK (Adobe inverted, with K)", "psnr", coffee.size)

    # EXIF orientations 1..8 on a non-square photo.
    for o in range(1, 9):
        stored, exif = oriented(coffee, o)
        name = f"coffee_orient{o}.jpg"
        stored.save(P(name), "JPEG", quality=JPEG_QUALITY, subsampling=2, exif=exif)
        add(name, f"JPEG EXIF orientation {o}", "psnr", coffee.size)
    # Orientation combined with progressive + odd size.
    stored, exif = oriented(chelsea_full, 6)
    stored.save(P("chelsea_orient6_progressive.jpg"), "JPEG", quality=JPEG_QUALITY,
                progressive=True, exif=exif)
    add("chelsea_orient6_progressive.jpg", "JPEG progressive, EXIF orientation 6 (odd size)",
        "psnr", chelsea_full.size)

    # ---- PNG ------------------------------------------------------------
    astronaut.save(P("astronaut_rgb8.png"))
    add("astronaut_rgb8.png", "PNG 8-bit RGB", "exact", astronaut.size, rgba(astronaut))

    coffee_a = with_alpha(coffee)
    coffee_a.save(P("coffee_rgba8.png"))
    add("coffee_rgba8.png", "PNG 8-bit RGBA (alpha gradient)", "exact", coffee.size, rgba(coffee_a))

    camera.save(P("camera_gray8.png"))
    add("camera_gray8.png", "PNG 8-bit grayscale", "exact", camera.size, rgba(camera))

    la = Image.merge("LA", (rocket.convert("L"), Image.fromarray(alpha_gradient(*rocket.size))))
    la.save(P("rocket_gray_alpha8.png"))
    add("rocket_gray_alpha8.png", "PNG 8-bit gray+alpha", "exact", rocket.size, rgba(la))

    # 16-bit: real photo expanded to 16 bits with a non-trivial low byte.
    def to16(a8: np.ndarray, salt: int) -> np.ndarray:
        rng = np.random.default_rng(salt)
        low = rng.integers(0, 256, size=a8.shape, dtype=np.uint16)
        return (a8.astype(np.uint16) << 8) | low

    rgb16 = to16(np.asarray(rocket), 1)
    write_png(P("rocket_rgb16.png"), rgb16)
    add("rocket_rgb16.png", "PNG 16-bit RGB (own writer)", "exact", rocket.size,
        rgba((rgb16 >> 8).astype(np.uint8)))

    rgba16 = to16(np.asarray(with_alpha(ihc)), 2)
    write_png(P("ihc_rgba16.png"), rgba16)
    add("ihc_rgba16.png", "PNG 16-bit RGBA (own writer)", "exact", ihc.size,
        (rgba16 >> 8).astype(np.uint8))

    gray16 = to16(np.asarray(camera), 3)
    Image.fromarray(gray16).save(P("camera_gray16.png"))   # Pillow 'I;16'
    add("camera_gray16.png", "PNG 16-bit grayscale (Pillow I;16)", "exact", camera.size,
        rgba((gray16 >> 8).astype(np.uint8)))

    pal = astronaut.quantize(256)
    pal.save(P("astronaut_palette.png"))
    add("astronaut_palette.png", "PNG palette (quantize 256)", "exact", astronaut.size, rgba(pal))

    # Palette + tRNS with per-entry alpha (varying over the palette).
    pal_c = coffee.quantize(256)
    trns = bytes((i * 37) % 256 for i in range(256))
    pal_c.save(P("coffee_palette_trns.png"), transparency=trns)
    pal_c_ref = pal_c.copy()
    pal_c_ref.info["transparency"] = trns
    add("coffee_palette_trns.png", "PNG palette + tRNS (per-entry alpha)", "exact", coffee.size,
        rgba(pal_c_ref))

    # Palette + single transparent index.
    pal_r = rocket.quantize(256)
    idx = int(np.bincount(np.asarray(pal_r).ravel(), minlength=256).argmax())
    pal_r.save(P("rocket_palette_trns1.png"), transparency=idx)
    exp = rgba(pal_r.convert("RGB"))
    exp = exp.copy()
    exp[np.asarray(pal_r) == idx, 3] = 0
    add("rocket_palette_trns1.png", "PNG palette + one transparent index", "exact", rocket.size, exp)

    # Adam7 interlaced (own writer; Pillow cannot write interlaced PNGs).
    write_png(P("coffee_adam7_rgb8.png"), np.asarray(coffee), interlace=True)
    add("coffee_adam7_rgb8.png", "PNG Adam7 interlaced RGB (own writer)", "exact", coffee.size, rgba(coffee))
    ch_a = np.asarray(with_alpha(chelsea_full))
    write_png(P("chelsea_adam7_rgba8.png"), ch_a, interlace=True)
    add("chelsea_adam7_rgba8.png", "PNG Adam7 interlaced RGBA, odd size (own writer)", "exact",
        chelsea_full.size, ch_a)
    hub16 = to16(np.asarray(hubble), 4)
    write_png(P("hubble_adam7_rgb16.png"), hub16, interlace=True)
    add("hubble_adam7_rgb16.png", "PNG Adam7 interlaced 16-bit RGB (own writer)", "exact", hubble.size,
        rgba((hub16 >> 8).astype(np.uint8)))
    tool = next((t for t in ("pngcrush", "optipng", "convert") if shutil.which(t)), None)
    if tool:
        src = P("astronaut_rgb8.png")
        dst = P(f"astronaut_adam7_{tool}.png")
        cmd = {"pngcrush": ["pngcrush", "-q", "-i", "1", src, dst],
               "optipng": ["optipng", "-quiet", "-i", "1", "-out", dst, src],
               "convert": ["convert", src, "-interlace", "PNG", "PNG24:" + dst]}[tool]
        ok = subprocess.run(cmd, capture_output=True).returncode == 0 and os.path.exists(dst)
        if ok and png_header(dst) and png_header(dst)[2] == 1:
            add(os.path.basename(dst), f"PNG Adam7 interlaced RGB ({tool})", "exact",
                astronaut.size, rgba(astronaut))
        else:
            skipped.append(f"Adam7 via {tool}: tool did not produce an interlaced PNG")
    else:
        skipped.append("Adam7 via pngcrush/optipng: not installed (own writer used instead)")

    # EXIF orientation in PNG (eXIf chunk).
    stored, exif = oriented(coffee, 6)
    stored.save(P("coffee_orient6.png"), exif=exif)
    add("coffee_orient6.png", "PNG with eXIf orientation 6", "exact", coffee.size, rgba(coffee))

    # ---- GIF ------------------------------------------------------------
    g = chelsea_full.quantize(256)
    g.save(P("chelsea.gif"))
    add("chelsea.gif", "GIF single frame (quantize 256)", "exact", g.size, rgba(g))

    gt = coffee.quantize(255)
    tidx = int(np.bincount(np.asarray(gt).ravel(), minlength=256).argmax())
    gt.save(P("coffee_transparent.gif"), transparency=tidx)
    exp = rgba(gt.convert("RGB")).copy()
    exp[np.asarray(gt) == tidx, 3] = 0
    add("coffee_transparent.gif", "GIF single frame + transparent index", "exact", gt.size, exp)

    # Logical screen larger than the (only) frame: the uncovered area is
    # "background" -- Pillow paints the background colour index, a browser or
    # ImageIO shows transparency. Only the frame rectangle is checked.
    gif = bytearray(open(P("chelsea.gif"), "rb").read())
    assert gif[:6] in (b"GIF87a", b"GIF89a")
    sw, sh = g.width + 49, g.height + 40
    gif[6:10] = struct.pack("<HH", sw, sh)
    with open(P("chelsea_screen_larger.gif"), "wb") as f:
        f.write(gif)
    cases.append(Case("chelsea_screen_larger.gif", "GIF frame smaller than logical screen",
                      "exact", (sw, sh), None, region=(0, 0, g.width, g.height)))

    W, H = 400, 300
    a = np.asarray(astronaut)
    crops = [Image.fromarray(a[0:H, 0:W]), Image.fromarray(a[150:150 + H, 100:100 + W]),
             Image.fromarray(a[300:300 + H, 200:200 + W])]
    frames = [c.quantize(256) for c in crops]
    frames[0].save(P("astronaut_anim.gif"), save_all=True, append_images=frames[1:],
                   duration=[100, 150, 200], loop=0)
    add("astronaut_anim.gif", "GIF animated, 3 photo crops (frame 1)", "exact", (W, H), rgba(frames[0]))

    # ---- WebP -----------------------------------------------------------
    coffee.save(P("coffee_lossy.webp"), "WEBP", quality=WEBP_QUALITY)
    add("coffee_lossy.webp", "WebP lossy", "psnr", coffee.size)
    chelsea_full.save(P("chelsea_full_lossy.webp"), "WEBP", quality=WEBP_QUALITY)
    add("chelsea_full_lossy.webp", "WebP lossy, odd size", "psnr", chelsea_full.size)
    astronaut.save(P("astronaut_lossless.webp"), "WEBP", lossless=True)
    add("astronaut_lossless.webp", "WebP lossless", "exact", astronaut.size, rgba(astronaut))
    ihc_a = with_alpha(ihc)
    ihc_a.save(P("ihc_lossless_alpha.webp"), "WEBP", lossless=True, exact=True)
    add("ihc_lossless_alpha.webp", "WebP lossless + alpha (exact)", "exact", ihc.size, rgba(ihc_a))
    rocket_a = with_alpha(rocket)
    rocket_a.save(P("rocket_lossy_alpha.webp"), "WEBP", quality=WEBP_QUALITY)
    add("rocket_lossy_alpha.webp", "WebP lossy + alpha", "psnr", rocket.size)
    crops[0].save(P("astronaut_anim_lossless.webp"), "WEBP", save_all=True,
                  append_images=crops[1:], duration=[100, 150, 200], loop=0, lossless=True)
    add("astronaut_anim_lossless.webp", "WebP animated lossless (frame 1)", "exact", (W, H), rgba(crops[0]))
    crops[0].save(P("astronaut_anim_lossy.webp"), "WEBP", save_all=True,
                  append_images=crops[1:], duration=[100, 150, 200], loop=0, quality=WEBP_QUALITY)
    add("astronaut_anim_lossy.webp", "WebP animated lossy (frame 1)", "psnr", (W, H))
    stored, exif = oriented(coffee, 8)
    stored.save(P("coffee_orient8_lossless.webp"), "WEBP", lossless=True, exif=exif)
    add("coffee_orient8_lossless.webp", "WebP lossless with EXIF orientation 8", "exact",
        coffee.size, rgba(coffee))
    return cases


# --------------------------------------------------------------------------
# Reference (Pillow) and comparison
# --------------------------------------------------------------------------


def pillow_reference(path: str) -> np.ndarray:
    im = Image.open(path)
    im.seek(0)
    im.load()
    im = ImageOps.exif_transpose(im)
    if im.mode in ("I;16", "I;16B", "I;16L", "I"):
        # Pillow's own convert clips 16-bit values to 255; kf keeps the high byte.
        g = (np.asarray(im).astype(np.uint32) >> 8).astype(np.uint8)
        return np.asarray(Image.fromarray(g, "L").convert("RGBA"))
    return np.asarray(im.convert("RGBA"))


def psnr_rgb(a: np.ndarray, b: np.ndarray) -> float:
    d = a[..., :3].astype(np.float64) - b[..., :3].astype(np.float64)
    mse = float(np.mean(d * d))
    return math.inf if mse == 0 else 10.0 * math.log10(255.0 ** 2 / mse)


def px(v) -> str:
    return "(" + ",".join(str(int(c)) for c in v) + ")"


def fmt_psnr(p: float) -> str:
    return "inf" if math.isinf(p) else f"{p:.1f} dB"


PNG_MODES = {0: "L", 2: "RGB", 3: "P", 4: "LA", 6: "RGBA"}


def check(case: Case, wd: str, kf: str) -> tuple[bool, str, str]:
    """Returns (passed, result text, kf output description)."""
    src = os.path.join(wd, case.file)
    out = src + ".kf.png"
    if os.path.exists(out):
        os.remove(out)
    try:
        proc = subprocess.run([kf, "process", src, "--output", out],
                              capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return False, "kf timed out", "-"
    if proc.returncode != 0 or not os.path.exists(out):
        msg = (proc.stderr or proc.stdout).strip().splitlines()
        return False, f"kf exit {proc.returncode}: {msg[-1] if msg else ''}", "-"

    problems: list[str] = []
    hdr = png_header(out)
    if hdr is None:
        return False, "kf output is not a PNG", "-"
    depth, ctype, _ = hdr
    out_desc = f"{PNG_MODES.get(ctype, ctype)}{depth}"
    if depth != 8:
        problems.append(f"bit depth {depth}")

    got = np.asarray(Image.open(out).convert("RGBA"))
    ref = pillow_reference(src)
    w, h = case.upright
    if ref.shape[:2] != (h, w):
        problems.append(f"Pillow ref size {ref.shape[1]}x{ref.shape[0]} != {w}x{h}")
    if got.shape[:2] != (h, w):
        return False, f"size {got.shape[1]}x{got.shape[0]}, expected {w}x{h}", out_desc
    if case.expected is not None and not np.array_equal(ref, case.expected):
        problems.append("Pillow ref != generator truth")

    if case.region is not None:
        # Only the given rectangle is compared; the rest is reported.
        x0, y0, x1, y1 = case.region
        outside = np.ones(got.shape[:2], bool)
        outside[y0:y1, x0:x1] = False
        yo, xo = np.argwhere(outside)[0]
        case.note = (f"outside the frame rect: kf {px(got[yo, xo])} vs Pillow {px(ref[yo, xo])} "
                     f"(informational)")
        got, ref = got[y0:y1, x0:x1], ref[y0:y1, x0:x1]

    diff = np.abs(got.astype(np.int16) - ref.astype(np.int16))
    maxdiff = int(diff.max())
    alpha_max = int(diff[..., 3].max())
    p = psnr_rgb(got, ref)
    # Straight alpha: the colour of a fully transparent pixel is invisible.
    both_clear = (got[..., 3] == 0) & (ref[..., 3] == 0)
    visible_diff = diff.max(axis=2) * ~both_clear
    if maxdiff == 0:
        result = "identical"
    elif case.mode == "exact" and int(visible_diff.max()) == 0:
        n = int(np.count_nonzero(diff.max(axis=2)))
        y, x = np.argwhere(diff.max(axis=2) > 0)[0]
        result = (f"identical where α>0; RGB under α=0 differs at {n} px "
                  f"(e.g. ({x},{y}) kf {px(got[y, x])} vs Pillow {px(ref[y, x])})")
    elif case.mode == "exact":
        n = int(np.count_nonzero(visible_diff))
        y, x = np.unravel_index(int(np.argmax(visible_diff)), diff.shape[:2])
        result = (f"max diff {int(visible_diff.max())} ({n} visible px; at ({x},{y}) kf "
                  f"{px(got[y, x])} vs Pillow {px(ref[y, x])}), PSNR {fmt_psnr(p)}")
        problems.append("not identical")
    else:
        result = f"PSNR {fmt_psnr(p)}, max diff {maxdiff}"
        if alpha_max:
            result += f", alpha max diff {alpha_max}"
        if p < PSNR_MIN:
            problems.append(f"PSNR < {PSNR_MIN:.0f}")
        if alpha_max and case.kind.startswith("JPEG"):
            problems.append("alpha differs")
    if problems:
        result += " — " + "; ".join(problems)
    if case.note:
        result += "; " + case.note
    return not problems, result, out_desc


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kf", default=".build/release/kf", help="path to the kf binary")
    ap.add_argument("--workdir", default=None, help="directory for inputs and outputs "
                    "(default: a temporary directory, removed afterwards)")
    args = ap.parse_args()

    kf = os.path.abspath(args.kf)
    if not os.access(kf, os.X_OK):
        print(f"kf binary not found or not executable: {kf}", file=sys.stderr)
        return 2
    tmp = None
    if args.workdir:
        wd = os.path.abspath(args.workdir)
        os.makedirs(wd, exist_ok=True)
    else:
        tmp = tempfile.TemporaryDirectory(prefix="kf_vs_pillow_")
        wd = tmp.name

    t0 = time.monotonic()
    skipped: list[str] = []
    cases = make_inputs(wd, load_photos(), skipped)
    t_gen = time.monotonic() - t0

    rows = []
    failures = 0
    for c in cases:
        ok, result, out_desc = check(c, wd, kf)
        failures += not ok
        rows.append((c.file, c.kind, f"{c.upright[0]}x{c.upright[1]}", out_desc, result,
                     "pass" if ok else "**FAIL**"))

    import PIL
    from PIL import features
    print(f"# kf vs Pillow {PIL.__version__} (libjpeg {features.version('jpg')}, "
          f"libwebp {features.version('webp')}, zlib {features.version('zlib')})\n")
    print("| file | kind | size | kf out | result | check |")
    print("|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(s.replace("|", "\\|") for s in r) + " |")
    print()
    for s in skipped:
        print(f"- skipped: {s}")
    print(f"- {len(cases) - failures}/{len(cases)} passed; inputs generated in {t_gen:.1f} s, "
          f"total {time.monotonic() - t0:.1f} s; workdir {wd if tmp is None else '(temporary)'}")
    if tmp is not None:
        tmp.cleanup()
    print(f"pillow-check: {len(cases) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
