#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Installs the Python packages the peer checks and benchmarks use (Pillow, scikit-image for its
# bundled photographs), if they are missing.
set -euo pipefail
if ! python3 -c "import PIL, skimage" 2>/dev/null; then
    echo "Installing Pillow and scikit-image (pip)"
    python3 -m pip install --quiet --disable-pip-version-check pillow scikit-image
fi
