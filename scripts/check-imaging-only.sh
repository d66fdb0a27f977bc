#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Builds Examples/ImagingOnly, a package that depends on the KingfisherImaging product alone,
# runs it on a test photo (decode, downsample, a processor spec, PNG out), and fails if its
# build compiled any networking module (NIO, AsyncHTTPClient, BoringSSL, HTTP/2).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh

example=Examples/ImagingOnly
scratch="$example/.build"
echo "Building $example (KingfisherImaging only)..."
scripts/logged-build.sh .build/imaging-only.log --package-path "$example" --scratch-path "$scratch"
bin="$(swift build --package-path "$example" --scratch-path "$scratch" --show-bin-path)"

# SwiftPM lays out a directory for every module of the graph; only compiled ones hold objects.
compiled=$(find "$bin" -mindepth 2 -path '*.build/*.o' -printf '%h\n' | grep -o '[^/]*\.build$' | sed 's/\.build$//' | sort -u)
networking=$(grep -E '^(C?NIO|AsyncHTTPClient|CNIOBoringSSL|NIOSSL|NIOHTTP|Atomics|_NIO)' <<<"$compiled" || true)
if [ -n "$networking" ]; then
    echo "check-imaging-only: the imaging-only build compiled networking modules:" $networking >&2
    exit 1
fi
echo "Compiled modules: $(tr '\n' ' ' <<<"$compiled")"

output="$(mktemp -d)"
trap 'rm -rf "$output"' EXIT
"$bin/ImagingOnly" Tests/Fixtures/photo_progressive.jpg "$output/out.png"
python3 - "$output/out.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
width, height = struct.unpack(">II", data[16:24])
assert (width, height) == (48, 48), (width, height)
PY
echo "check-imaging-only: decoded, downsampled and processed with KingfisherImaging alone; no networking module built"
