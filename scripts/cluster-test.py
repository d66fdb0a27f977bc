#!/usr/bin/env python3
"""The multi-node deployment, tested for real: redis-server, three `kf serve` processes and nginx
from deploy/cluster.sh, against a counting origin on loopback.

Usage: python3 scripts/cluster-test.py KF_BINARY

1. Thirty concurrent requests for one new source, ten to each node, make one source request.
2. Three new nodes (empty local caches) on the same Redis answer it with no source request.
3. With Redis stopped, every request still succeeds.
4. With a node killed, nginx still answers every request.
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
FIXTURE = os.path.join(REPO, "Tests", "KingfisherTests", "Fixtures", "photo_baseline_420.jpg")


class Origin(http.server.ThreadingHTTPServer):
    """Answers any path with the fixture JPEG after a short delay, counting requests by path."""
    daemon_threads = True

    def __init__(self):
        self.counts, self.lock = {}, threading.Lock()
        with open(FIXTURE, "rb") as f:
            self.body = f.read()
        super().__init__(("127.0.0.1", 0), OriginHandler)

    def count(self, path):
        with self.lock:
            return self.counts.get(path, 0)


class OriginHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        with self.server.lock:
            self.server.counts[self.path] = self.server.counts.get(self.path, 0) + 1
        time.sleep(0.3)  # so that concurrent requests overlap the first one's fetch
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


def fetch_all(requests):
    """(port, path) pairs fetched all at once; their (status, body) in order."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=len(requests)) as pool:
        return list(pool.map(lambda request: get(*request), requests))


def check(condition, what):
    if not condition:
        sys.exit(f"cluster-test: FAILED: {what}")
    print(f"cluster-test: ok: {what}", flush=True)


def cluster_env(work):
    values = {}
    with open(os.path.join(work, "cluster.env")) as f:
        for line in f:
            for word in line.replace('"', "").split():
                if "=" in word:
                    key, value = word.split("=", 1)
                    values[key] = value
                elif values:
                    values[list(values)[-1]] += " " + word
    return values


def running_cluster(work):
    """nginx's port, the nodes' ports and everything cluster.env says of the cluster in `work`."""
    env = cluster_env(work)
    return int(env["NGINX_PORT"]), [int(port) for port in env["NODE_PORTS"].split()], env


def start_cluster(kf, work, redis_port=None):
    command = [CLUSTER, "start", work, "--kf", kf] + (["--redis-port", str(redis_port)] if redis_port else [])
    subprocess.run(command + ["--", "--allow-unsigned", "--allow-private-networks"], check=True,
                   stdout=subprocess.DEVNULL)
    return running_cluster(work)


def stop_cluster(work):
    subprocess.run([CLUSTER, "stop", work], stdout=subprocess.DEVNULL)


def redis_level(port):
    text = get(port, "/metrics")[1].decode()
    for line in text.splitlines():
        if line.startswith('kf_results_total{level="redis"}'):
            return float(line.split()[-1])
    return 0


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

        # Three new nodes on the same Redis (which the first cluster started and owns), with
        # empty caches of their own.
        _, new_nodes, _ = start_cluster(kf, second, redis_port=redis_port)
        answers = fetch_all([(port, image_path(source)) for port in new_nodes for _ in range(2)])
        check(all(status == 200 for status, _ in answers), "new nodes answered 200")
        check(origin.count("/photo-1.jpg") == 1, "new nodes made no source request")
        check(all(redis_level(port) >= 1 for port in new_nodes), "each new node had the result from Redis")

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
