#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Writes the smart-crop fixtures into this directory: a subject placed off centre on a plain or
a textured background, as JPEG, with where the subject is.

Requirements: Python 3.11, `pip install pillow numpy scikit-image` (Pillow 13, scikit-image 0.26).
Usage: python3 Tests/Fixtures/saliency/make_saliency_fixtures.py

Subjects are scikit-image's sample photographs (public domain): the astronaut's face and the
coffee cup. `manifest.json` lists each file, the subject's box in its pixels (x, y, width,
height), and the fill a smart crop is asked for.
"""
import json
import pathlib

import numpy as np
import skimage.data
from PIL import Image, ImageFilter

HERE = pathlib.Path(__file__).resolve().parent
ENTRIES = []

face = Image.fromarray(skimage.data.astronaut()).crop((150, 30, 310, 190))  # 160 x 160, the face
cup = Image.fromarray(skimage.data.coffee()).crop((90, 20, 470, 380)).resize((150, 142), Image.LANCZOS)


def plain(width, height, colour):
    return Image.new("RGB", (width, height), colour)


def textured(width, height, seed):
    """Fine, low-contrast grain: a surface with detail everywhere, none of it a subject."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    grain = 120 + 14 * np.sin(x / 3.0 + 2 * np.sin(y / 17.0)) + rng.normal(0, 6, (height, width))
    rgb = np.stack([grain * 1.02, grain * 0.98, grain * 0.9], axis=-1)
    return Image.fromarray(np.clip(rgb, 0, 255).astype(np.uint8), "RGB").filter(ImageFilter.GaussianBlur(0.6))


def fixture(name, background, subject, at, spec):
    image = background.copy()
    image.paste(subject, at)
    image.save(HERE / name, quality=88)
    ENTRIES.append({"file": name, "subject": [at[0], at[1], subject.width, subject.height], "spec": spec})


fixture("face_left_plain.jpg", plain(600, 400, (196, 204, 210)), face, (40, 150), "fill(300x300,smart)")
fixture("face_right_textured.jpg", textured(600, 400, 1), face, (420, 60), "fill(300x300,smart)")
fixture("cup_bottom_plain.jpg", plain(400, 600, (236, 232, 226)), cup, (180, 430), "fill(300x300,smart)")
fixture("cup_top_textured.jpg", textured(400, 600, 2), cup, (40, 30), "fill(300x300,smart)")
# Narrower crops, so the window's place is the attention centre's, not an edge's.
fixture("face_middle_textured.jpg", textured(600, 400, 3), face, (230, 200), "fill(160x300,smart)")
fixture("cup_middle_plain.jpg", plain(400, 600, (90, 110, 130)), cup, (20, 250), "fill(300x200,smart)")

(HERE / "manifest.json").write_text(json.dumps({"fixtures": ENTRIES}, indent=2) + "\n")
print(f"wrote {len(ENTRIES)} fixtures")
