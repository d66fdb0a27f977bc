#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Writes the editing fixtures into this directory: small sources and, for each processing
step checked against Pillow, the pixels Pillow makes of them.

Requirements: Python 3.11, `pip install pillow numpy` (Pillow 13 was used).
Usage: python3 Tests/Fixtures/editing/make_editing_fixtures.py

Sources are cut from ../photo.png (odd sizes, so centring and edge blocks are exercised).
`manifest.json` lists, for each case, its source, the step in the processing grammar, the
reference written by Pillow, and the least PSNR against it (`null`: the pixels must be exact,
`tolerance` aside: the largest per-channel difference allowed).
"""
import json
import pathlib



import numpy as np
from PIL import Image, ImageChops, ImageFilter, ImageOps
from PIL.TiffImagePlugin import IFDRational

HERE = pathlib.Path(__file__).resolve().parent
ENTRIES = []


def save(image, name):
    image.convert("RGBA").save(HERE / name, optimize=True)
    return name


def case(source, spec, ref_image, name, min_psnr=None, tolerance=0):
    ENTRIES.append({"source": source, "spec": spec, "ref": save(ref_image, name + ".ref.png"),
                    "minPSNR": min_psnr, "tolerance": tolerance})


photo = Image.open(HERE.parent / "photo.png").convert("RGBA").crop((30, 20, 93, 63))  # 63 x 43
save(photo, "photo.png")

# An alpha ramp across it: flattening and alpha-weighted steps have something to weigh.
ramp = np.array(photo)
ramp[..., 3] = np.clip(np.arange(63) * 4 + 8, 0, 255).astype(np.uint8)[None, :]
translucent = Image.fromarray(ramp, "RGBA")
save(translucent, "translucent.png")

# The photo on a near-white border that varies within 4 levels, for trim.
rng = np.random.default_rng(30)
border = np.full((61, 83, 4), 250, np.int16)
border[..., 2] = 246
border[..., :3] += rng.integers(-4, 5, size=(61, 83, 3))
border[..., 3] = 255
bordered = border.astype(np.uint8)
bordered[7:50, 11:74] = np.array(photo)
save(Image.fromarray(bordered, "RGBA"), "bordered.png")

for degrees, transpose in [(90, Image.Transpose.ROTATE_270), (180, Image.Transpose.ROTATE_180),
                           (270, Image.Transpose.ROTATE_90)]:
    case("photo.png", f"rotate({degrees})", photo.transpose(transpose), f"rotate{degrees}")
case("photo.png", "flip(h)", photo.transpose(Image.Transpose.FLIP_LEFT_RIGHT), "flip_h")
case("photo.png", "flip(v)", photo.transpose(Image.Transpose.FLIP_TOP_BOTTOM), "flip_v")

# extend: the image pasted (not composited) at the centre, the odd pixel right and below.
canvas = Image.new("RGBA", (80, 60), (255, 0, 0, 128))
canvas.paste(photo, ((80 - 63) // 2, (60 - 43) // 2))
case("photo.png", "extend(80x60,#FF000080)", canvas, "extend_color")
canvas = Image.new("RGBA", (70, 70), (0, 0, 0, 0))
canvas.paste(photo, ((70 - 63) // 2, (70 - 43) // 2))
case("photo.png", "extend(70x70)", canvas, "extend_transparent")

case("photo.png", "pad(4,6,8,10,#00FF00)", ImageOps.expand(photo, border=(10, 4, 6, 8), fill=(0, 255, 0, 255)), "pad4")
case("photo.png", "pad(5,#336699)", ImageOps.expand(photo, border=5, fill=(0x33, 0x66, 0x99, 255)), "pad1")

# trim: what differs from the top-left pixel by more than the threshold in some channel.
source = Image.open(HERE / "bordered.png").convert("RGB")
difference = ImageChops.difference(source, Image.new("RGB", source.size, source.getpixel((0, 0))))
box = difference.point(lambda value: 255 if value > 10 else 0).getbbox()
assert box == (11, 7, 74, 50), box  # the photo exactly: its edge is never within 10 of the border
case("bordered.png", "trim(10)", source.crop(box), "trim")

white = Image.new("RGBA", photo.size, (0x33, 0x66, 0xCC, 255))
case("translucent.png", "background(#3366CC)", Image.alpha_composite(white, translucent), "background", tolerance=1)

# pixelate: Pillow's reduce averages each block (cut short at the edges), repeated back. Its
# fixed-point division rounds some exact halves down (in the 12-pixel edge blocks); ours rounds
# them up, hence a tolerance of 1.
blocks = np.array(photo.reduce(4))
case("photo.png", "pixelate(4)",
     Image.fromarray(np.repeat(np.repeat(blocks, 4, axis=0), 4, axis=1)[:43, :63], "RGBA"), "pixelate4", tolerance=1)

case("photo.png", "sharpen(1.5)", photo.filter(ImageFilter.UnsharpMask(radius=1.5, percent=100, threshold=0)),
     "sharpen", min_psnr=40)
case("photo.png", "sharpen(1,2)", photo.filter(ImageFilter.UnsharpMask(radius=1, percent=200, threshold=0)),
     "sharpen_strong", min_psnr=40)

# A photograph's EXIF, for /info and keep(exif): camera, author, date, exposure and position,
# taken sideways (orientation 6: shown 43x63).
exif = Image.Exif()
exif[0x010F] = "Canon"
exif[0x0110] = "Canon EOS R5"
exif[0x0112] = 6
exif[0x013B] = "Ada Lovelace"
exif[0x8298] = "(c) 2026 Ada Lovelace"
camera = exif.get_ifd(0x8769)
camera[0x9003] = "2026:05:17 14:03:22"
camera[0x829A] = IFDRational(1, 250)
camera[0x829D] = IFDRational(28, 10)
camera[0x8827] = 400
camera[0x920A] = IFDRational(50, 1)
gps = exif.get_ifd(0x8825)
gps[0x0001] = "N"
gps[0x0002] = (IFDRational(48, 1), IFDRational(51, 1), IFDRational(24, 1))
gps[0x0003] = "W"
gps[0x0004] = (IFDRational(2, 1), IFDRational(21, 1), IFDRational(0, 1))
photo.convert("RGB").save(HERE / "exif.jpg", quality=90, exif=exif)

(HERE / "manifest.json").write_text(json.dumps({"fixtures": ENTRIES}, indent=2) + "\n")
print(f"wrote {len(ENTRIES)} cases")
