#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.
"""Attacks on `kf serve` on loopback, measured (issue 27's numbers; by hand, not in CI).

Usage: serve_attack.py KF [conns|post|abandon|all]

- conns: 20,000 idle connections opened by two client processes (10,000 each, under a 20,000
  descriptor limit), /healthz probed every 50 ms meanwhile; RSS idle, at the peak, after.
- post: one POST flooder (how far its body gets), then uncached latency for 20 s quiet and for
  20 s under 6 POST flooders (a separate process, so they share no GIL with the client),
  client-side and server-side (the access log's ms=). SERVE_PIN and FLOOD_PIN pin with taskset.
- abandon: resize(7061x7061,none).png of a 47 KB PNG with --processing-timeout 1.

Sources come from an in-process http.server over Tests/Fixtures, trusted as a private source,
so fetches go through the service's egress check.
"""
import os, sys, time, socket, subprocess, threading, resource, statistics, http.server, functools, urllib.request, base64, random
KF = sys.argv[1]; MODE = sys.argv[2] if len(sys.argv) > 2 else "all"
soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
try:
    resource.setrlimit(resource.RLIMIT_NOFILE, (65536, 65536))
except Exception:
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
fixtures = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "Tests", "Fixtures")

def free_port():
    s = socket.socket(); s.bind(("127.0.0.1", 0)); p = s.getsockname()[1]; s.close(); return p

class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *a): pass
origin_port = free_port()
origin = http.server.ThreadingHTTPServer(("127.0.0.1", origin_port), functools.partial(Quiet, directory=fixtures))
threading.Thread(target=origin.serve_forever, daemon=True).start()

def start(extra=()):
    port = free_port()
    pin = os.environ.get("SERVE_PIN")
    d = f"/tmp/attack-cache-{port}"
    p = subprocess.Popen((["taskset", "-c", pin] if pin else []) + [KF, "serve", "--port", str(port), "--allow-unsigned", "--trusted-private-source", f"http://127.0.0.1:{origin_port}/", "--directory", d, *extra],
                         stdout=subprocess.DEVNULL, stderr=open(f"/tmp/attack-serve-{port}.log", "w"))
    for _ in range(200):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1).read(); return p, port
        except Exception: time.sleep(0.05)
    raise SystemExit("did not start")

def rss(pid):
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("VmRSS"): return int(line.split()[1]) / 1024

def path(src, spec, ext="jpg"):
    b = base64.urlsafe_b64encode(src.encode()).decode().rstrip("=")
    return f"/unsafe/{urllib.parse.quote(spec, safe='(),')}/{b}.{ext}"
import urllib.parse

def get(port, p, timeout=60):
    t = time.perf_counter()
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{p}", timeout=timeout) as r: r.read(); code = r.status
    return time.perf_counter() - t, code

def healthz_latency(port):
    t = time.perf_counter()
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=30).read(); return time.perf_counter() - t
    except Exception as e: return float("inf")

