#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Builds the DocC catalogue of every product (swift package generate-documentation) and fails
# when DocC warns about this package's documentation: a link that does not resolve, a parameter
# left out of a `- Parameters:` list. Warnings SwiftPM prints about dependencies are not ours.
# Usage: scripts/build-docs.sh [TARGET ...]   (default: every product's target)
set -euo pipefail
cd "$(dirname "$0")/.."

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(KingfisherImaging Kingfisher KingfisherRedis KingfisherServer kf)
    # The GTK view layer is in the package when GTK 4 is installed (see Package.swift).
    if [ "${KINGFISHER_GTK:-}" = 1 ] || { [ "${KINGFISHER_GTK:-}" != 0 ] && pkg-config --exists gtk4 2>/dev/null; }; then
        targets+=(KingfisherGTK)
    fi
fi
status=0
for target in "${targets[@]}"; do
    log=".build/docs-$target.log"
    echo "Building the documentation of $target (swift package generate-documentation --target $target)..."
    scripts/logged.sh "$log" swift package generate-documentation --target "$target"
    # Every warning but SwiftPM's about a dependency's unhandled files (swift-distributed-tracing
    # ships CMakeLists.txt files in its sources) and about the compiler flags it drops from GTK's
    # pkg-config files (-pthread, -msse).
    ours=$(grep -E "^warning: " "$log" | grep -v -E "found [0-9]+ file\(s\) which are unhandled|prohibited flag\(s\)" || true)
    if [ -n "$ours" ]; then
        echo "build-docs: $target's documentation has $(printf '%s\n' "$ours" | wc -l) DocC warning(s):" >&2
        grep -E "^warning: " -A1 "$log" | grep -v -E "unhandled|CMakeLists" | head -n 40 >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "Documentation built with no DocC warnings: .build/plugins/Swift-DocC/outputs/*.doccarchive"
exit "$status"
