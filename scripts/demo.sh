#!/usr/bin/env bash
# The main job: install what is missing, build kf in release mode, and run it over the sample
# images in Tests/KingfisherTests/Fixtures, writing results into ./output and saying what it did.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh
echo "Building kf (release)..."
swift build -c release --product kf 2>&1 | tail -n 1
kf="$(swift build -c release --show-bin-path)/kf"

fixtures=Tests/KingfisherTests/Fixtures
out=output
rm -rf "$out"
mkdir -p "$out"

samples=(photo_progressive.jpg photo_cmyk.jpg orientation_6.jpg png_palette_trns.png gif_disposal_background.gif webp_animated.webp photo_alpha.webp)
for file in "${samples[@]}"; do
    name="${file%.*}"
    echo
    echo "== $file"
    "$kf" info "$fixtures/$file"
    "$kf" process "$fixtures/$file" --output "$out/$name.png"
    "$kf" process "$fixtures/$file" --processor 'downsample(64x64)' --output "$out/$name.thumb.webp"
    echo "-> $out/$name.png (upright, full size), $out/$name.thumb.webp (downsampled to 64 px)"
done
"$kf" process "$fixtures/gif_disposal_background.gif" --output "$out/gif_disposal_background.copy.gif"
echo "-> $out/gif_disposal_background.copy.gif (an unmodified GIF is re-served byte for byte)"

echo
echo "== refused input (exit status 65, one line on stderr, no output file)"
for file in html_error.html png_100000x100000.png sample.heic; do
    status=0
    "$kf" process "$fixtures/$file" --output "$out/refused.png" || status=$?
    echo "   $file -> exit $status"
done
echo
echo "Done: $(ls "$out" | wc -l) files in $out/"
