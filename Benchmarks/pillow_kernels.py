#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""In-process Pillow peer for the kf-bench `resize`, `blur`, `rotate` and `sharpen` kernels.

Usage:
  python3 Benchmarks/pillow_kernels.py resize  FILE WxH     [--iterations N] [--mode RGBA|RGB] [--crop WxH]
  python3 Benchmarks/pillow_kernels.py blur    FILE RADIUS  [--iterations N] [--mode RGBA|RGB] [--crop WxH]
  python3 Benchmarks/pillow_kernels.py rotate  FILE DEGREES [--iterations N] [--mode RGBA|RGB] [--crop WxH]
  python3 Benchmarks/pillow_kernels.py sharpen FILE SIGMA   [--iterations N] [--mode RGBA|RGB] [--crop WxH]

Prints `<kernel>_ms_per_iter=<ms>`, like kf-bench.

FILE is opened, converted to --mode (RGBA by default, to match kf's RGBA buffers) and
optionally centre-cropped once, outside the timing. Then one warm-up call and N timed calls of
  resize: im.resize((W, H), Image.Resampling.LANCZOS)
  blur:    im.filter(ImageFilter.GaussianBlur(RADIUS))   (RADIUS is the standard deviation)
  rotate:  im.transpose(ROTATE_270 / ROTATE_180 / ROTATE_90)   (DEGREES clockwise: 90, 180, 270)
  sharpen: im.filter(ImageFilter.UnsharpMask(SIGMA, 100, 0))
Pillow runs these on one core.

Notes on what Pillow computes:
  * resize of an RGBA image converts to premultiplied "RGBa", resamples (separable Lanczos-3,
    8-bit fixed-point coefficients) and converts back, so both conversions are in the timing.
  * GaussianBlur is not an exact Gaussian: it is 3 passes of an "extended" box blur with a
    fractional radius per axis (Gwosdek et al., SSVM 2011), whose variance equals RADIUS².
    It blurs all four channels independently (no premultiplication).
"""

import argparse
import sys
import time

from PIL import Image, ImageFilter


def parse_size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected WxH, got {text!r}") from None
    if w <= 0 or h <= 0:
        raise argparse.ArgumentTypeError(f"size must be positive, got {text!r}")
    return w, h


def center_crop(im: Image.Image, size: tuple[int, int]) -> Image.Image:
    w, h = size
    if w > im.width or h > im.height:
        sys.exit(f"crop {w}x{h} larger than image {im.width}x{im.height}")
    x0 = (im.width - w) // 2
    y0 = (im.height - h) // 2
    return im.crop((x0, y0, x0 + w, y0 + h))


def load(path: str, mode: str, crop: tuple[int, int] | None) -> Image.Image:
    with Image.open(path) as src:
        im = src.convert(mode)
    if crop is not None:
        im = center_crop(im, crop)
    im.load()
    return im


def time_per_iteration(operation, iterations: int) -> float:
    """Milliseconds per call of `operation`, after one warm-up call."""
    operation()
    start = time.perf_counter()
    for _ in range(iterations):
        operation()
    return (time.perf_counter() - start) * 1000 / iterations


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    sub = parser.add_subparsers(dest="kernel", required=True)
    for name, arg, kind, help_text in (
        ("resize", "size", parse_size, "target size WxH"),
        ("blur", "radius", float, "Gaussian standard deviation in pixels"),
        ("rotate", "degrees", int, "clockwise quarter turn: 90, 180 or 270"),
        ("sharpen", "sigma", float, "the unsharp mask's Gaussian standard deviation in pixels"),
    ):
        p = sub.add_parser(name)
        p.add_argument("file")
        p.add_argument(arg, type=kind, help=help_text)
        p.add_argument("--iterations", type=int, default=20)
        p.add_argument("--mode", choices=("RGBA", "RGB"), default="RGBA")
        p.add_argument("--crop", type=parse_size, default=None, help="centre-crop to WxH before timing")
    args = parser.parse_args(argv[1:])
    if args.iterations < 1:
        parser.error("--iterations must be at least 1")

    im = load(args.file, args.mode, args.crop)
    if args.kernel == "resize":
        size = args.size

        def operation():
            return im.resize(size, Image.Resampling.LANCZOS)
    elif args.kernel == "blur":
        blur = ImageFilter.GaussianBlur(args.radius)

        def operation():
            return im.filter(blur)
    elif args.kernel == "rotate":
        turn = {90: Image.Transpose.ROTATE_270, 180: Image.Transpose.ROTATE_180, 270: Image.Transpose.ROTATE_90}[args.degrees]

        def operation():
            return im.transpose(turn)
    else:
        mask = ImageFilter.UnsharpMask(args.sigma, 100, 0)

        def operation():
            return im.filter(mask)

    ms = time_per_iteration(operation, args.iterations)
    print(f"{args.kernel}_ms_per_iter={ms:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
