#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# Runs a small kf serve cluster on loopback: redis-server, N kf serve nodes sharing it, and nginx
# spreading requests over the nodes by consistent hash of the URI.
#
# Usage:
#   deploy/cluster.sh start WORK_DIR [--nodes N] [--kf PATH] [--port PORT] [--redis-port PORT]
#                     [-- KF_SERVE_FLAGS...]
#   deploy/cluster.sh stop WORK_DIR
#
# start prints the cluster's URL (nginx) and writes WORK_DIR/cluster.env (NGINX_PORT, REDIS_PORT,
# NODE_PORTS, the pid of every process); stop stops every process it started, nodes with
# SIGTERM (they finish requests in flight). With --redis-port the nodes use a Redis already
# running on 127.0.0.1 there, which stop leaves alone; otherwise the Redis it starts keeps at most
# $REDIS_MAXMEMORY (default 1gb). Installs redis-server and nginx-light if missing.
# Without KF_SERVE_FLAGS the nodes take --allow-unsigned (a test setup); give --key for real use.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
command="${1:-}"; work="${2:-}"
[ -n "$command" ] && [ -n "$work" ] || { sed -n '5,14p' "$0" >&2; exit 64; }
shift 2

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

wait_for() {  # wait_for WHAT COMMAND...: retries COMMAND for up to 30 s
    local what="$1"; shift
    for _ in $(seq 300); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
    echo "cluster.sh: $what did not come up" >&2
    return 1
}

stop_cluster() {
    [ -f "$work/cluster.env" ] || { echo "cluster.sh: no cluster in $work" >&2; return 0; }
    # shellcheck disable=SC1091
    . "$work/cluster.env"
    [ -n "${NGINX_PID:-}" ] && kill -QUIT "$NGINX_PID" 2>/dev/null || true
    for pid in ${NODE_PIDS:-}; do kill -TERM "$pid" 2>/dev/null || true; done
    for pid in ${NODE_PIDS:-}; do
        for _ in $(seq 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
        kill -KILL "$pid" 2>/dev/null || true
    done
    if [ -n "${REDIS_PID:-}" ]; then
        redis-cli -p "$REDIS_PORT" shutdown nosave >/dev/null 2>&1 || true
        kill -KILL "$REDIS_PID" 2>/dev/null || true
    fi
    rm -f "$work/cluster.env"
    echo "cluster.sh: stopped"
}

case "$command" in
stop)
    stop_cluster
    ;;
start)
    nodes=3; kf=""; port=""; redis_port=""
    while [ $# -gt 0 ]; do
        case "$1" in
            --nodes) nodes="$2"; shift 2 ;;
            --kf) kf="$2"; shift 2 ;;
            --port) port="$2"; shift 2 ;;
            --redis-port) redis_port="$2"; shift 2 ;;
            --) shift; break ;;
            *) echo "cluster.sh: unknown option $1" >&2; exit 64 ;;
        esac
    done
    flags=("$@")
    [ ${#flags[@]} -gt 0 ] || flags=(--allow-unsigned)
    [ -n "$kf" ] || kf="$("$here/../scripts/build-release.sh" kf)/kf"
    "$here/../scripts/install-deps.sh" redis-server nginx-light
    mkdir -p "$work"
    [ ! -f "$work/cluster.env" ] || { echo "cluster.sh: a cluster runs in $work already (stop it first)" >&2; exit 1; }
    trap 'stop_cluster >/dev/null' ERR

    redis_pid=""
    if [ -z "$redis_port" ]; then
        redis_port="$(free_port)"
        # Every key the nodes write has a TTL, so volatile-lru may evict any of them when full.
        redis-server --port "$redis_port" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" \
            --maxmemory "${REDIS_MAXMEMORY:-1gb}" --maxmemory-policy volatile-lru \
            --logfile "$work/redis.log" >/dev/null 2>&1 &
        redis_pid="$!"
    fi
    echo "REDIS_PORT=$redis_port REDIS_PID=$redis_pid" > "$work/cluster.env"
    wait_for "redis-server on $redis_port" redis-cli -p "$redis_port" ping

    node_ports=(); node_pids=(); servers=""
    for index in $(seq "$nodes"); do
        node_port="$(free_port)"
        "$kf" serve --host 127.0.0.1 --port "$node_port" --name "kf-node$index" --directory "$work/node$index" \
            --redis "redis://127.0.0.1:$redis_port" "${flags[@]}" > "$work/node$index.log" 2>&1 &
        node_pids+=("$!"); node_ports+=("$node_port")
        servers+="        server 127.0.0.1:$node_port max_fails=5 fail_timeout=5s;"$'\n'
        echo "REDIS_PORT=$redis_port REDIS_PID=$redis_pid NODE_PIDS=\"${node_pids[*]}\" NODE_PORTS=\"${node_ports[*]}\"" > "$work/cluster.env.new"
        mv "$work/cluster.env.new" "$work/cluster.env"
    done
    for node_port in "${node_ports[@]}"; do
        wait_for "kf serve on $node_port" curl -fsS "http://127.0.0.1:$node_port/healthz"
    done

    [ -n "$port" ] || port="$(free_port)"
    mkdir -p "$work/nginx"
    python3 - "$here/nginx.conf.template" "$work/nginx/nginx.conf" "$work/nginx" "$port" "$servers" <<'PY'
import sys
template, out, work, port, servers = sys.argv[1:]
text = open(template).read().replace("@WORK@", work).replace("@PORT@", port).replace("@SERVERS@", servers.rstrip("\n"))
open(out, "w").write(text)
PY
    nginx -c "$work/nginx/nginx.conf" -g "daemon off;" > "$work/nginx/stdout.log" 2>&1 &
    echo "NGINX_PORT=$port NGINX_PID=$!" >> "$work/cluster.env"
    wait_for "nginx on $port" curl -fsS "http://127.0.0.1:$port/healthz"
    trap - ERR
    echo "http://127.0.0.1:$port/"
    ;;
*)
    sed -n '5,14p' "$0" >&2; exit 64 ;;
esac
