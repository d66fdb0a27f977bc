#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Resize quality: PSNR between kf's Lanczos resize and Pillow's resize(LANCZOS).

Usage: python3 Benchmarks/resize_quality.py --kf PATH/TO/kf --work DIR [--threshold 35]

For each photo (scikit-image's bundled astronaut, coffee, chelsea and rocket, used as-is, plus
DIR/photo_4000x3000.png if present) and each scale (downscale by 2, 3.33 and 5, upscale by 1.5)
it runs
    kf process IN.png --processor 'resize(WxH)' --output OUT.png
and compares OUT.png with Image.open(IN.png).resize((W, H), Image.Resampling.LANCZOS) on the
RGB channels. Prints a Markdown table and the minimum PSNR; exits 1 if any PSNR is below the
threshold (or an output has the wrong size).

run_benchmarks.py imports `measure` and `markdown_table` from here.
"""

import argparse
import math
import os
import subprocess
import sys

import numpy as np
from PIL import Image

THRESHOLD_DB = 35.0
# (label, factor applied to each side); target = round(side * factor).
SCALES = (("÷2", 1 / 2), ("÷3.3", 3 / 10), ("÷5", 1 / 5), ("×1.5", 3 / 2))
SKIMAGE_PHOTOS = ("astronaut", "coffee", "chelsea", "rocket")
WORK_PHOTO = "photo_4000x3000.png"


def psnr_rgb(a: Image.Image, b: Image.Image) -> float:
    """PSNR in dB over the R, G and B channels of two same-size images (inf if identical)."""
    x = np.asarray(a.convert("RGB"), dtype=np.float64)
    y = np.asarray(b.convert("RGB"), dtype=np.float64)
    mse = float(np.mean((x - y) ** 2))
    return math.inf if mse == 0 else 10 * math.log10(255.0 ** 2 / mse)


def prepare_photos(work: str) -> list[tuple[str, str]]:
    """(name, PNG path) for each photo, written into `work` as 8-bit RGB PNGs."""
    from skimage import data

    os.makedirs(work, exist_ok=True)
    photos = []
    for name in SKIMAGE_PHOTOS:
        path = os.path.join(work, f"quality_{name}.png")
        if not os.path.exists(path):
            pixels = getattr(data, name)()
            Image.fromarray(pixels).convert("RGB").save(path, compress_level=1)
        photos.append((name, path))
    big = os.path.join(work, WORK_PHOTO)
    if os.path.exists(big):
        photos.append((WORK_PHOTO, big))
    return photos


def target_size(size: tuple[int, int], factor: float) -> tuple[int, int]:
    return max(1, round(size[0] * factor)), max(1, round(size[1] * factor))


def measure(kf: str, work: str, log=None) -> list[dict]:
    """One dict per (photo, scale): photo, source, target, scale, psnr (None if the size is wrong)."""
    results = []
    out_dir = os.path.join(work, "resize_quality")
    os.makedirs(out_dir, exist_ok=True)
    for name, path in prepare_photos(work):
        with Image.open(path) as src:
            reference_input = src.convert("RGB")
        for label, factor in SCALES:
            w, h = target_size(reference_input.size, factor)
            out = os.path.join(out_dir, f"{os.path.splitext(os.path.basename(path))[0]}_{w}x{h}.png")
            subprocess.run([kf, "process", path, "--processor", f"resize({w}x{h})", "--output", out],
                           check=True, stdout=subprocess.DEVNULL)
            expected = reference_input.resize((w, h), Image.Resampling.LANCZOS)
            with Image.open(out) as produced:
                produced.load()
                psnr = psnr_rgb(produced, expected) if produced.size == (w, h) else None
                got = produced.size
            os.remove(out)
            result = {"photo": name, "source": reference_input.size, "target": (w, h), "scale": label,
                      "psnr": psnr, "got": got}
            results.append(result)
            if log is not None:
                print(f"  {name} {label} → {w}x{h}: {format_psnr(result)}", file=log, flush=True)
    return results


def format_psnr(result: dict) -> str:
    if result["psnr"] is None:
        return "wrong size {}x{}".format(*result["got"])
    return "identical" if math.isinf(result["psnr"]) else f"{result['psnr']:.1f} dB"


def minimum_psnr(results: list[dict]) -> float:
    """The lowest PSNR; a wrong-size output counts as 0 dB."""
    return min(0.0 if r["psnr"] is None else r["psnr"] for r in results)


def photo_count(results: list[dict]) -> int:
    return len({r["photo"] for r in results})


def markdown_table(results: list[dict]) -> list[str]:
    lines = ["| photo | source | target | scale | PSNR (RGB) vs Pillow LANCZOS |", "|---|---|---|---|---|"]
    for r in results:
        lines.append("| {} | {}x{} | {}x{} | {} | {} |".format(
            r["photo"], *r["source"], *r["target"], r["scale"], format_psnr(r)))
    return lines


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="PSNR of kf's Lanczos resize against Pillow's.")
    parser.add_argument("--kf", required=True, help="path to the kf binary")
    parser.add_argument("--work", required=True, help="scratch directory (may hold photo_4000x3000.png)")
    parser.add_argument("--threshold", type=float, default=THRESHOLD_DB)
    args = parser.parse_args(argv[1:])

    results = measure(args.kf, args.work)
    print("\n".join(markdown_table(results)))
    lowest = minimum_psnr(results)
    shown = "identical" if math.isinf(lowest) else f"{lowest:.1f} dB"
    print(f"\nMinimum PSNR over {photo_count(results)} photos: {shown} (threshold {args.threshold:g} dB)")
    return 0 if lowest >= args.threshold else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
