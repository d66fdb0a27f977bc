#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Writes N distinct photo-like JPEGs of about 50 KB (crops of one generated photo) into DIR.

Usage: python3 Benchmarks/make_download_set.py SOURCE.png DIR [N]
"""

import os
import sys

from PIL import Image


def main(argv):
    if len(argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    source, directory = argv[1], argv[2]
    count = int(argv[3]) if len(argv) > 3 else 1000
    os.makedirs(directory, exist_ok=True)
    photo = Image.open(source).convert("RGB")
    width, height = photo.size
    side = 500
    columns = (width - side) // 37
    for index in range(count):
        x = (index % columns) * 37
        y = ((index // columns) * 53) % (height - side)
        crop = photo.crop((x, y, x + side, y + side))
        crop.save(os.path.join(directory, f"{index:04d}.jpg"), "JPEG", quality=92)
    sizes = [os.path.getsize(os.path.join(directory, f"{i:04d}.jpg")) for i in range(count)]
    print(f"{count} files, mean {sum(sizes) / count / 1000:.1f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
