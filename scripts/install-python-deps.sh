#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Installs the Python packages the peer checks, tests and benchmarks use (Pillow, scikit-image
# for its bundled photographs, blurhash: the reference BlurHash decoder /info is checked with),
# if they are missing.
set -euo pipefail
if ! python3 -c "import PIL, skimage, blurhash" 2>/dev/null; then
    echo "Installing Pillow, scikit-image and blurhash (pip)"
    python3 -m pip install --quiet --disable-pip-version-check pillow scikit-image blurhash
fi
