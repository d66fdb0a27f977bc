#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Runs the whole Swift test suite under ThreadSanitizer and/or AddressSanitizer (every target,
# C and C++ dependencies included, is built with the sanitizer; each in its own build directory).
# Usage: scripts/sanitize.sh [thread|address ...]   (default: thread address)
# Exits non-zero when a test fails or the sanitizer reports anything.
set -euo pipefail
cd "$(dirname "$0")/.."

sanitizers=("$@")
if [ ${#sanitizers[@]} -eq 0 ]; then sanitizers=(thread address); fi

scripts/install-deps.sh --tests  # Chromium, redis-server, GTK 4 and Xvfb, which the tests use
export KINGFISHER_GTK=1
for sanitizer in "${sanitizers[@]}"; do
    case "$sanitizer" in
        thread | address) ;;
        *) echo "sanitize: unknown sanitizer '$sanitizer' (thread or address)" >&2; exit 64 ;;
    esac
    scratch=".build/sanitize-$sanitizer"
    echo "Building the tests with --sanitize=$sanitizer (first build takes several minutes)..."
    scripts/logged-build.sh ".build/sanitize-$sanitizer.log" --build-tests --sanitize="$sanitizer" --scratch-path "$scratch"
    echo "Running the tests under the $sanitizer sanitizer..."
    # halt_on_error: the first report fails the run with the report on top.
    # KF_SANITIZER widens the tests' time and memory bounds (Tests/.../SanitizerAllowance.swift).
    # LeakSanitizer stays off here: Swift keeps pointers in bit-packed enum payloads (Data's
    # storage, weak-reference side tables), which it reports as leaked; scripts/fuzz.sh checks
    # leaks per input instead.
    KF_SANITIZER="$sanitizer" TSAN_OPTIONS="halt_on_error=1:${TSAN_OPTIONS:-}" ASAN_OPTIONS="detect_leaks=0:${ASAN_OPTIONS:-}" \
        scripts/run-swift-tests.sh --skip-build --sanitize="$sanitizer" --scratch-path "$scratch"
done
