#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Benchmarks kf against its peers in one run and writes BENCHMARKS.md.
# Installs what is missing (Debian: libvips-tools, hyperfine, gcc, nginx-light, curl, wrk, redis-server; pip: Pillow,
# scikit-image, pyvips, requests; thumbor in its own venv under .build),
# builds in release mode, generates the inputs at run time into a temporary directory.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh libvips-tools hyperfine gcc nginx-light curl wrk redis-server
scripts/install-python-deps.sh
if ! python3 -c "import pyvips, requests" 2>/dev/null; then
    echo "Installing pyvips and requests (pip)"
    python3 -m pip install --quiet --disable-pip-version-check pyvips requests
fi
thumbor="$(scripts/install-thumbor.sh)"

echo "Building (release, static Swift runtime)..."
bin="$(scripts/build-release.sh kf kf-bench)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cc -O2 -o "$work/bare_decode" Benchmarks/bare_decode.c $(pkg-config --cflags --libs libturbojpeg spng libwebp)
python3 Benchmarks/make_inputs.py "$work" >/dev/null

python3 Benchmarks/run_benchmarks.py --bin "$bin" --bare "$work/bare_decode" --work "$work" --thumbor "$thumbor" --output BENCHMARKS.md
