#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Writes the animated PNG fixtures of KingfisherTests into this directory.

Requirements: Python 3.11, `pip install pillow numpy` (Pillow 13).
Usage: python3 Tests/Fixtures/apng/make_apng_fixtures.py

Each animation is written by Pillow's APNG encoder with one disposal and blending setting;
`<name>.frame<N>.ref.png` is frame N composited as the APNG specification says, and
`manifest.json` lists the frames, durations and loop count. Pillow's APNG reader is the
reference where it follows the specification; it blends "over" by pasting with the frame as
mask, which also blends the alpha channel (a half-transparent pixel over a transparent one
comes out a quarter opaque), so for those animations the script composites the frames itself
(source-over on straight alpha, as browsers do). Every frame changes every pixel, so Pillow
writes whole-canvas frames and the source frames are what the file holds.
"""
import json
import pathlib

import numpy as np
from PIL import Image

HERE = pathlib.Path(__file__).resolve().parent
W, H = 32, 24


def frames(seed, alpha):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(4):
        a = np.zeros((H, W, 4), np.uint8)
        a[..., :3] = rng.integers(0, 256, 3)
        a[..., 3] = 255
        # A moving block, half transparent when `alpha`, and a transparent hole.
        y, x = 2 + i * 4, 3 + i * 6
        a[y:y + 8, x:x + 10, :3] = rng.integers(0, 256, 3)
        if alpha:
            a[y:y + 8, x:x + 10, 3] = 128
            a[0:4, 0:4, 3] = 0
        out.append(Image.fromarray(a, "RGBA"))
    return out


def over(src, dst):
    """Source-over of straight-alpha RGBA arrays (uint8), rounded."""
    s, d = src.astype(np.float64) / 255, dst.astype(np.float64) / 255
    alpha = s[..., 3:] + d[..., 3:] * (1 - s[..., 3:])
    color = (s[..., :3] * s[..., 3:] + d[..., :3] * d[..., 3:] * (1 - s[..., 3:])) / np.where(alpha > 0, alpha, 1)
    out = np.concatenate([np.where(alpha > 0, color, 0), alpha], axis=2)
    return np.clip(np.rint(out * 255), 0, 255).astype(np.uint8)


def composite(images, disposal, blend):
    """The frames as the APNG specification composites them (whole-canvas frames)."""
    canvas = np.zeros((H, W, 4), np.uint8)
    pending, out = None, []
    for index, image in enumerate(images):
        if pending is not None:
            canvas = pending
        frame = np.asarray(image.convert("RGBA"))
        effective = 1 if index == 0 and disposal == 2 else disposal
        before = canvas.copy()
        canvas = over(frame, canvas) if blend == 1 else frame.copy()
        out.append(canvas.copy())
        pending = {0: None, 1: np.zeros_like(canvas), 2: before}[effective]
    return out


def main():
    entries = []
    cases = [("apng_dispose_none_source", 0, 0, False), ("apng_dispose_background_over", 1, 1, True),
             ("apng_dispose_previous_over", 2, 1, True), ("apng_opaque_rgb", 0, 0, None)]
    for n, (name, disposal, blend, alpha) in enumerate(cases):
        images = frames(n + 1, bool(alpha))
        if alpha is None:
            images = [im.convert("RGB") for im in images]
        durations = [40, 80, 120, 160]
        images[0].save(HERE / f"{name}.png", save_all=True, append_images=images[1:], duration=durations,
                       loop=3, disposal=disposal, blend=blend)
        ref = Image.open(HERE / f"{name}.png")
        ours = composite(images, disposal, blend)
        refs = []
        for index in range(ref.n_frames):
            ref.seek(index)
            file = f"{name}.frame{index}.ref.png"
            if blend == 1 and alpha:
                Image.fromarray(ours[index], "RGBA").save(HERE / file)
            else:
                ref.convert("RGBA").save(HERE / file)
                assert np.abs(np.asarray(ref.convert("RGBA")).astype(int) - ours[index].astype(int)).max() <= 1, name
            refs.append(file)
        entries.append({"file": f"{name}.png", "width": W, "height": H, "frames": ref.n_frames,
                        "durations": [d / 1000 for d in durations], "loopCount": 3, "refs": refs})
    (HERE / "manifest.json").write_text(json.dumps({"fixtures": entries}, indent=2) + "\n")


if __name__ == "__main__":
    main()
