#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Installs the Debian packages this project builds against, if any is missing.
# Usage: scripts/install-deps.sh [extra Debian packages...]
set -euo pipefail

packages=(libturbojpeg0-dev libspng-dev libdeflate-dev libgif-dev libwebp-dev liblcms2-dev libtiff-dev libheif-dev libavif-dev libjxl-dev librsvg2-2 pkg-config time openssl tinyproxy "$@")
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
echo "Installing missing Debian packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
