#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Runs `swift build ARGS...` with all its output in LOG; when the build fails, prints the
# compiler errors (or the log's end) and exits 1.
# Usage: scripts/logged-build.sh LOG ARGS...
set -euo pipefail
log="$1"
shift
exec "$(dirname "$0")/logged.sh" "$log" swift build "$@"
