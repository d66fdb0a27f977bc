#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""The multi-node deployment, tested for real: redis-server, three `kf serve` processes and nginx
from deploy/cluster.sh, against a counting origin on loopback.

Usage: python3 scripts/cluster-test.py KF_BINARY

1. Thirty concurrent requests for one new source, ten to each node, make one source request.
2. Three processings of one new source, one on each node at once, make one source request.
3. Three new nodes (empty local caches) on the same Redis answer the first with no source request.
   A purge of that source on one node reaches all six: each drops what it kept, and the next
   requests to all six make one new source request.
4. With Redis paused (slow) and then flushed, every request still succeeds, and each node logs
   one line for each change between Redis down and up.
5. A node killed while it holds a lease delays another asking for the same image by no more
   than the lease.
6. With Redis stopped, every request still succeeds.
7. With a node killed, nginx still answers every request.
Exits 1 naming the first check that failed.
"""

import base64
import concurrent.futures
import http.server
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
CLUSTER = os.path.join(REPO, "deploy", "cluster.sh")
FIXTURE = os.path.join(REPO, "Tests", "Fixtures", "photo_baseline_420.jpg")
sys.path.insert(0, os.path.join(REPO, "deploy"))
import cluster_env  # noqa: E402


LEASE_SECONDS = 5  # kf serve's default --lease-seconds


class Origin(http.server.ThreadingHTTPServer):
    """Answers any path with the fixture JPEG after a short delay (the first request for a path
    starting /hold waits 20 s), counting requests by path."""
    daemon_threads = True

    def __init__(self):
        self.counts, self.lock = {}, threading.Lock()
        with open(FIXTURE, "rb") as f:
            self.body = f.read()
        super().__init__(("127.0.0.1", 0), OriginHandler)

    def count(self, path):
        with self.lock:
            return self.counts.get(path, 0)

    def handle_error(self, request, client_address):
        pass  # a client that went away (a killed node) is part of the test


class OriginHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with self.server.lock:
            count = self.server.counts[self.path] = self.server.counts.get(self.path, 0) + 1
        # So that concurrent requests overlap the first one's fetch; long for a node to die in.
        time.sleep(20 if self.path.startswith("/hold") and count == 1 else 0.3)
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(self.server.body)))
        self.end_headers()
        self.wfile.write(self.server.body)

    def log_message(self, *args):
        pass


def image_path(source, processing="resize(40x40,fill)"):
    encoded = base64.urlsafe_b64encode(source.encode()).decode().rstrip("=")
    return f"/unsafe/{urllib.request.quote(processing, safe='')}/{encoded}.png"


def get(port, path):
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def get_timed(port, path):
    """(status, seconds taken); status 0 when the connection failed."""
    start = time.monotonic()
    try:
        status = get(port, path)[0]
    except OSError:
        status = 0
    return status, time.monotonic() - start


def fetch_all(requests):
    """(port, path) pairs fetched all at once; their (status, body) in order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(requests)) as pool:
        return list(pool.map(lambda request: get(*request), requests))


def check(condition, what):
    if not condition:
        sys.exit(f"cluster-test: FAILED: {what}")
    print(f"cluster-test: ok: {what}", flush=True)


def running_cluster(work):
    """nginx's port, the nodes' ports and everything cluster.env says of the cluster in `work`."""
    env = cluster_env.read(work)
    return int(env["NGINX_PORT"]), [int(port) for port in env["NODE_PORTS"].split()], env


def start_cluster(kf, work, redis_port=None):
    command = [CLUSTER, "start", work, "--kf", kf] + (["--redis-port", str(redis_port)] if redis_port else [])
    subprocess.run(command + ["--", "--allow-unsigned", "--allow-private-networks"], check=True,
                   stdout=subprocess.DEVNULL)
    return running_cluster(work)


def stop_cluster(work):
    subprocess.run([CLUSTER, "stop", work], stdout=subprocess.DEVNULL)


def metric(port, series):
    """The value of one series of the node's /metrics (0 when absent)."""
    text = get(port, "/metrics")[1].decode()
    for line in text.splitlines():
        if line.startswith(series + " "):
            return float(line.split()[-1])
    return 0


def redis_level(port):
    return metric(port, 'kf_results_total{level="redis"}')


def purge_path(source):
    encoded = base64.urlsafe_b64encode(source.encode()).decode().rstrip("=")
    return f"/purge/unsafe/-/{encoded}"


def delete(port, path):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method="DELETE")
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def heard_purges(port):
    return metric(port, 'kf_purges_total{origin="broadcast"}')


def check_purge(nodes, source, origin):
    """A purge on the first of `nodes` reaches the others; then one source request for all."""
    status, body = delete(nodes[0], purge_path(source))
    check(status == 200 and b"every node was told" in body, f"a purge on one node answered 200 ({status} {body!r})")
    # The other nodes hear it through Redis Pub/Sub, within moments.
    deadline = time.monotonic() + 30
    while not all(heard_purges(port) >= 1 for port in nodes[1:]) and time.monotonic() < deadline:
        time.sleep(0.05)
    check(all(heard_purges(port) >= 1 for port in nodes[1:]), "every other node heard the purge")
    before = origin.count("/photo-1.jpg")
    answers = fetch_all([(port, image_path(source)) for port in nodes])
    check(all(status == 200 for status, _ in answers), "after the purge every node answered 200")
    check(origin.count("/photo-1.jpg") == before + 1,
          f"after the purge the {len(nodes)} nodes made one new source request (made {origin.count('/photo-1.jpg') - before})")


