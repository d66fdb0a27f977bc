#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Runs COMMAND... with all its output in LOG; when it fails, prints the compiler's and linker's
# error lines (or the log's end) and exits 1.
# Usage: scripts/logged.sh LOG COMMAND...
set -uo pipefail
log="$1"
shift
mkdir -p "$(dirname "$log")"
if ! "$@" >"$log" 2>&1; then
    grep -E "error:" -A3 "$log" | head -n 40 >&2 || tail -n 40 "$log" >&2
    echo "'$*' failed (all of it in $log)" >&2
    exit 1
fi
