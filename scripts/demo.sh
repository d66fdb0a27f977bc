#!/usr/bin/env bash
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

# The main job: install what is missing, build kf in release mode, run it over the sample
# images in Tests/Fixtures, then serve those images on 127.0.0.1, prefetch them
# into a cache and fetch one twice (network, then disk), and end by running the image service
# (kf serve) for a few seconds and fetching one processed image from it. Results go to ./output.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh python3
echo "Building kf (release, static Swift runtime)..."
kf="$(scripts/build-release.sh kf)/kf"

fixtures=Tests/Fixtures
out=output
rm -rf "$out"
mkdir -p "$out"

# The last six: a Display P3 photo (converted to sRGB), HEIC turned by its irot box, AVIF with
# alpha, lossy JPEG XL, an animated PNG and a TIFF with EXIF orientation 6.
samples=(photo_progressive.jpg photo_cmyk.jpg orientation_6.jpg png_palette_trns.png gif_disposal_background.gif
         webp_animated.webp photo_alpha.webp color/displayp3.jpg bmff/heic_irot.heic bmff/avif_alpha.avif
         bmff/jxl_lossy.jxl apng/apng_dispose_previous_over.png raster/tiff_orientation_6.tif)
for file in "${samples[@]}"; do
    name="$(basename "${file%.*}")"
    echo
    echo "== $file"
    "$kf" info "$fixtures/$file"
    "$kf" process "$fixtures/$file" --output "$out/$name.png"
    "$kf" process "$fixtures/$file" --processor 'downsample(64x64)' --output "$out/$name.thumb.webp"
    echo "-> $out/$name.png (upright, full size), $out/$name.thumb.webp (downsampled to 64 px)"
done
"$kf" process "$fixtures/gif_disposal_background.gif" --output "$out/gif_disposal_background.copy.gif"
echo "-> $out/gif_disposal_background.copy.gif (an unmodified GIF is re-served byte for byte)"
"$kf" process "$fixtures/color/displayp3.jpg" --processor 'downsample(200x200)' --format avif --output "$out/displayp3.thumb.avif"
"$kf" process "$fixtures/color/displayp3.jpg" --keep-color-profile --output "$out/displayp3.kept.png"
echo "-> $out/displayp3.thumb.avif (an AVIF thumbnail), $out/displayp3.kept.png (the Display P3 profile kept and embedded)"

echo
echo "== refused input (exit status 65, one line on stderr, no output file)"
for file in html_error.html png_100000x100000.png sample.heic bmff/heic_huge.heic; do
    status=0
    "$kf" process "$fixtures/$file" --output "$out/refused.png" || status=$?
    echo "   $file -> exit $status"
done

echo
echo "== fetching: the sample images served on 127.0.0.1, prefetched into a fresh cache, then one fetched twice"
port=$((20000 + RANDOM % 20000))
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$fixtures" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$port/photo.png')" 2>/dev/null && break
    sleep 0.1
done
cache="$out/cache"
urls=()
for file in "$fixtures"/*.jpg "$fixtures"/*.png "$fixtures"/*.gif "$fixtures"/*.webp; do
    urls+=("http://127.0.0.1:$port/$(basename "$file")")
done
echo "kf prefetch: ${#urls[@]} images, 8 at a time (the 5 decompression bombs among them are refused from their headers)"
printf '%s\n' "${urls[@]}" | "$kf" prefetch --input - --directory "$cache" --concurrency 8 || true
url="http://127.0.0.1:$port/photo_progressive.jpg"
spec='downsample(120x120)|>round(16)'
echo "kf get $url --processor '$spec'"
echo -n "   first, processed from the prefetched original (no request): " && "$kf" get "$url" --directory "$cache" --processor "$spec" --output "$out/fetched.png"
echo -n "   again, the processed image from the disk cache: " && "$kf" get "$url" --directory "$cache" --processor "$spec"
url="http://127.0.0.1:$port/photo_lossy.webp"
echo -n "   $(basename "$url") with --force-refresh, from the network: " && "$kf" get "$url" --directory "$cache" --processor "$spec" --force-refresh
echo "-> $out/fetched.png; cache in $cache (columns: where from — none = loaded, disk = disk cache; size; the format it was decoded from; the size and format of its data; time)"

echo
echo "== kf serve: the image service for a few seconds, one processed image fetched from it"
serve_port=$((20000 + RANDOM % 20000))
"$kf" serve --port "$serve_port" --allow-unsigned --allow-private-networks --directory "$out/serve-cache" \
    >"$out/serve.out" 2>"$out/serve.log" &
service=$!
trap 'kill $server $service 2>/dev/null || true' EXIT
for _ in $(seq 100); do
    grep -q "listening" "$out/serve.out" 2>/dev/null && break
    sleep 0.1
done
path="$("$kf" url "http://127.0.0.1:$port/photo_progressive.jpg" --processor 'resize(160x120,fill)|>crop(160x120)|>round(12)' --format png)"
echo "GET http://127.0.0.1:$serve_port$path"
python3 - "http://127.0.0.1:$serve_port$path" "$out/served.png" <<'PY'
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1]) as response:
    body = response.read()
    print(f"   {response.status} {response.headers['Content-Type']}, {len(body)} bytes, ETag {response.headers['ETag']}")
open(sys.argv[2], "wb").write(body)
PY
sleep 2
kill -TERM "$service"
wait "$service" && echo "   stopped on SIGTERM (exit 0); access log: $(grep -c 'GET /' "$out/serve.log") line(s) in $out/serve.log"
echo "-> $out/served.png"

echo
echo "Done: $(find "$out" -maxdepth 1 -type f | wc -l) files in $out/"
