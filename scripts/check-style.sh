#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Style, checked by a machine as Kingfisher's own guide asks: swift-format's linter (the
# toolchain's `swift format`, configured by .swift-format) over every Swift file, and the licence
# header at the top of every source file. `swift format format -i -r Sources Tests Benchmarks
# Examples Package.swift` and `scripts/licence_header.py --add` fix what they report.
set -euo pipefail
cd "$(dirname "$0")/.."
swift format lint --strict --parallel -r Sources Tests Benchmarks Examples Package.swift
python3 scripts/licence_header.py --check
echo "Style: swift format lint --strict is clean and every source file has the licence header."
