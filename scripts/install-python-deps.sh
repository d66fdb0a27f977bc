#!/usr/bin/env bash
# Installs the Python packages the peer checks and benchmarks use (Pillow, scikit-image for its
# bundled photographs), if they are missing.
set -euo pipefail
if ! python3 -c "import PIL, skimage" 2>/dev/null; then
    echo "Installing Pillow and scikit-image (pip)"
    python3 -m pip install --quiet --disable-pip-version-check pillow scikit-image
fi
