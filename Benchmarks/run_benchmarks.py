#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Runs every benchmark scenario, peers in the same run, and writes the Markdown report.

Called by Benchmarks/run.sh after it has built kf, kf-bench and bare_decode and generated
the inputs (WORK/photo_4000x3000.{jpg,png,webp}). Writes WORK/photo_1000x1000.png (centre crop of
the PNG) for the blur scenario, so kf-bench and Pillow read the same file, and (through
serve_vs_thumbor.py) WORK/photo_1200x800.jpg for the `kf serve` against thumbor rows.
"""

import argparse
import datetime
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time

import PIL
from PIL import Image

import resize_quality
import serve_cluster
import serve_vs_thumbor


def hyperfine(commands, work, runs=20, prepare=None, warmup=3):
    """Mean and standard deviation in ms of each command, measured together; `prepare` runs
    before each timing run (through a shell)."""
    out = os.path.join(work, "hyperfine.json")
    extra = ["--prepare", prepare] if prepare else []
    subprocess.run(["hyperfine", "-N", "--warmup", str(warmup), "--runs", str(runs), "--export-json", out, *extra, *commands],
                   check=True, stdout=subprocess.DEVNULL)
    with open(out) as f:
        results = json.load(f)["results"]
    return [(r["mean"] * 1000, r["stddev"] * 1000) for r in results]


def per_iteration_ms(command, label, attempts=3):
    """Best of `attempts` runs of a command that prints `<label>_ms_per_iter=<ms>`."""
    best = None
    for _ in range(attempts):
        output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
        for line in output.splitlines():
            if line.startswith(label + "_ms_per_iter="):
                value = float(line.split("=", 1)[1])
                best = value if best is None else min(best, value)
    if best is None:
        sys.exit(f"no {label}_ms_per_iter line from {command}")
    return best


def download_figures(work, here, bench, kf):
    """Times 1000 downloads from a local nginx: kf-bench against curl's parallel mode."""
    files = os.path.join(work, "download-set")
    subprocess.run([sys.executable, os.path.join(here, "make_download_set.py"), os.path.join(work, "photo_4000x3000.png"),
                    files, "1000"], check=True, stdout=subprocess.DEVNULL)
    os.chmod(work, 0o755)  # nginx workers run as an unprivileged user and must read the files
    port = 18000 + os.getpid() % 1000
    nginx_dir = os.path.join(work, "nginx")
    os.makedirs(nginx_dir, exist_ok=True)
    with open(os.path.join(here, "nginx.conf.template")) as f:
        config = f.read().replace("WORK", nginx_dir).replace("ROOT", files).replace("PORT", str(port))
    config_path = os.path.join(nginx_dir, "nginx.conf")
    with open(config_path, "w") as f:
        f.write(config)
    names = sorted(os.listdir(files))
    urls = os.path.join(work, "urls.txt")
    with open(urls, "w") as f:
        f.write("".join(f"http://127.0.0.1:{port}/{name}\n" for name in names))
    curl_config = os.path.join(work, "curl.cfg")
    with open(curl_config, "w") as f:
        f.write("".join(f'url = "http://127.0.0.1:{port}/{name}"\noutput = "/dev/null"\n' for name in names))
    server = subprocess.Popen(["nginx", "-c", config_path], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        import urllib.request
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/{names[0]}").read()
                break
            except OSError:
                time.sleep(0.05)
        (ours, _), (ours_decode, _), (curl, _) = hyperfine([
            f"{bench} download {urls}",
            f"{bench} download {urls} --decode",
            f"curl -s --parallel --parallel-max 8 -K {curl_config}",
        ], work, runs=15)
        # Download time inside the process (no start-up), for kf-bench and for AsyncHTTPClient
        # alone, interleaved with curl's whole process so that all three see the same machine:
        # medians of 15 rounds.
        def seconds_ms(command):
            output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
            return float(output.split("seconds=")[1]) * 1000
        in_process, raw_client, curl_rounds = [], [], []
        for _ in range(15):
            in_process.append(seconds_ms([bench, "download", urls]))
            raw_client.append(seconds_ms([bench, "ahc", urls]))
            start = time.perf_counter()
            subprocess.run(["curl", "-s", "--parallel", "--parallel-max", "8", "-K", curl_config], check=True)
            curl_rounds.append((time.perf_counter() - start) * 1000)
        pipeline = prefetch_pipeline_figures(work, here, kf, urls, names, port)
        revalidation = key_value_figures([bench, "revalidate", f"http://127.0.0.1:{port}/revalidate/{names[0]}"])
    finally:
        server.terminate()
        server.wait()
    return {"ours": ours, "ours_decode": ours_decode, "curl": curl, "in_process": statistics.median(in_process),
            "raw_client": statistics.median(raw_client), "curl_interleaved": statistics.median(curl_rounds), **pipeline,
            "revalidation": revalidation}


def prefetch_pipeline_figures(work, here, kf, urls, names, port):
    """Download, decode, thumbnail to 200 px and save, 8 at a time: `kf prefetch` (into a fresh
    cache each run) against Python requests + Pillow in a thread pool; then kf's time per image
    for 1k and 10k distinct URLs."""
    ours_dir, python_dir = os.path.join(work, "prefetch-kf"), os.path.join(work, "prefetch-py")
    (ours, _), (python, _) = hyperfine([
        f"{kf} prefetch --input {urls} --concurrency 8 --processor downsample(200x200) --directory {ours_dir}",
        f"{sys.executable} {here}/python_prefetch.py {urls} {python_dir} --threads 8 --size 200",
    ], work, runs=5, warmup=1, prepare=f"rm -rf {ours_dir} {python_dir}")
    many = os.path.join(work, "urls-10k.txt")
    with open(many, "w") as f:
        f.write("".join(f"http://127.0.0.1:{port}/{name}?copy={copy}\n" for copy in range(10) for name in names))
    # The 1k figure is the hyperfine mean above; the 10k list runs twice, the better run counts.
    per_item_10k = None
    for _ in range(2):
        subprocess.run(["rm", "-rf", ours_dir], check=True)
        start = time.perf_counter()
        subprocess.run([kf, "prefetch", "--input", many, "--concurrency", "8", "--processor", "downsample(200x200)",
                        "--directory", ours_dir], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        elapsed = (time.perf_counter() - start) * 1000 / (10 * len(names))
        per_item_10k = elapsed if per_item_10k is None else min(per_item_10k, elapsed)
    return {"pipeline": ours, "pipeline_python": python, "per_item_1k": ours / len(names), "per_item_10k": per_item_10k}


def key_value_figures(command):
    """The key=value lines a kf-bench mode prints (cache, progressive), as numbers."""
    output = subprocess.run(command, check=True, capture_output=True, text=True).stdout
    return {key: float(value) for key, value in (line.split("=", 1) for line in output.splitlines() if "=" in line)}


def peak_rss_mb(command):
    """Peak resident memory of one run of `command`, in MB, measured in a fresh child."""
    probe = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL); "
             "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    kb = int(subprocess.run([sys.executable, "-c", probe, *command], check=True, capture_output=True, text=True).stdout)
    return kb / 1024


def center_crop_png(source, destination, width, height):
    """Writes the centre width x height crop of `source` to `destination` (PNG, lossless)."""
    with Image.open(source) as im:
        x0, y0 = (im.width - width) // 2, (im.height - height) // 2
        im.crop((x0, y0, x0 + width, y0 + height)).save(destination, compress_level=1)


def source_commit():
    """The commit measured, marked when the work tree has uncommitted changes (other than the
    report itself, which the previous run rewrote)."""
    run = lambda *args: subprocess.run(["git", *args], capture_output=True, text=True).stdout.strip()
    commit = run("rev-parse", "--short", "HEAD") or "unknown"
    changed = run("status", "--porcelain", "--untracked-files=no", "--", ".", ":(exclude)BENCHMARKS.md")
    return commit + (" (with uncommitted changes)" if changed else "")


def tool_version(command):
    try:
        return subprocess.run(command, capture_output=True, text=True).stdout.strip().splitlines()[0]
    except (OSError, IndexError):
        return "unknown"


def cpu_model():
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", required=True)
    parser.add_argument("--bare", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--thumbor", help="thumbor's executable (default: .build/thumbor-venv, then PATH)")
    args = parser.parse_args()
    kf = os.path.join(args.bin, "kf")
    bench = os.path.join(args.bin, "kf-bench")
    jpeg = os.path.join(args.work, "photo_4000x3000.jpg")
    png = os.path.join(args.work, "photo_4000x3000.png")
    png_1000 = os.path.join(args.work, "photo_1000x1000.png")
    center_crop_png(png, png_1000, 1000, 1000)
    here = os.path.dirname(os.path.abspath(__file__))

    rows = []

    def row(scenario, ours, peer, peer_value, target, unit="ms", note=""):
        ratio = ours / peer_value
        verdict = "" if target is None else (" ✓" if ratio <= target else " ✗")
        rows.append((scenario, f"{ours:.1f} {unit}", peer, f"{peer_value:.1f} {unit}", f"{ratio:.2f}{verdict}",
                     "—" if target is None else f"≤ {target}{note}"))
        print(f"{scenario}: ours {ours:.1f} {unit}, {peer} {peer_value:.1f} {unit}, ratio {ratio:.2f}", flush=True)

    inputs = {"JPEG": jpeg, "PNG": png, "WebP": os.path.join(args.work, "photo_4000x3000.webp")}
    whole_sd = {}
    for name, path in inputs.items():
        print(f"Thumbnail {name}, whole process (hyperfine)...", flush=True)
        (ours, ours_sd), (vips, vips_sd), (pillow, pillow_sd) = hyperfine([
            f"{kf} process {path} --processor downsample(400x400) --output {args.work}/kf.jpg",
            f"vipsthumbnail {path} -s 400 -o {args.work}/vips.jpg",
            f"{sys.executable} {here}/pillow_thumbnail.py {path} {args.work}/pillow.jpg",
        ], args.work)
        whole_sd[name] = (ours_sd, vips_sd, pillow_sd)
        row(f"thumbnail 4000x3000 {name} → 400 px, whole process", ours, "vipsthumbnail", vips, 0.7)
        row(f"thumbnail 4000x3000 {name} → 400 px, whole process", ours, "Pillow (draft + thumbnail)", pillow, 0.3)

        print(f"Thumbnail {name}, in process...", flush=True)
        loop = [sys.executable, os.path.join(here, "peer_thumbnail_loop.py")]
        iterations = "20" if name != "PNG" else "5"
        ours_in = per_iteration_ms([bench, "thumbnail", path, "400", "--iterations", iterations], "thumbnail")
        pyvips_in = per_iteration_ms([*loop, "pyvips", path, "400", "--iterations", iterations], "thumbnail")
        pillow_in = per_iteration_ms([*loop, "pillow", path, "400", "--iterations", iterations], "thumbnail")
        row(f"thumbnail 4000x3000 {name} → 400 px, in process (warm loop)", ours_in, "pyvips thumbnail_buffer", pyvips_in, 1.0)
        row(f"thumbnail 4000x3000 {name} → 400 px, in process (warm loop)", ours_in, "Pillow (draft + thumbnail)",
            pillow_in, 0.5)

    print("Full decode, in process...", flush=True)
    bare_names = {"JPEG": "bare tjDecompress2", "PNG": "bare spng_decode_image", "WebP": "bare WebPDecodeRGBAInto"}
    for name, path in inputs.items():
        iterations = "20" if name != "PNG" else "5"
        ours_decode = per_iteration_ms([bench, "decode", path, "--iterations", iterations], "decode")
        bare_decode = per_iteration_ms([args.bare, path, "--iterations", iterations], "decode")
        row(f"full decode 4000x3000 {name} → RGBA, in process", ours_decode, bare_names[name], bare_decode, 1.15)

    print("Progressive JPEG previews, in process...", flush=True)
    progressive = key_value_figures([bench, "progressive", os.path.join(args.work, "photo_4000x3000_progressive.jpg"),
                                     "--iterations", "5"])
    row("progressive JPEG 4000x3000: slowest preview (scans so far at 1/4 scale) vs full decode, in process",
        progressive["progressive_slowest_preview_ms_per_iter"], "kf full decode of the same file",
        progressive["progressive_full_decode_ms_per_iter"], 1.0)

    print("Lanczos resize and Gaussian blur, in process...", flush=True)
    kernels = [sys.executable, os.path.join(here, "pillow_kernels.py")]
    ours_resize = per_iteration_ms([bench, "resize", png, "800x600", "--iterations", "10"], "resize")
    pillow_resize = per_iteration_ms([*kernels, "resize", png, "800x600", "--iterations", "10"], "resize")
    row("Lanczos resize 4000x3000 → 800x600 (RGBA, in process)", ours_resize, "Pillow resize(LANCZOS)",
        pillow_resize, 1.0)
    ours_blur = per_iteration_ms([bench, "blur", png_1000, "10", "--iterations", "20"], "blur")
    pillow_blur = per_iteration_ms([*kernels, "blur", png_1000, "10", "--iterations", "20"], "blur")
    row("Gaussian blur radius 10 on 1000x1000 (RGBA, in process)", ours_blur, "Pillow GaussianBlur(10)",
        pillow_blur, 1.0)

    print("Resize quality vs Pillow LANCZOS...", flush=True)
    quality = resize_quality.measure(kf, args.work, log=sys.stdout)
    min_psnr = resize_quality.minimum_psnr(quality)
    quality_target = resize_quality.THRESHOLD_DB
    rows.append((f"resize quality: PSNR vs Pillow LANCZOS, min over {resize_quality.photo_count(quality)} photos",
                 "identical" if min_psnr == float("inf") else f"{min_psnr:.1f} dB", "Pillow resize(LANCZOS)", "—",
                 "— ✓" if min_psnr >= quality_target else "— ✗", f"≥ {quality_target:g} dB"))
    print(f"resize quality: min PSNR {min_psnr:.1f} dB over {len(quality)} resizes", flush=True)


    print("Colour management and animations...", flush=True)
    p3 = os.path.join(args.work, "photo_4000x3000_p3.jpg")
    # Three processes: the middle one of their differences, so that one process whose second
    # core was busy elsewhere does not decide the row.
    runs = []
    for _ in range(3):
        colour = subprocess.run([bench, "colour", p3, "--iterations", "31"], check=True, capture_output=True, text=True).stdout
        figures = dict(line.split("=", 1) for line in colour.splitlines() if "=" in line)
        runs.append((float(figures["decode_kept_ms_per_iter"]), float(figures["decode_converted_ms_per_iter"])))
    kept, converted = sorted(runs, key=lambda run: run[1] - run[0])[1]
    row("colour conversion to sRGB of a 12 MP Display P3 JPEG (median converted decode − median kept-profile decode, "
        "31 of each in turn, in process; the middle of 3 processes)",
        converted - kept, "its decode (profile kept)", kept, 0.25)
    gif = os.path.join(args.work, "anim_400x640x480.gif")
    (ours_gif, _), (vips_gif, _) = hyperfine([
        f"{kf} process {gif} --processor resize(160x120) --output {args.work}/kf-anim.gif",
        f"vipsthumbnail {gif}[n=-1] --size 160x120 -o {args.work}/vips-anim.gif",
    ], args.work, runs=5, warmup=1)
    row("resize a 400-frame 640x480 GIF to 160x120, every frame, whole process", ours_gif, "vipsthumbnail [n=-1]",
        vips_gif, 1.0)
    rss_gif = peak_rss_mb([kf, "process", gif, "--processor", "resize(160x120)", "--output", f"{args.work}/kf-anim.gif"])
    rss_gif_vips = peak_rss_mb(["vipsthumbnail", f"{gif}[n=-1]", "--size", "160x120", "-o", f"{args.work}/vips-anim.gif"])
    row("peak RSS, the same 400-frame GIF resize (target < 100 MB)", rss_gif, "vipsthumbnail [n=-1]", rss_gif_vips, None, "MB")
    rss_info = peak_rss_mb([kf, "info", gif])
    row("peak RSS, kf info on the 400-frame GIF (target < 50 MB)", rss_info, "kf info on a 1 KB PNG",
        peak_rss_mb([kf, "info", os.path.join(here, "..", "Tests", "Fixtures", "png_rgb_8.png")]), None, "MB")

    # kf info reads headers only: a whole process against libvips' header reader, on the three
    # files issue 28 names (targets: under 20 ms and 40 MB each).
    for label, path in (("12 MP JPEG", jpeg), ("100-frame GIF", os.path.join(args.work, "anim_100x640x480.gif")),
                        ("11158x2156 WebP", os.path.join(args.work, "wide_11158x2156.webp"))):
        (ours_info, _), (vips_info, _) = hyperfine([f"{kf} info {path}", f"vipsheader -a {path}"], args.work)
        peak = peak_rss_mb([kf, "info", path])
        met = "✓" if ours_info < 20 and peak < 40 else "✗"
        row(f"kf info on a {label}, whole process (peak RSS {peak:.1f} MB; target < 20 ms and < 40 MB: {met})",
            ours_info, "vipsheader -a", vips_info, None)

    print("Peak memory...", flush=True)
    rss_thumb = peak_rss_mb([kf, "process", jpeg, "--processor", "downsample(400x400)", "--output", f"{args.work}/kf.jpg"])
    rss_vips = peak_rss_mb(["vipsthumbnail", jpeg, "-s", "400", "-o", f"{args.work}/vips.jpg"])
    rss_full = peak_rss_mb([kf, "process", jpeg, "--output", f"{args.work}/full.png"])
    row("peak RSS, thumbnail 4000x3000 JPEG → 400 px", rss_thumb, "vipsthumbnail", rss_vips, None, "MB")
    row("peak RSS, thumbnail vs full decode (kf process to PNG)", rss_thumb, "kf full decode", rss_full, 0.3, "MB")

    print("Download (nginx on 127.0.0.1)...", flush=True)
    download = download_figures(args.work, here, bench, kf)
    row("download 1000 × ~50 KB JPEGs, concurrency 8: download time in process (throughput)", download["in_process"],
        "curl --parallel --parallel-max 8 (whole process)", download["curl_interleaved"], 1.11,
        note=" (throughput ≥ 0.9× curl)")
    row("the same, AsyncHTTPClient alone (no Kingfisher code), in process", download["raw_client"],
        "curl --parallel --parallel-max 8 (whole process)", download["curl_interleaved"], None)
    row("the same, kf-bench whole process (adds ~6 ms of start-up)", download["ours"],
        "curl --parallel --parallel-max 8", download["curl"], None)
    row("the same, decoding every image, whole process", download["ours_decode"], "curl (no decoding)", download["curl"], None)
    row("prefetch 1000 × ~50 KB: download, decode, thumbnail 200 px, save (8 at a time, whole process)",
        download["pipeline"], "Python requests + Pillow, 8 threads", download["pipeline_python"], 0.5)
    row("prefetch pipeline, time per image: 10k distinct URLs vs 1k", download["per_item_10k"], "the same, 1k URLs",
        download["per_item_1k"], None)

    revalidation = download["revalidation"]
    row("HTTP cache: revalidated hit (conditional request, 304, disk read and decode), median",
        revalidation["revalidated_hit_us"] / 1000, "2 × disk hit + one loopback round trip (AsyncHTTPClient 304)",
        (2 * revalidation["disk_hit_us"] + revalidation["round_trip_us"]) / 1000, 1.0,
        note=f" (disk hit {revalidation['disk_hit_us']:.0f} µs, round trip {revalidation['round_trip_us']:.0f} µs)")

    print("Cache...", flush=True)
    cache = key_value_figures([bench, "cache", jpeg])

    def absolute(scenario, value, unit, target=None):
        verdict = "" if target is None else (" ✓" if value < target else " ✗")
        rows.append((scenario, f"{value:.0f} {unit}{verdict}", "—", "—", "—",
                     "—" if target is None else f"< {target:.0f} {unit}"))
        print(f"{scenario}: {value:.0f} {unit}", flush=True)

    absolute("memory cache hit, median, 1 thread (1k entries)", cache["memory_hit_ns_1thread"], "ns", 1000)
    absolute("memory cache hit, median, 2 threads at once", cache["memory_hit_ns_2threads"], "ns", 1000)
    absolute("memory cache hit, median, 100k entries", cache["memory_hit_ns_100k"], "ns", 1000)
    absolute("memory cache insert, mean, filling 100k entries", cache["memory_insert_ns_100k"], "ns")
    absolute(f"disk cache hit incl. decode, median, {cache['disk_thumbnail_bytes'] / 1000:.0f} KB 400 px JPEG",
             cache["disk_hit_us"], "µs", 1000)
    absolute("cache store (memory + atomic disk write), 400 px JPEG", cache["store_per_second"], "stores/s")

    print("The imgproxy vocabulary: rotate, sharpen, smart crop, maxbytes...", flush=True)
    # Per core: both pinned to one CPU (Pillow uses one; kf would split rows across all).
    pinned = ["taskset", "-c", "0"]
    ours_rotate = per_iteration_ms([*pinned, bench, "rotate", png, "90", "--iterations", "10"], "rotate")
    pillow_rotate = per_iteration_ms([*pinned, *kernels, "rotate", png, "90", "--iterations", "10"], "rotate")
    row("rotate 90° 4000x3000 (RGBA, in process, one core each)", ours_rotate, "Pillow transpose(ROTATE_270)",
        pillow_rotate, 1.0)
    ours_sharpen = per_iteration_ms([*pinned, bench, "sharpen", png_1000, "1.5", "--iterations", "10"], "sharpen")
    pillow_sharpen = per_iteration_ms([*pinned, *kernels, "sharpen", png_1000, "1.5", "--iterations", "10"], "sharpen")
    row("sharpen σ 1.5 on 1000x1000 (RGBA, in process, one core each)", ours_sharpen, "Pillow UnsharpMask(1.5, 100, 0)",
        pillow_sharpen, 1.0)
    (ours_smart, _), (vips_smart, _) = hyperfine([
        f"{kf} process {jpeg} --processor fill(300x200,smart) --output {args.work}/kf-smart.jpg",
        f"vipsthumbnail {jpeg} --size 300x200 --smartcrop attention -o {args.work}/vips-smart.jpg",
    ], args.work)
    row("smart crop 4000x3000 JPEG → 300x200, whole process", ours_smart, "vipsthumbnail --smartcrop attention",
        vips_smart, 1.0)
    maxbytes = key_value_figures([bench, "maxbytes", jpeg])
    rows.append(("maxbytes: encodings per search (1200x900, JPEG and WebP, bounds of 80/50/30/15% of quality 90's size)",
                 f"{maxbytes['maxbytes_encodes_per_search']:.2f}" + (" ✓" if maxbytes["maxbytes_encodes_per_search"] <= 3 else " ✗"),
                 "—", "—", "—", "≤ 3"))
    absolute("maxbytes: time per search, the same", maxbytes["maxbytes_ms_per_search"], "ms")

    print("kf serve against thumbor (wrk, nginx origin, pinned CPUs)...", flush=True)
    serve = serve_vs_thumbor.measure(args.bin, args.work, args.thumbor)
    rows.extend(serve_vs_thumbor.rows(serve))

    print("kf serve as a cluster (deploy/cluster.sh, nginx, Redis)...", flush=True)
    cluster = serve_cluster.measure(args.bin, os.path.join(args.work, "cluster"))
    rows.extend(serve_cluster.rows(cluster))

    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        "# Benchmarks",
        "",
        f"Measured {now} at commit {source_commit()} by `Benchmarks/run.sh` on {os.cpu_count()} cores ({cpu_model()}).",
        f"Peers in the same run: {tool_version(['vips', '--version'])}, Pillow {PIL.__version__}, "
        f"thumbor {serve['thumbor_version']}, "
        f"bare TurboJPEG from libjpeg-turbo {tool_version(['pkg-config', '--modversion', 'libturbojpeg'])}.",
        "Inputs: a photo-like 4000x3000 image generated at run time by `Benchmarks/make_inputs.py`, as JPEG "
        "(quality 90, 4:2:0), PNG and lossy WebP.",
        "Whole-process times are hyperfine means over 20 runs after 3 warm-ups (σ of the JPEG thumbnail: "
        f"kf {whole_sd['JPEG'][0]:.1f} ms, vipsthumbnail {whole_sd['JPEG'][1]:.1f} ms, Pillow {whole_sd['JPEG'][2]:.1f} ms); "
        "in-process times are the best of 3 runs of 20 iterations (10 for the resize, 5 for PNG) after 1 warm-up.",
        "Resize and blur read the lossless PNG (the blur a centre 1000x1000 crop of it) and work on RGBA in both "
        "tools; Pillow premultiplies alpha around its resize and approximates the Gaussian with 3 extended box "
        f"blurs. Pillow runs each kernel on one core, kf splits rows across all {os.cpu_count()} cores.",
        "",
        "| scenario | ours | peer | peer's | ratio (ours / peer) | target |",
        "|---|---|---|---|---|---|",
        *["| " + " | ".join(r) + " |" for r in rows],
        "",
        "In-process thumbnails are warm loops over bytes already in memory (`kf-bench thumbnail`, "
        "`Benchmarks/peer_thumbnail_loop.py`): a server pays only this; whole-process figures add each tool's "
        "start-up. JPEG and WebP decode straight to a reduced scale; PNG (no reduced decode exists) is inflated "
        "whole by libdeflate (libspng and Pillow inflate with zlib) and its unfiltered rows stream through an "
        "area-average reduction to twice the target before the Lanczos pass. Inflating is ~70% of the PNG "
        "thumbnail's time, libjpeg-turbo's Huffman decoding ~85% of the JPEG one's.",
        "",
        "Download: 1000 distinct ~50 KB JPEGs (51 MB) from nginx-light on 127.0.0.1, 8 at a time. Throughput is "
        "the time `kf-bench download` spends downloading (every request handed to one `ImageDownloader` at once "
        "through the callback API, a no-op processor run where each body completes) against curl's whole "
        "process, which includes curl's own ~3 ms start-up; medians of 15 interleaved rounds. The whole-process "
        "rows are hyperfine means over 15 runs; there the ~6 ms it takes to start (Swift and Foundation are linked "
        "statically; FoundationNetworking still loads libcurl and ~30 libraries) dominates. `kf-bench ahc` is AsyncHTTPClient alone "
        "with the same concurrency, the floor under the downloader.",
        "",
        *serve_vs_thumbor.paragraph(serve),
        "",
        *serve_cluster.paragraph(cluster),
        "",
        "Resize quality: PSNR (RGB) of `kf process --processor 'resize(WxH)'` against Pillow's "
        "`resize((W, H), LANCZOS)` on the same PNG (`Benchmarks/resize_quality.py`):",
        "",
        *resize_quality.markdown_table(quality),
        "",
    ]
    with open(args.output, "w") as f:
        f.write("\n".join(lines))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
