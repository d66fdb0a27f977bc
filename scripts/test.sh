#!/usr/bin/env bash
# The whole test suite: install what is missing, then build and run every test.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
swift build --build-tests
swift test --skip-build
