#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Generate benchmark inputs: a photo-like 4000x3000 image as JPEG, PNG and WebP.

Usage: python3 Benchmarks/make_inputs.py OUTDIR

Writes OUTDIR/photo_4000x3000.{jpg,png,webp}, photo_4000x3000_p3.jpg (Display P3 profile),
photo_4000x3000_progressive.jpg (the same JPEG, progressive) and
anim_400x640x480.gif (400 frames). The source is scikit-image's
bundled `coffee()` sample (shipped with the package, no download), cropped to
4:3, upscaled with Lanczos to 4000x3000, plus seeded Gaussian noise (sigma 4)
so the JPEG has realistic entropy rather than the smoothness of a pure upscale.
Output is deterministic for a given Pillow / scikit-image / NumPy version.
"""

import os
import sys

import numpy as np
from PIL import Image
from skimage import data

WIDTH, HEIGHT = 4000, 3000
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures")
NOISE_SIGMA = 4.0
SEED = 20240601
JPEG_QUALITY = 90
WEBP_QUALITY = 80


def make_pixels(width: int = WIDTH, height: int = HEIGHT) -> np.ndarray:
    """The photo-like pixels at `width` x `height` (any aspect ratio: the sample is centre-cropped
    to it before the upscale)."""
    src = data.coffee()  # (400, 600, 3) uint8
    h, w = src.shape[:2]
    # Centre-crop to the target's aspect ratio so the upscale keeps it.
    crop_w = min(w, h * width // height)
    crop_h = min(h, crop_w * height // width)
    x0 = (w - crop_w) // 2
    y0 = (h - crop_h) // 2
    img = Image.fromarray(src[y0:y0 + crop_h, x0:x0 + crop_w])
    img = img.resize((width, height), Image.Resampling.LANCZOS)
    pixels = np.asarray(img, dtype=np.float32)
    rng = np.random.default_rng(SEED)
    pixels += rng.normal(0.0, NOISE_SIGMA, size=pixels.shape).astype(np.float32)
    return np.clip(np.rint(pixels), 0, 255).astype(np.uint8)


def make_animation(path: str, frame_count: int = 400) -> None:
    """A 640x480 GIF of `frame_count` frames (400: ~5.8 MB): a dithered gradient with a 120x90
    block of noise moving across it, 128 colours, 40 ms a frame (Pillow stores each frame's
    changed area)."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:480, 0:640]
    gradient = np.stack([x * 255 // 639, y * 255 // 479, (x + y) * 255 // 1118], axis=2).astype(np.uint8)
    base = Image.fromarray(gradient).quantize(128, dither=Image.Dither.FLOYDSTEINBERG)
    palette, indices = base.getpalette(), np.asarray(base)
    frames = []
    for i in range(frame_count):
        frame = indices.copy()
        top, left = (i * 3) % 380, (i * 5) % 520
        frame[top:top + 90, left:left + 120] = rng.integers(0, 128, (90, 120))
        image = Image.fromarray(frame, "P")
        image.putpalette(palette)
        frames.append(image)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=40, loop=0)


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(f"usage: {argv[0]} OUTDIR", file=sys.stderr)
        return 2
    outdir = argv[1]
    os.makedirs(outdir, exist_ok=True)
    img = Image.fromarray(make_pixels(), "RGB")
    base = os.path.join(outdir, f"photo_{WIDTH}x{HEIGHT}")
    # subsampling=2 is 4:2:0 in Pillow's JPEG plugin.
    img.save(base + ".jpg", "JPEG", quality=JPEG_QUALITY, subsampling=2, optimize=False)
    # Progressive, for the preview benchmark (kf-bench progressive).
    img.save(base + "_progressive.jpg", "JPEG", quality=JPEG_QUALITY, subsampling=2, progressive=True)
    img.save(base + ".png", "PNG", compress_level=6)
    img.save(base + ".webp", "WEBP", quality=WEBP_QUALITY, method=4)
    # The same photo tagged Display P3 (the profile of the test fixture), as iPhones write it.
    p3 = Image.open(os.path.join(FIXTURES, "color", "displayp3.jpg")).info["icc_profile"]
    img.save(base + "_p3.jpg", "JPEG", quality=JPEG_QUALITY, subsampling=2, optimize=False, icc_profile=p3)
    make_animation(os.path.join(outdir, "anim_400x640x480.gif"))
    make_animation(os.path.join(outdir, "anim_100x640x480.gif"), frame_count=100)
    # A panorama the size of the one kf info once decoded whole (0.77 s, 135 MB).
    img.resize((11158, 2156)).save(os.path.join(outdir, "wide_11158x2156.webp"), "WEBP", quality=WEBP_QUALITY, method=4)
    for ext in ("jpg", "png", "webp", "_p3.jpg", "_progressive.jpg"):
        path = f"{base}.{ext}" if ext[0] != "_" else base + ext
        print(f"{path}\t{os.path.getsize(path)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
