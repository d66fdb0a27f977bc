#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Peer for the prefetch-pipeline benchmark: Python requests + Pillow with a thread pool.

Usage: python3 Benchmarks/python_prefetch.py URLS.txt OUTDIR [--threads 8] [--size 200]

For each URL (one per line): download with a per-thread requests.Session (keep-alive), decode
with Pillow (JPEG draft mode: libjpeg DCT scaling), thumbnail to SIZE x SIZE, save as JPEG into
OUTDIR. Prints "done=<n> failed=<n>" and exits non-zero when anything failed.
"""

import concurrent.futures
import hashlib
import io
import os
import sys
import threading

import requests
from PIL import Image

local = threading.local()


def fetch(url, out_dir, size):
    session = getattr(local, "session", None)
    if session is None:
        session = local.session = requests.Session()
    response = session.get(url, timeout=15)
    response.raise_for_status()
    with Image.open(io.BytesIO(response.content)) as im:
        im.draft("RGB", (size, size))
        im.thumbnail((size, size))
        name = hashlib.sha256(url.encode()).hexdigest() + ".jpg"
        im.convert("RGB").save(os.path.join(out_dir, name), "JPEG")


def main(argv):
    if len(argv) < 3:
        print(f"usage: {argv[0]} URLS.txt OUTDIR [--threads 8] [--size 200]", file=sys.stderr)
        return 2
    threads = int(argv[argv.index("--threads") + 1]) if "--threads" in argv else 8
    size = int(argv[argv.index("--size") + 1]) if "--size" in argv else 200
    with open(argv[1]) as f:
        urls = [line.strip() for line in f if line.strip()]
    os.makedirs(argv[2], exist_ok=True)
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
        for future in concurrent.futures.as_completed([pool.submit(fetch, url, argv[2], size) for url in urls]):
            if future.exception() is not None:
                failed += 1
    print(f"done={len(urls) - failed} failed={failed}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