if MODE in ("all", "conns"):
    p, port = start()
    idle = rss(p.pid)
    lat = []; stop = threading.Event()
    def probe():
        while not stop.is_set():
            lat.append(healthz_latency(port)); time.sleep(0.05)
    th = threading.Thread(target=probe); th.start()
    holder = """
import socket, sys
socks = []; failed = 0
for i in range(int(sys.argv[2])):
    try:
        s = socket.socket(); s.settimeout(2); s.connect(("127.0.0.1", int(sys.argv[1]))); socks.append(s)
    except Exception: failed += 1
print(failed, flush=True)
sys.stdin.read()
"""
    t0 = time.time()
    holders = [subprocess.Popen([sys.executable, "-c", holder, str(port), "10000"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True) for _ in range(2)]
    failed = sum(int(h.stdout.readline()) for h in holders)
    t1 = time.time()
    time.sleep(2)
    stop.set(); th.join()
    peak = rss(p.pid)
    for h in holders: h.stdin.close(); h.wait()
    time.sleep(3)
    after = rss(p.pid)
    m = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
    closed = [l for l in m.splitlines() if l.startswith("kf_connections_closed_idle_total") or l.startswith("kf_memory_releases_total")]
    lat_ms = sorted(x * 1000 for x in lat)
    print("CONNS over 50 ms:", [round(x) for x in lat_ms if x > 50], "p99", lat_ms[int(len(lat_ms)*0.99)])
    print(f"CONNS: 20000 attempted in {t1-t0:.1f}s ({failed} failed); healthz probes {len(lat_ms)}: median {statistics.median(lat_ms):.1f} ms, max {lat_ms[-1]:.1f} ms; RSS idle {idle:.0f} MB, at 20000 {peak:.0f} MB, 3 s after closing {after:.0f} MB; {closed}")
    p.terminate(); p.wait()

def flooder(port, stop, counter):
    while not stop.is_set():
        try:
            s = socket.create_connection(("127.0.0.1", port)); s.settimeout(5)
            s.sendall(b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\n")
            chunk = b"x" * 65536
            while not stop.is_set():
                s.sendall(chunk); counter[0] += len(chunk)
        except Exception: pass
        finally:
            try: s.close()
            except Exception: pass

if MODE in ("all", "post"):
    p, port = start()
    # One flood: how far it gets.
    s = socket.create_connection(("127.0.0.1", port)); s.settimeout(10)
    s.sendall(b"POST /x HTTP/1.1\r\nHost: a\r\nContent-Length: 10000000000\r\n\r\n")
    sent = 0; t = time.time()
    try:
        while time.time() - t < 10:
            s.sendall(b"x" * 65536); sent += 65536
    except Exception as e: err = type(e).__name__
    else: err = "none"
    print(f"POST: one flooder cut after {sent/1e6:.1f} MB ({err}) in {time.time()-t:.2f} s")
    s.close()
    # Latency of uncached requests: quiet, then under 6 flooders.
    src = f"http://127.0.0.1:{origin_port}/photo_baseline_420.jpg"
    def run(n, offset):
        ts = []
        for i in range(n):
            dt, code = get(port, path(src, f"resize({40+offset+i}x{30+offset+i},none)")); assert code == 200; ts.append(dt)
        return ts
    run(20, 300)  # warm
    def timed(seconds, offset):
        ts = []; t = time.time(); i = 0
        while time.time() - t < seconds:
            dt, code = get(port, path(src, f"resize({40+(i % 400)}x{30+offset+(i // 400)},none)")); ts.append(dt); i += 1
        return ts
    quiet = timed(20, 0)
    quiet_port = port
    p.terminate(); p.wait(); p, port = start()
    flood_script = "import sys, threading, time\n" + "def flooder" + open(__file__).read().split("def flooder")[1].split('if MODE in ("all", "post"):')[0] + """
import socket
stop = threading.Event(); counter = [0]
ths = [threading.Thread(target=flooder, args=(int(sys.argv[1]), stop, counter)) for _ in range(6)]
for th in ths: th.start()
print("started", flush=True)
sys.stdin.read(); stop.set()
for th in ths: th.join()
print(counter[0], flush=True)
"""
    pin = os.environ.get("FLOOD_PIN")
    flood = subprocess.Popen((["taskset", "-c", pin] if pin else []) + [sys.executable, "-c", flood_script, str(port)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    flood.stdout.readline()
    loud = timed(20, 0)
    flood.stdin.close(); counter = [int(flood.stdout.readline())]; flood.wait()
    q = statistics.mean(quiet) * 1000; l = statistics.mean(loud) * 1000
    def served_ms(port):
        import re
        return [float(m.group(1)) for line in open(f"/tmp/attack-serve-{port}.log") if " GET /unsafe/" in line for m in [re.search(r"ms=([0-9.]+)", line)] if m]
    sq = served_ms(quiet_port); sl = served_ms(port)
    print(f"POST: server-side (access log ms=) quiet {statistics.mean(sq):.2f} ms mean, median {statistics.median(sq):.2f}; under flood {statistics.mean(sl):.2f} ms mean, median {statistics.median(sl):.2f}; ratio {statistics.mean(sl)/statistics.mean(sq):.3f}")
    print(f"POST: uncached latency quiet {q:.2f} ms mean ({len(quiet)} requests, median {statistics.median(quiet)*1000:.2f}), under 6 flooders {l:.2f} ms mean ({len(loud)} requests, median {statistics.median(loud)*1000:.2f}); ratio {l/q:.3f}; flooders pushed {counter[0]/1e6:.0f} MB in 20 s")
    p.terminate(); p.wait()

if MODE in ("all", "abandon"):
    p, port = start(("--processing-timeout", "1"))
    src = f"http://127.0.0.1:{origin_port}/photo.png"
    t = time.perf_counter()
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}{path(src, 'resize(7061x7061,none)', 'png')}", timeout=60).read()
        code = 200
    except urllib.error.HTTPError as e: code = e.code
    print(f"ABANDON: resize(7061x7061,none).png with --processing-timeout 1: {code} in {time.perf_counter()-t:.2f} s")
    t = time.perf_counter(); dt, code = get(port, path(f"http://127.0.0.1:{origin_port}/photo_baseline_420.jpg", "resize(20x20,none)"))
    print(f"ABANDON: the next request: {code} in {dt*1000:.0f} ms; peak RSS {rss(p.pid):.0f} MB")
    p.terminate(); p.wait()
