#!/usr/bin/env python3
"""Generate benchmark inputs: a photo-like 4000x3000 image as JPEG, PNG and WebP.

Usage: python3 Benchmarks/make_inputs.py OUTDIR

Writes OUTDIR/photo_4000x3000.{jpg,png,webp} and photo_4000x3000_p3.jpg (Display P3 profile). The source is scikit-image's
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
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "KingfisherTests", "Fixtures")
NOISE_SIGMA = 4.0
SEED = 20240601
JPEG_QUALITY = 90
WEBP_QUALITY = 80


def make_pixels() -> np.ndarray:
    src = data.coffee()  # (400, 600, 3) uint8
    h, w = src.shape[:2]
    # Centre-crop to 4:3 so the upscale keeps the aspect ratio.
    crop_w = min(w, h * WIDTH // HEIGHT)
    crop_h = min(h, crop_w * HEIGHT // WIDTH)
    x0 = (w - crop_w) // 2
    y0 = (h - crop_h) // 2
    img = Image.fromarray(src[y0:y0 + crop_h, x0:x0 + crop_w])
    img = img.resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)
    pixels = np.asarray(img, dtype=np.float32)
    rng = np.random.default_rng(SEED)
    pixels += rng.normal(0.0, NOISE_SIGMA, size=pixels.shape).astype(np.float32)
    return np.clip(np.rint(pixels), 0, 255).astype(np.uint8)


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
    img.save(base + ".png", "PNG", compress_level=6)
    img.save(base + ".webp", "WEBP", quality=WEBP_QUALITY, method=4)
    # The same photo tagged Display P3 (the profile of the test fixture), as iPhones write it.
    p3 = Image.open(os.path.join(FIXTURES, "color", "displayp3.jpg")).info["icc_profile"]
    img.save(base + "_p3.jpg", "JPEG", quality=JPEG_QUALITY, subsampling=2, optimize=False, icc_profile=p3)
    for ext in ("jpg", "png", "webp", "_p3.jpg"):
        path = f"{base}.{ext}" if ext[0] != "_" else base + ext
        print(f"{path}\t{os.path.getsize(path)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
