#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Writes the seed corpora for scripts/fuzz.sh from the test fixtures.

Usage: make_fuzz_seeds.py FIXTURES_DIR PROCESSOR_SEEDS_FILE OUT_DIR

decode, disk-cache: every fixture image; downsample: each image behind a size byte;
processor: one spec per line of the seeds file; exif: the APP1 (EXIF) payloads of the fixture
JPEGs that have one; decode-FORMAT: the fixtures of that format, in any fixture folder.
"""
import pathlib
import shutil
import sys

fixtures, processor_seeds, out = (pathlib.Path(a) for a in sys.argv[1:4])
shutil.rmtree(out, ignore_errors=True)
# The per-format targets and the file suffixes of their seeds (APNG: PNGs with an acTL chunk).
format_suffixes = {"decode-apng": (".png", ".apng"), "decode-heic": (".heic", ".heif"), "decode-avif": (".avif",),
                   "decode-jxl": (".jxl",), "decode-tiff": (".tif", ".tiff"), "decode-bmp": (".bmp",),
                   "decode-ico": (".ico",), "decode-svg": (".svg",)}
dirs = {name: out / name for name in ("decode", "downsample", "processor", "exif", "disk-cache", *format_suffixes)}
for path in dirs.values():
    path.mkdir(parents=True)

images = sorted(p for p in fixtures.rglob("*")
                if p.suffix in (".jpg", ".png", ".gif", ".webp", ".svg") and not p.name.endswith(".ref.png")
                and "fuzz" not in p.relative_to(fixtures).parts)
for index, image in enumerate(images):
    data = image.read_bytes()
    (dirs["decode"] / image.name).write_bytes(data)
    (dirs["disk-cache"] / image.name).write_bytes(data)
    (dirs["downsample"] / image.name).write_bytes(bytes([(index * 37) % 256]) + data)


def app1_payloads(jpeg):
    """The payloads of APP1 segments before the first scan."""
    i = 2
    while i + 4 <= len(jpeg) and jpeg[i] == 0xFF:
        marker, length = jpeg[i + 1], int.from_bytes(jpeg[i + 2:i + 4], "big")
        if marker == 0xDA:
            break
        if marker == 0xE1:
            yield jpeg[i + 4:i + 2 + length]
        i += 2 + length


for image in images:
    if image.suffix == ".jpg":
        for n, payload in enumerate(app1_payloads(image.read_bytes())):
            (dirs["exif"] / f"{image.stem}-{n}").write_bytes(payload)

for target, suffixes in format_suffixes.items():
    for image in sorted(fixtures.rglob("*")):
        if image.suffix not in suffixes or image.name.endswith(".ref.png") or "fuzz" in image.relative_to(fixtures).parts:
            continue
        data = image.read_bytes()
        if target == "decode-apng" and b"acTL" not in data:
            continue
        (dirs[target] / f"{image.parent.name}-{image.name}").write_bytes(data)

for n, line in enumerate(processor_seeds.read_text().splitlines()):
    if line.strip():
        (dirs["processor"] / f"spec-{n}").write_text(line)

print(f"fuzz seeds: {', '.join(f'{name} {len(list(d.iterdir()))}' for name, d in dirs.items())}")
