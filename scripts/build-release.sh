#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Builds the given products in release mode with the Swift runtime and Foundation linked in
# statically (by lld), into .build/static, and prints the directory holding the binaries.
# Statically linked, the dynamic loader no longer resolves ~19 000 symbols across ~57 shared
# libraries at every start.
# Static Foundation brings FoundationNetworking's -lcurl into the link, so libcurl's -dev
# package is needed here and nowhere else. That -lcurl is dropped: the executables link
# CLazyCurl, which opens libcurl when FoundationNetworking first calls it, so a start no longer
# loads libcurl and the 33 libraries it needs (~7 ms).
# Usage: scripts/build-release.sh PRODUCT [PRODUCT...]
set -euo pipefail
cd "$(dirname "$0")/.."
# Only the directory goes to standard output: callers capture it.
scripts/install-deps.sh libcurl4-openssl-dev >&2
flags=(-c release --static-swift-stdlib -Xswiftc -use-ld=lld --scratch-path .build/static
       -Xswiftc -Xfrontend -Xswiftc -disable-autolink-library -Xswiftc -Xfrontend -Xswiftc curl)
bin="$(swift build "${flags[@]}" --show-bin-path)"
for product in "$@"; do
    scripts/logged-build.sh ".build/static-logs/$product.log" "${flags[@]}" --product "$product" >&2
    if readelf -d "$bin/$product" | grep -q 'NEEDED.*libcurl'; then
        echo "build-release: $product still loads libcurl at start: link it with CLazyCurl" >&2
        exit 1
    fi
done
echo "$bin"
