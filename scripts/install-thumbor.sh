#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Installs thumbor (PyPI), the peer of `kf serve` in Benchmarks/serve_vs_thumbor.py, into its own
# virtual environment in .build/thumbor-venv, if it is not there yet, and prints its executable.
# A venv of its own because thumbor pins Pillow below 13 and the other peer checks use the newest.
# pycurl too, as thumbor advises for its HTTP loader (it warns without it); both are wheels for
# CPython 3.11 (pycurl's bundles libcurl), so no Debian package is needed.
# Usage: scripts/install-thumbor.sh
set -euo pipefail
cd "$(dirname "$0")/.."
thumbor=7.8.0
pycurl=7.49.0
venv=.build/thumbor-venv
if [ "$("$venv/bin/thumbor" --version 2>/dev/null | awk '{print $2}')" != "v$thumbor" ] ||
    ! "$venv/bin/python" -c "import pycurl, tornado.curl_httpclient" 2>/dev/null; then
    echo "Installing thumbor $thumbor and pycurl $pycurl (pip, into $venv)" >&2
    rm -rf "$venv"
    python3 -m venv "$venv" >&2
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "thumbor==$thumbor" "pycurl==$pycurl" >&2
fi
echo "$PWD/$venv/bin/thumbor"
