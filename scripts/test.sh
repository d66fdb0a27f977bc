#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# The whole test suite: check the style, install what is missing, build and run every Swift test and the
# multi-node deployment test, check that kf decodes real photographs of every kind to the pixels
# Pillow gives, that a package using only KingfisherImaging builds without networking, and that
# the DocC catalogues build; then run the suite under ThreadSanitizer and every fuzz target for
# KF_FUZZ_SECONDS (default 30) seconds.
set -euo pipefail
cd "$(dirname "$0")/.."

# Style first, the fastest check: swift-format's linter and the licence headers.
scripts/check-style.sh

# ImageServerPlaygroundTests opens kf serve's playground page in headless Chromium (run with
# --no-sandbox, so the recommended chromium-sandbox is not needed); the Redis tier's tests start
# redis-server; the GTK view layer's tests drive real windows under Xvfb.
scripts/install-deps.sh --tests
# Pillow, scikit-image and the reference BlurHash decoder, which tests run too.
scripts/install-python-deps.sh
# The manifest adds KingfisherGTK when GTK 4 is installed; saying so keeps SwiftPM from reusing
# a manifest evaluated before GTK was.
export KINGFISHER_GTK=1
swift build --build-tests
scripts/run-swift-tests.sh --skip-build

# The multi-node deployment over real processes: redis-server, three kf serve nodes and nginx
# (deploy/cluster.sh installs redis-server and nginx-light).
python3 scripts/cluster-test.py "$(swift build --show-bin-path)/kf"

python3 Benchmarks/compare_with_pillow.py --kf "$(swift build --show-bin-path)/kf"

scripts/check-imaging-only.sh
# Which targets each library product compiles: none of KingfisherRedis for Kingfisher.
python3 scripts/check-product-closure.py

# Kingfisher 8.11's public API against this library's: every portable symbol is the same or a
# difference listed on purpose (KINGFISHER_PARITY.md is the full table of this comparison).
python3 scripts/kingfisher_parity.py compare --symbols scripts/kingfisher-8.11.0-symbols.tsv \
    --notes scripts/kingfisher-parity-notes.tsv --check

# Architecture.md's products, catalogues, targets and C shims against Package.swift.
python3 scripts/check-architecture.py

# One DocC catalogue per product, built with no DocC warning (a link that does not resolve, a
# parameter left undocumented).
scripts/build-docs.sh

scripts/sanitize.sh thread
scripts/fuzz.sh "${KF_FUZZ_SECONDS:-30}"
