#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Installs the Debian packages this project builds against, if any is missing.
# Usage: scripts/install-deps.sh [--tests] [extra Debian packages...]
#   --tests  also what the test suite runs: Chromium (the playground page), redis-server, and
#            GTK 4 with Xvfb (KingfisherGTK and its window tests), vipsthumbnail (smart crops are
#            checked against it) and djxl (JPEG XL output is decoded with it)
set -euo pipefail

extras=()
for argument in "$@"; do
    if [ "$argument" = "--tests" ]; then
        extras+=(chromium redis-server libgtk-4-dev xvfb libvips-tools libjxl-tools)
    else
        extras+=("$argument")
    fi
done
packages=(libturbojpeg0-dev libspng-dev libdeflate-dev libgif-dev libwebp-dev liblcms2-dev libtiff-dev libheif-dev libavif-dev libjxl-dev librsvg2-2 pkg-config time openssl tinyproxy "${extras[@]}")
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
