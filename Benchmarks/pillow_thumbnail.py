#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Peer for the whole-process thumbnail benchmark: Pillow with JPEG draft mode.

Usage: python3 Benchmarks/pillow_thumbnail.py IN.jpg OUT.jpg
"""

import sys

from PIL import Image


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(f"usage: {argv[0]} IN OUT", file=sys.stderr)
        return 2
    with Image.open(argv[1]) as im:
        # Lets libjpeg decode at a DCT scale (1/2, 1/4, 1/8) >= the target size.
        im.draft("RGB", (400, 400))
        im.thumbnail((400, 400))
        im.save(argv[2], "JPEG")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
