#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Runs `swift test ARGS...` with a limit on its whole run (KF_TEST_MINUTES, default 30; the
# suite takes under 10 on two cores, sanitizers included). A run past the limit is killed with
# everything it started, and the tests that started but never finished are named: a hung test
# fails the run at once with its name, instead of holding CI until its own limit with nothing said.
# Usage: scripts/run-swift-tests.sh [swift test arguments]
set -uo pipefail
cd "$(dirname "$0")/.."

minutes="${KF_TEST_MINUTES:-30}"
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# A session of its own, so that the whole run (swift test, the test bundle it starts in a process
# group of its own, and the servers the tests start) can be stopped together. Line-buffered, so
# that the log holds every line printed before a stop.
setsid stdbuf -oL -eL swift test "$@" > "$log" 2>&1 < /dev/null &
run=$!
tail -n +1 -f --pid="$run" "$log" &
shown=$!
if ! timeout "${minutes}m" tail --pid="$run" -f /dev/null; then
    pkill -KILL -s "$run"
    wait "$run"
    wait "$shown"
    echo "swift test was still running after $minutes minutes and was stopped; tests started but not finished:" >&2
    python3 - "$log" >&2 <<'PY'
import re, sys
started, finished = [], set()
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    if m := re.search(r"Test (\S+\(\S*\)) started\.", line):
        started.append(m.group(1))
    elif m := re.search(r"Test (\S+\(\S*\))(?: with \d+ test cases?)? (?:passed|failed|skipped)", line):
        finished.add(m.group(1))
unfinished = [name for name in started if name not in finished]
print("\n".join(f"  {name}" for name in unfinished) or "  (none: the run hung outside a test)")
PY
    exit 1
fi
wait "$run"
status=$?
wait "$shown"
exit "$status"