def redis_cli(port, *words):
    subprocess.run(["redis-cli", "-p", str(port)] + list(words), check=True, stdout=subprocess.DEVNULL)


def state_lines(work, count):
    """Each node's Redis state-change log lines, as "down"/"up" in order."""
    lines = []
    for index in range(1, count + 1):
        with open(os.path.join(work, f"node{index}.log")) as f:
            lines.append(["down" if "carrying on without it" in line else "up"
                          for line in f if "carrying on without it" in line or "answers again after" in line])
    return lines


def check_faults(nodes, source, origin, redis_port, work, env):
    # Slow: every command waits while Redis is paused; the nodes give up on it within their
    # command timeout and answer from their own work.
    redis_cli(redis_port, "client", "pause", "3000", "all")
    start = time.monotonic()
    answers = fetch_all([(port, image_path(f"{source}?redis-slow-{index}")) for index, port in enumerate(nodes)])
    check(all(status == 200 for status, _ in answers),
          f"with Redis paused, all answered 200 in {time.monotonic() - start:.1f} s ({[s for s, _ in answers]})")
    time.sleep(3.5)
    answers = fetch_all([(port, image_path(f"{source}?redis-back-{index}")) for index, port in enumerate(nodes)])
    check(all(status == 200 for status, _ in answers), "after the pause, all answered 200")
    lines = state_lines(work, len(nodes))
    check(all(node and node[-1] == "up" and all(a != b for a, b in zip(node, node[1:])) for node in lines),
          f"each node logged one line per change between down and up, ending up ({lines})")

    redis_cli(redis_port, "flushall")
    answers = fetch_all([(port, image_path(source, processing)) for port in nodes for processing in ["resize(40x40,fill)", "crop(50x50)"]])
    check(all(status == 200 for status, _ in answers), f"with Redis flushed, all answered 200 ({[s for s, _ in answers]})")

    # Killed holding the leases of a result and of its original: the origin holds the first
    # fetch for 20 s, so the node dies with both held.
    held = f"http://127.0.0.1:{origin.server_address[1]}/hold.jpg"
    threading.Thread(target=get_timed, args=(nodes[0], image_path(held)), daemon=True).start()
    for _ in range(200):
        if origin.count("/hold.jpg"):
            break
        time.sleep(0.05)
    os.kill(int(env["NODE_PIDS"].split()[0]), 9)
    status, seconds = get_timed(nodes[1], image_path(held))
    check(status == 200 and origin.count("/hold.jpg") == 2 and seconds < LEASE_SECONDS + 4,
          f"a node killed holding the leases delayed another by {seconds:.1f} s: at most the {LEASE_SECONDS} s lease "
          f"and then the work (status {status}, {origin.count('/hold.jpg')} source requests)")


def main():
    kf = os.path.abspath(sys.argv[1])
    origin = Origin()
    threading.Thread(target=origin.serve_forever, daemon=True).start()
    source = f"http://127.0.0.1:{origin.server_address[1]}/photo-1.jpg"
    root = tempfile.mkdtemp(prefix="kf-cluster-")
    first, second = os.path.join(root, "first"), os.path.join(root, "second")
    try:
        _, nodes, env = start_cluster(kf, first)
        redis_port = int(env["REDIS_PORT"])
        answers = fetch_all([(port, image_path(source)) for port in nodes for _ in range(10)])
        check(all(status == 200 for status, _ in answers) and len({body for _, body in answers}) == 1,
              "30 concurrent requests over 3 nodes all answered 200 with the same image")
        check(origin.count("/photo-1.jpg") == 1, f"they made one source request (made {origin.count('/photo-1.jpg')})")

        processings = ["resize(40x40,fill)", "blur(2)", "resize(20x20)"]
        answers = fetch_all([(port, image_path(f"{source}?processings", processing)) for port, processing in zip(nodes, processings)])
        check(all(status == 200 for status, _ in answers), "3 processings of a new source over 3 nodes answered 200")
        check(origin.count("/photo-1.jpg?processings") == 1,
              f"they made one source request (made {origin.count('/photo-1.jpg?processings')})")

        # Three new nodes on the same Redis (which the first cluster started and owns), with
        # empty caches of their own.
        _, new_nodes, _ = start_cluster(kf, second, redis_port=redis_port)
        answers = fetch_all([(port, image_path(source)) for port in new_nodes for _ in range(2)])
        check(all(status == 200 for status, _ in answers), "new nodes answered 200")
        check(origin.count("/photo-1.jpg") == 1, "new nodes made no source request")
        check(all(redis_level(port) >= 1 for port in new_nodes), "each new node had the result from Redis")
        check_purge(new_nodes + nodes, source, origin)

        check_faults(nodes, source, origin, redis_port, first, env)

        subprocess.run(["redis-cli", "-p", str(redis_port), "shutdown", "nosave"], stdout=subprocess.DEVNULL)
        answers = fetch_all([(port, image_path(f"{source}?redis-down-{index}")) for index, port in enumerate(new_nodes * 3)])
        check(all(status == 200 for status, _ in answers), f"with Redis stopped, all answered 200 ({[s for s, _ in answers]})")

        nginx_port, _, second_env = running_cluster(second)
        os.kill(int(second_env["NODE_PIDS"].split()[0]), 9)
        answers = [get(nginx_port, image_path(f"{source}?node-down-{index}", "resize(20x20)")) for index in range(20)]
        check(all(status == 200 for status, _ in answers), f"with a node killed, nginx answered all 20 ({[s for s, _ in answers]})")
    finally:
        stop_cluster(second)
        stop_cluster(first)
        origin.shutdown()
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
