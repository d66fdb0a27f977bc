#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""`kf serve` as a cluster: requests/s through nginx with 1 and with 3 nodes sharing Redis
(deploy/cluster.sh), uncached and cached, and what a hit in the shared Redis level adds over a
local disk hit (`kf-bench tier`).

Usage: python3 Benchmarks/serve_cluster.py BIN_DIR WORK_DIR [--duration S] [--warmup S]

BIN_DIR holds kf and kf-bench. Run alone it prints the rows; Benchmarks/run_benchmarks.py puts
them in BENCHMARKS.md. The origin, the sources, wrk and its Lua script are serve_vs_thumbor.py's:
every request of the uncached rows has a new source URL (the 1200x800 JPEG resized to fill
300x200), the cached rows repeat one URL fetched before. Everything shares this machine's CPUs:
nginx, wrk, redis-server and every node.
"""

import argparse
import os
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import serve_vs_thumbor as svt  # noqa: E402
sys.path.insert(0, os.path.join(REPO, "deploy"))
import cluster_env  # noqa: E402

CLUSTER = os.path.join(REPO, "deploy", "cluster.sh")


def cluster_ports(work):
    values = cluster_env.read(work)
    return int(values["NGINX_PORT"]), int(values["REDIS_PORT"])


def measure_nodes(run, kf, nodes, duration):
    """Uncached and cached wrk figures through nginx in front of `nodes` nodes."""
    work = run.fresh_directory(f"cluster-{nodes}")
    subprocess.run([CLUSTER, "start", work, "--nodes", str(nodes), "--kf", kf, "--",
                    "--allow-unsigned", "--allow-private-networks"], check=True, stdout=subprocess.DEVNULL)
    try:
        port, redis_port = cluster_ports(work)
        prefix = svt.kf_path_prefix(kf)
        fixed = run.kf_path(prefix, run.source_prefix("small", run.unique("fixed")) + "0.jpg")
        svt.check_result(f"http://127.0.0.1:{port}{fixed}", f"{nodes}-node cluster")
        figures = {}
        for scenario, args in [("uncached", lambda tag: run.load_args("kf", prefix, "small", False, None, tag)),
                               ("cached", lambda tag: ["fixed", fixed])]:
            run.wrk(port, args(run.unique("warm")), run.warmup)
            figures[scenario] = run.wrk(port, args(run.unique("run")), duration)
        result = os.path.join(run.work, "cluster-result.jpg")
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{fixed}") as response, open(result, "wb") as f:
            f.write(response.read())
        return figures, redis_port, result
    finally:
        subprocess.run([CLUSTER, "stop", work], stdout=subprocess.DEVNULL)


def measure_tier(bench, result):
    """`kf-bench tier` against a redis-server of its own."""
    port = svt.free_port()
    redis = subprocess.Popen(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):
            if subprocess.run(["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True).stdout.strip() == "PONG":
                break
            time.sleep(0.05)
        output = subprocess.run([bench, "tier", result, str(port)], check=True, capture_output=True, text=True).stdout
        return {key: float(value) for key, value in (line.split("=", 1) for line in output.split())}
    finally:
        subprocess.run(["redis-cli", "-p", str(port), "shutdown", "nosave"], capture_output=True)
        redis.wait(timeout=10)


def measure(bin_dir, work, duration=10, warmup=2):
    os.makedirs(work, exist_ok=True)
    cpus = f"0-{os.cpu_count() - 1}"
    run = svt.Run(bin_dir, work, None, warmup, cpus, cpus)
    small, large = svt.make_sources(work)
    run.start_origin(small, large)
    try:
        kf = os.path.join(bin_dir, "kf")
        one, _, _ = measure_nodes(run, kf, 1, duration)
        three, _, result = measure_nodes(run, kf, 3, duration)
        tier = measure_tier(os.path.join(bin_dir, "kf-bench"), result)
    finally:
        svt.stop(run.origin)
        run.clean_up()
    return {"one": one, "three": three, "tier": tier, "duration": duration}


def rows(figures):
    """BENCHMARKS.md rows: (scenario, ours, peer, peer's, ratio, target)."""
    out = []
    for scenario, title in [("uncached", "every request a new source URL"), ("cached", "one URL repeated")]:
        one, three = figures["one"][scenario], figures["three"][scenario]
        out.append((f"kf serve cluster through nginx, 1200x800 JPEG → fill 300x200, {title}: 3 nodes",
                    f"{three['rps']:.0f} req/s (p99 {three['p99_us'] / 1000:.1f} ms)", "1 node",
                    f"{one['rps']:.0f} req/s (p99 {one['p99_us'] / 1000:.1f} ms)", f"{three['rps'] / one['rps']:.2f}", "—"))
    tier = figures["tier"]
    out.append((f"a hit in the shared Redis level against a local disk hit ({tier['tier_value_bytes']:.0f}-byte result, median)",
                f"{tier['redis_hit_us']:.0f} µs (p99 {tier['redis_hit_p99_us']:.0f} µs)", "disk hit",
                f"{tier['disk_hit_us']:.0f} µs", f"+{tier['redis_added_us']:.0f} µs", "—"))
    return out


def paragraph(figures):
    return [f"Cluster rows (`Benchmarks/serve_cluster.py`): `deploy/cluster.sh` starts redis-server, the nodes (`kf serve --redis`) "
            f"and nginx (consistent hash of the URI) on this machine's {os.cpu_count()} CPUs, shared with wrk and the origin; "
            f"wrk `-c 8 -t 2`, {figures['duration']} s after a warm-up. With one machine's cores, more nodes add no CPU: the rows "
            "show what the tier and nginx cost, not how a cluster of machines scales. The Redis row reads the same value by key "
            "from a DiskStorage and from a RedisStorage on loopback, one read at a time (`kf-bench tier`)."]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bin")
    parser.add_argument("work")
    parser.add_argument("--duration", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=2)
    args = parser.parse_args()
    figures = measure(args.bin, args.work, args.duration, args.warmup)
    svt.print_report(rows(figures), paragraph(figures))


if __name__ == "__main__":
    main()
