#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""In-process thumbnail peers: the library called in a loop, warm, on bytes already in memory.

Usage: python3 Benchmarks/peer_thumbnail_loop.py pillow|pyvips IN SIZE [--iterations N]

pillow: Image.open on the bytes, draft("RGB", (SIZE, SIZE)) (libjpeg DCT scaling for JPEG; a
no-op for PNG and WebP), thumbnail((SIZE, SIZE)), pixels loaded.
pyvips: pyvips.Image.thumbnail_buffer(bytes, SIZE) with Debian's libvips (shrink-on-load),
pixels written to memory.
Prints "thumbnail_ms_per_iter=<ms>" after one untimed warm-up, as `kf-bench thumbnail` does.
"""

import io
import sys
import time


def pillow_thumbnail(data, size):
    from PIL import Image
    with Image.open(io.BytesIO(data)) as im:
        im.draft("RGB", (size, size))
        im.thumbnail((size, size))
        im.load()
        return im.size


def pyvips_thumbnail(data, size):
    import pyvips
    image = pyvips.Image.thumbnail_buffer(data, size)
    image.write_to_memory()
    return image.width, image.height


def main(argv):
    if len(argv) < 4 or argv[1] not in ("pillow", "pyvips"):
        print(f"usage: {argv[0]} pillow|pyvips IN SIZE [--iterations N]", file=sys.stderr)
        return 2
    thumbnail = pillow_thumbnail if argv[1] == "pillow" else pyvips_thumbnail
    with open(argv[2], "rb") as f:
        data = f.read()
    size = int(argv[3])
    iterations = int(argv[argv.index("--iterations") + 1]) if "--iterations" in argv else 20
    thumbnail(data, size)
    start = time.perf_counter()
    for _ in range(iterations):
        thumbnail(data, size)
    print(f"thumbnail_ms_per_iter={(time.perf_counter() - start) * 1000 / iterations:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
