#!/usr/bin/env bash
# Runs `swift build ARGS...` with all its output in LOG; when the build fails, prints the
# compiler errors (or the log's end) and exits 1.
# Usage: scripts/logged-build.sh LOG ARGS...
set -uo pipefail
log="$1"
shift
mkdir -p "$(dirname "$log")"
if ! swift build "$@" >"$log" 2>&1; then
    grep -E "error:" -A3 "$log" | head -n 40 >&2 || tail -n 40 "$log" >&2
    echo "the build failed (all of it in $log)" >&2
    exit 1
fi
