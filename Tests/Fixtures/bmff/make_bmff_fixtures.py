#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Regenerates the HEIC, AVIF and JPEG XL fixtures in this folder and their manifest.json.

Requirements:

* Python 3 with Pillow and numpy (Pillow 13 and numpy 2.4 were used);
* the formats' reference tools, which the test suite itself does not need (Debian packages):
  libheif-examples (heif-enc, heif-convert; libheif 1.15.1 with x265 and libde265),
  libavif-bin (avifenc, avifdec; libavif 0.11.1 with aom 3.6 and dav1d 1.0),
  libjxl-tools (cjxl, djxl; libjxl 0.7.0).

Usage:

    python3 Tests/Fixtures/bmff/make_bmff_fixtures.py

Sources are drawn with numpy (no randomness), encoded by the tools, and each reference is the
format's reference decoder's output (heif-convert, avifdec, djxl) as an 8-bit RGBA PNG
(heif-convert's 16-bit output is reduced with rounding). The same tool versions rewrite the same bytes.

Files the tools cannot make are written by patching boxes here: heif-enc 1.15 writes no
`irot`/`imir` (it ignores a JPEG's EXIF orientation), so `heic_irot.heic` gets its rotation and
mirror properties inserted into the primary item's `ipma` entry (the EXIF orientation 6 it
carries stays: HEIF readers must follow irot/imir and ignore it); the `*_huge` files are real
files whose primary `ispe` box is patched to claim 16000 x 16000 pixels.

Manifest entries: `file`, `format`, `reference` (the reference PNG), `width`/`height` (upright),
`alpha` (whether the file has an alpha plane), `minPSNR` (dB, RGB, against the reference),
`colorSpace` ("sRGB", or "icc": the profile is the file's name with `.icc`), `notes`. `thumbnail` describes the HEIC with a
thumbnail; `huge` lists the files that claim too many pixels.
"""

import json
import pathlib
import struct
import subprocess
import sys
import tempfile
import zlib

import numpy as np
from PIL import Image, ImageCms

HERE = pathlib.Path(__file__).resolve().parent
MIN_PSNR = 45.0
entries = []


def run(*command):
    subprocess.run([str(c) for c in command], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def check(condition, message):
    if not condition:
        sys.exit("check failed: " + message)


# ----------------------------------------------------------------------------
# sources
# ----------------------------------------------------------------------------

def photo(width, height, depth=8):
    """A smooth, asymmetric picture (gradients, a disc, a bar) in 0...1."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    u, v = x / (width - 1), y / (height - 1)
    r = 0.15 + 0.8 * u
    g = 0.1 + 0.75 * v
    b = 0.5 + 0.35 * np.sin(2.5 * u + 4.0 * v)
    # Soft (2-pixel) edges, as in a photo: hard saturated edges are 4:2:0's worst case.
    radius = min(width, height) * 0.22
    disc = np.clip((radius - np.hypot(x - width * 0.3, y - height * 0.35)) / 2 + 0.5, 0, 1)
    r, g, b = r + (0.95 - r) * disc, g + (0.85 - g) * disc, b + (0.2 - b) * disc
    bar = np.clip(np.minimum(np.minimum(x - width * 0.7, width * 0.8 - x), y - height * 0.15) / 2 + 0.5, 0, 1)
    r, g, b = r + (0.1 - r) * bar, g + (0.2 - g) * bar, b + (0.6 - b) * bar
    rgb = np.clip(np.stack([r, g, b], axis=2), 0, 1)
    scale = (1 << depth) - 1
    return np.rint(rgb * scale).astype(np.uint16 if depth > 8 else np.uint8)


def alpha_plane(width, height, depth=8):
    """Opaque top-left, fading to fully transparent at the bottom right."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    a = np.clip(1.3 - (x / (width - 1) + y / (height - 1)) * 0.75, 0, 1)
    scale = (1 << depth) - 1
    return np.rint(a * scale).astype(np.uint16 if depth > 8 else np.uint8)


def with_alpha(rgb, alpha):
    return np.concatenate([rgb, alpha[:, :, None]], axis=2)


def write_png(path, pixels):
    """Writes an 8- or 16-bit RGB(A) PNG (Pillow cannot write 16-bit colour)."""
    height, width, channels = pixels.shape
    depth = 16 if pixels.dtype == np.uint16 else 8
    color_type = {3: 2, 4: 6}[channels]
    raw = pixels.astype(">u2").tobytes() if depth == 16 else pixels.tobytes()
    row = len(raw) // height
    filtered = b"".join(b"\x00" + raw[i * row:(i + 1) * row] for i in range(height))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(filtered, 9))
                     + chunk(b"IEND", b""))


def read_png_rgba8(path):
    """Reads a tool's PNG output as 8-bit RGBA. Pillow reads only the high byte of 16-bit colour
    samples, so it is made to read the file twice, taking the high then the low bytes; the
    samples are then rounded from the bits they hold (heif-convert writes 10-bit values shifted
    left by 6 with zeros below: those count as 10-bit)."""
    with Image.open(path) as image:
        wide = any(";16B" in tile.args for tile in image.tile)
        if not wide:
            return np.array(image.convert("RGBA"))

    def plane(order):
        with Image.open(path) as image:
            image.tile = [tile._replace(args=tile.args.replace(";16B", ";16" + order)) for tile in image.tile]
            return np.array(image).astype(np.int64)

    samples = plane("B") << 8 | plane("L")
    shift = 0
    while shift < 8 and not (samples & ((1 << (shift + 1)) - 1)).any():
        shift += 1
    maximum = (1 << (16 - shift)) - 1
    reduced = (((samples >> shift) * 255 + maximum // 2) // maximum).astype(np.uint8)
    if reduced.shape[2] == 3:
        reduced = np.concatenate([reduced, np.full(reduced.shape[:2] + (1,), 255, np.uint8)], axis=2)
    return reduced


def to8(pixels):
    if pixels.dtype == np.uint16:
        return ((pixels.astype(np.int64) * 255 + 32767) // 65535).astype(np.uint8)
    return pixels


def psnr(a, b):
    difference = a[:, :, :3].astype(np.float64) - b[:, :, :3].astype(np.float64)
    mse = np.mean(difference ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255 ** 2 / mse)


def save_reference(name, rgba):
    path = HERE / name
    Image.fromarray(rgba, "RGBA").save(path, optimize=True)
    return name


def add(file, fmt, reference, rgba, alpha, color_space="sRGB", notes="", min_psnr=MIN_PSNR):
    height, width = rgba.shape[:2]
    entries.append({"file": file, "format": fmt, "reference": reference, "width": width, "height": height,
                    "alpha": alpha, "minPSNR": min_psnr, "colorSpace": color_space, "notes": notes})


# ----------------------------------------------------------------------------
# ISO-BMFF patching
# ----------------------------------------------------------------------------

def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def children(data):
    """(type, payload) of the boxes in `data` (32-bit sizes only, as the tools write)."""
    out, pos = [], 0
    while pos < len(data):
        size, kind = struct.unpack(">I4s", data[pos:pos + 8])
        check(size >= 8, "a box of 32-bit size")
        out.append((kind, data[pos + 8:pos + size]))
        pos += size
    return out


def primary_item(meta_children):
    pitm = dict(meta_children)[b"pitm"]
    return struct.unpack(">H", pitm[4:6])[0] if pitm[0] == 0 else struct.unpack(">I", pitm[4:8])[0]


def patch_ipma(ipma, item, new_indices):
    """Appends associations with 1-based property `new_indices` to `item`'s ipma entry."""
    version, flags = ipma[0], int.from_bytes(ipma[1:4], "big")
    id_size, wide = (2 if version < 1 else 4), bool(flags & 1)
    count = struct.unpack(">I", ipma[4:8])[0]
    out, pos = bytearray(ipma[:8]), 8
    for _ in range(count):
        item_id = int.from_bytes(ipma[pos:pos + id_size], "big")
        n = ipma[pos + id_size]
        size = n * (2 if wide else 1)
        associations = ipma[pos + id_size + 1:pos + id_size + 1 + size]
        if item_id == item:
            for index in new_indices:
                associations += struct.pack(">H", index) if wide else bytes([index])
            n += len(new_indices)
        out += ipma[pos:pos + id_size] + bytes([n]) + associations
        pos += id_size + 1 + size
    return bytes(out)


def shift_iloc(iloc, delta, threshold):
    """Adds `delta` to every file offset (construction method 0) at or past `threshold`."""
    version = iloc[0]
    out = bytearray(iloc)
    offset_size, length_size = iloc[4] >> 4, iloc[4] & 15
    base_offset_size, index_size = iloc[5] >> 4, (iloc[5] & 15) if version in (1, 2) else 0
    pos = 6
    count = struct.unpack(">H", iloc[pos:pos + 2])[0] if version < 2 else struct.unpack(">I", iloc[pos:pos + 4])[0]
    pos += 2 if version < 2 else 4
    for _ in range(count):
        pos += 2 if version < 2 else 4
        method = 0
        if version in (1, 2):
            method = struct.unpack(">H", iloc[pos:pos + 2])[0] & 15
            pos += 2
        pos += 2  # data_reference_index
        base = int.from_bytes(iloc[pos:pos + base_offset_size], "big") if base_offset_size else 0
        base_pos = pos
        pos += base_offset_size
        extents = struct.unpack(">H", iloc[pos:pos + 2])[0]
        pos += 2
        for _ in range(extents):
            pos += index_size
            offset = int.from_bytes(iloc[pos:pos + offset_size], "big") if offset_size else 0
            if method == 0 and base_offset_size == 0 and offset >= threshold:
                out[pos:pos + offset_size] = (offset + delta).to_bytes(offset_size, "big")
            pos += offset_size + length_size
        if method == 0 and base_offset_size and base >= threshold:
            out[base_pos:base_pos + base_offset_size] = (base + delta).to_bytes(base_offset_size, "big")
    return bytes(out)


def add_properties(data, properties):
    """Returns the HEIF file `data` with `properties` (boxes) associated with its primary item."""
    top = children(data)
    kinds = [kind for kind, _ in top]
    check(kinds.index(b"meta") < kinds.index(b"mdat"), "meta before mdat")
    meta_start = sum(8 + len(p) for _, p in top[:kinds.index(b"meta")])
    meta = dict(top)[b"meta"]
    meta_children = children(meta[4:])
    item = primary_item(meta_children)
    rebuilt = []
    for kind, payload in meta_children:
        if kind == b"iprp":
            parts = []
            for sub_kind, sub in children(payload):
                if sub_kind == b"ipco":
                    first = len(children(sub)) + 1
                    sub = sub + b"".join(properties)
                elif sub_kind == b"ipma":
                    sub = patch_ipma(sub, item, list(range(first, first + len(properties))))
                parts.append(box(sub_kind, sub))
            payload = b"".join(parts)
        rebuilt.append([kind, payload])
    delta = sum(8 + len(p) for _, p in rebuilt) - sum(8 + len(p) for _, p in meta_children)
    meta_end = meta_start + 8 + len(meta)
    for entry in rebuilt:
        if entry[0] == b"iloc":
            entry[1] = shift_iloc(entry[1], delta, meta_end)
    new_meta = box(b"meta", meta[:4] + b"".join(box(k, p) for k, p in rebuilt))
    return b"".join(box(k, p) if k != b"meta" else new_meta for k, p in top)


def zero_times(data):
    """Zeroes the creation and modification times avifenc writes into a sequence's moov."""
    out = bytearray(data)

    def walk(start, end):
        pos = start
        while pos < end:
            size, kind = struct.unpack(">I4s", out[pos:pos + 8])
            if kind in (b"moov", b"trak", b"mdia"):
                walk(pos + 8, pos + size)
            elif kind in (b"mvhd", b"tkhd", b"mdhd"):
                width = 8 if out[pos + 8] == 1 else 4
                out[pos + 12:pos + 12 + 2 * width] = bytes(2 * width)
            pos += size

    walk(0, len(out))
    return bytes(out)


def patch_primary_ispe(data, width, height):
    """Rewrites the primary item's ispe to claim `width` x `height` (sizes do not change)."""
    top = children(data)
    meta = dict(top)[b"meta"]
    meta_children = children(meta[4:])
    item = primary_item(meta_children)
    iprp = dict(meta_children)[b"iprp"]
    ipco = children(dict(children(iprp))[b"ipco"])
    ipma = dict(children(iprp))[b"ipma"]
    version, flags = ipma[0], int.from_bytes(ipma[1:4], "big")
    id_size, wide = (2 if version < 1 else 4), bool(flags & 1)
    pos, target = 8, None
    for _ in range(struct.unpack(">I", ipma[4:8])[0]):
        item_id, n = int.from_bytes(ipma[pos:pos + id_size], "big"), ipma[pos + id_size]
        pos += id_size + 1
        for _ in range(n):
            index = (struct.unpack(">H", ipma[pos:pos + 2])[0] & 0x7FFF) if wide else ipma[pos] & 0x7F
            pos += 2 if wide else 1
            if item_id == item and ipco[index - 1][0] == b"ispe":
                target = ipco[index - 1][1]
    check(target is not None, "primary ispe found")
    old = box(b"ispe", target)
    new = box(b"ispe", target[:4] + struct.pack(">II", width, height))
    check(data.count(old) >= 1, "ispe bytes found")
    return data.replace(old, new, 1)


# ----------------------------------------------------------------------------
# HEIC
# ----------------------------------------------------------------------------

def heif_convert(source, name):
    out = TMP / (name + ".png")
    run("heif-convert", "--quiet", source, out)
    return read_png_rgba8(out)


def make_heic():
    rgb = photo(64, 48)
    write_png(TMP / "heic8.png", rgb)
    run("heif-enc", "-q", "85", "-o", HERE / "heic_8bit.heic", TMP / "heic8.png")
    ref = heif_convert(HERE / "heic_8bit.heic", "heic_8bit")
    check(psnr(ref, with_alpha(rgb, np.full((48, 64), 255, np.uint8))) > 25, "heic_8bit looks like its source")
    add("heic_8bit.heic", "heic", save_reference("heic_8bit.ref.png", ref), ref, False,
        notes="4:2:0 8-bit; heif-enc wraps the 64x64-coded tile in a 1x1 grid cropped to 64x48")

    rgba = with_alpha(photo(64, 48), alpha_plane(64, 48))
    write_png(TMP / "heica.png", rgba)
    run("heif-enc", "-q", "85", "-o", HERE / "heic_alpha.heic", TMP / "heica.png")
    ref = heif_convert(HERE / "heic_alpha.heic", "heic_alpha")
    check(np.abs(ref[:, :, 3].astype(int) - rgba[:, :, 3]).max() < 16, "heic_alpha keeps its alpha")
    add("heic_alpha.heic", "heic", save_reference("heic_alpha.ref.png", ref), ref, True,
        notes="alpha as an auxiliary image")

    rgb16 = photo(64, 64, depth=16)
    write_png(TMP / "heic10.png", rgb16)
    run("heif-enc", "-q", "85", "-b", "10", "-o", HERE / "heic_10bit.heic", TMP / "heic10.png")
    ref = heif_convert(HERE / "heic_10bit.heic", "heic_10bit")
    check(psnr(ref, with_alpha(to8(rgb16), np.full((64, 64), 255, np.uint8))) > 25, "heic_10bit looks like its source")
    add("heic_10bit.heic", "heic", save_reference("heic_10bit.ref.png", ref), ref, False,
        notes="10-bit from a 16-bit PNG, 64x64 (no grid); reference: heif-convert's 16-bit PNG rounded to 8 bits")

    # HEIF shows stored pixels S turned by irot, then mirrored by imir: irot 3 (270 degrees
    # anticlockwise) and imir 1 (left-right) show U when S = U mirrored, then turned 90 degrees
    # anticlockwise. The JPEG heif-enc reads also says EXIF orientation 6, which must be ignored.
    upright = photo(48, 64)
    stored = np.ascontiguousarray(np.rot90(upright[:, ::-1], k=1))
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(stored).save(TMP / "heicrot.jpg", quality=95, exif=exif.tobytes())
    run("heif-enc", "-q", "85", "-o", TMP / "heicrot.heic", TMP / "heicrot.jpg")
    plain = (TMP / "heicrot.heic").read_bytes()
    check(b"irot" not in plain and b"imir" not in plain, "heif-enc wrote no irot/imir (else drop the patch)")
    patched = add_properties(plain, [box(b"irot", bytes([3])), box(b"imir", bytes([1]))])
    (HERE / "heic_irot.heic").write_bytes(patched)
    ref = heif_convert(HERE / "heic_irot.heic", "heic_irot")
    check(ref.shape[:2] == (64, 48), f"heic_irot is upright 48x64, got {ref.shape}")
    check(psnr(ref, with_alpha(upright, np.full((64, 48), 255, np.uint8))) > 25, "heic_irot is upright")
    add("heic_irot.heic", "heic", save_reference("heic_irot.ref.png", ref), ref, False,
        notes="stored 64x48 (a grid) with irot 3 (270 ccw) and imir 1 (left-right) inserted by this script, "
              "and EXIF orientation 6, which must be ignored")

    # Thumbnail: every 4th pixel of every 4th row is the bright picture P, the rest dark, so the
    # 32x24 thumbnail heif-enc makes by nearest-neighbour sampling (x * 4, y * 4) is P while a
    # filtered reduction of the full image is dark.
    bright = (photo(32, 24).astype(np.float64) * 0.5 + 127).astype(np.uint8)
    full = np.full((96, 128, 3), 16, np.uint8)
    full[::4, ::4] = bright
    write_png(TMP / "heicthumb.png", full)
    run("heif-enc", "-q", "90", "-t", "32", "-o", HERE / "heic_thumbnail.heic", TMP / "heicthumb.png")
    ref = heif_convert(HERE / "heic_thumbnail.heic", "heic_thumbnail")
    add("heic_thumbnail.heic", "heic", save_reference("heic_thumbnail.ref.png", ref), ref, False,
        notes="128x96 with a 32x24 thumbnail (heif-enc -t 32)")
    thumb = save_reference("heic_thumbnail.thumb.ref.png", with_alpha(bright, np.full((24, 32), 255, np.uint8)))
    return {"file": "heic_thumbnail.heic", "thumbnailWidth": 32, "thumbnailHeight": 24, "reference": thumb,
            "notes": "the reference is the source's pixels at (4x, 4y), which the thumbnail encodes; "
                     "the full image reduced by filtering is dark (mean green under 64)"}


# ----------------------------------------------------------------------------
# AVIF
# ----------------------------------------------------------------------------

def srgb_profile():
    """Pillow's sRGB ICC profile, with its creation date (bytes 24-35) zeroed."""
    icc = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    return icc[:24] + bytes(12) + icc[36:]


def avifdec(source, name, *options):
    out = TMP / (name + ".png")
    run("avifdec", "-d", "8", *options, source, out)
    return read_png_rgba8(out)


def avif_has_alpha(path):
    """Whether avifdec finds an alpha plane (avifenc 0.11 gives sequences one even for RGB input)."""
    info = subprocess.run(["avifdec", "-i", str(path)], check=True, capture_output=True, text=True).stdout
    return "Absent" not in next(line for line in info.splitlines() if line.strip().startswith("* Alpha"))


def avifenc(source, output, *options):
    run("avifenc", "-s", "6", "-j", "1", "--min", "8", "--max", "24", *options, source, output)


def make_avif():
    rgb = photo(64, 48)
    write_png(TMP / "avif8.png", rgb)
    avifenc(TMP / "avif8.png", HERE / "avif_420.avif", "-y", "420", "-d", "8")
    ref = avifdec(HERE / "avif_420.avif", "avif_420")
    check(not avif_has_alpha(HERE / "avif_420.avif"), "no alpha plane for RGB input")
    add("avif_420.avif", "avif", save_reference("avif_420.ref.png", ref), ref, False, notes="8-bit 4:2:0")

    rgb16 = photo(64, 48, depth=16)
    write_png(TMP / "avif16.png", rgb16)
    avifenc(TMP / "avif16.png", HERE / "avif_10bit.avif", "-y", "420", "-d", "10")
    ref = avifdec(HERE / "avif_10bit.avif", "avif_10bit")
    check(psnr(ref, with_alpha(to8(rgb16), np.full((48, 64), 255, np.uint8))) > 28, "avif_10bit looks like its source")
    add("avif_10bit.avif", "avif", save_reference("avif_10bit.ref.png", ref), ref, False,
        notes="10-bit 4:2:0 from a 16-bit PNG; reference: avifdec -d 8")

    rgba = with_alpha(photo(64, 48), alpha_plane(64, 48))
    write_png(TMP / "avifa.png", rgba)
    avifenc(TMP / "avifa.png", HERE / "avif_alpha.avif", "-y", "444", "-d", "8")
    ref = avifdec(HERE / "avif_alpha.avif", "avif_alpha")
    check(np.abs(ref[:, :, 3].astype(int) - rgba[:, :, 3]).max() < 16, "avif_alpha keeps its alpha")
    add("avif_alpha.avif", "avif", save_reference("avif_alpha.ref.png", ref), ref, True, notes="8-bit 4:4:4 with alpha")

    # irot 1 (90 degrees anticlockwise) then imir 1 (left-right): EXIF orientation 7, where
    # heic_irot is 5. avifdec 0.11 ignores both, so
    # the reference is heif-convert's output, checked against avifdec's turned and flipped by hand.
    stored = photo(64, 48)
    write_png(TMP / "avifrot.png", stored)
    avifenc(TMP / "avifrot.png", HERE / "avif_irot_imir.avif", "-y", "444", "-d", "8", "--irot", "1", "--imir", "1")
    raw = avifdec(HERE / "avif_irot_imir.avif", "avif_irot_raw")
    check(raw.shape[:2] == (48, 64), "avifdec leaves irot/imir to the caller")
    by_hand = np.ascontiguousarray(np.rot90(raw, k=1)[:, ::-1])
    ref = heif_convert(HERE / "avif_irot_imir.avif", "avif_irot_imir")
    check(ref.shape == by_hand.shape and psnr(ref, by_hand) > 40,
          f"heif-convert rotates then mirrors like the spec ({psnr(ref, by_hand) if ref.shape == by_hand.shape else ref.shape})")
    add("avif_irot_imir.avif", "avif", save_reference("avif_irot_imir.ref.png", ref), ref, False,
        notes="stored 64x48, irot 1 (90 ccw) then imir 1 (left-right): upright 48x64; reference: heif-convert")

    icc = srgb_profile()
    (TMP / "profile.icc").write_bytes(icc)
    avifenc(TMP / "avif8.png", HERE / "avif_icc.avif", "-y", "420", "-d", "8", "--icc", TMP / "profile.icc")
    (HERE / "avif_icc.icc").write_bytes(icc)
    ref = avifdec(HERE / "avif_icc.avif", "avif_icc", "--ignore-icc")
    add("avif_icc.avif", "avif", save_reference("avif_icc.ref.png", ref), ref, False, color_space="icc",
        notes="an ICC profile (Pillow's sRGB, avif_icc.icc) in colr/prof; pixels not converted")

    frames = []
    for index in range(3):
        frame = np.roll(photo(48, 32), index * 8, axis=1)
        write_png(TMP / f"anim{index}.png", frame)
        frames.append(TMP / f"anim{index}.png")
    run("avifenc", "-s", "8", "-j", "1", "--min", "8", "--max", "24", "-y", "420", "-d", "8", *frames,
        HERE / "avif_animated.avif")
    (HERE / "avif_animated.avif").write_bytes(zero_times((HERE / "avif_animated.avif").read_bytes()))
    ref = avifdec(HERE / "avif_animated.avif", "avif_animated", "--index", "0")
    check(avif_has_alpha(HERE / "avif_animated.avif") and (ref[:, :, 3] == 255).all(), "an opaque alpha plane")
    add("avif_animated.avif", "avif", save_reference("avif_animated.ref.png", ref), ref, True,
        notes="an image sequence (avis) of 3 frames; the first is decoded. avifenc 0.11 gives a sequence "
              "an alpha plane (opaque here) even from RGB input")


# ----------------------------------------------------------------------------
# JPEG XL
# ----------------------------------------------------------------------------

def djxl(source, name):
    out = TMP / (name + ".png")
    run("djxl", source, out)
    return read_png_rgba8(out)


def make_jxl():
    rgb = photo(64, 48)
    write_png(TMP / "jxl8.png", rgb)
    run("cjxl", "-d", "1.0", "-e", "7", TMP / "jxl8.png", HERE / "jxl_lossy.jxl")
    ref = djxl(HERE / "jxl_lossy.jxl", "jxl_lossy")
    add("jxl_lossy.jxl", "jxl", save_reference("jxl_lossy.ref.png", ref), ref, False, notes="VarDCT, distance 1")

    run("cjxl", "-d", "0", "-e", "7", TMP / "jxl8.png", HERE / "jxl_lossless.jxl")
    ref = djxl(HERE / "jxl_lossless.jxl", "jxl_lossless")
    check(np.array_equal(ref[:, :, :3], rgb), "jxl_lossless is lossless")
    add("jxl_lossless.jxl", "jxl", save_reference("jxl_lossless.ref.png", ref), ref, False, notes="modular, lossless")

    rgba = with_alpha(photo(64, 48), alpha_plane(64, 48))
    write_png(TMP / "jxla.png", rgba)
    run("cjxl", "-d", "1.0", "-e", "7", TMP / "jxla.png", HERE / "jxl_alpha.jxl")
    ref = djxl(HERE / "jxl_alpha.jxl", "jxl_alpha")
    check(np.abs(ref[:, :, 3].astype(int) - rgba[:, :, 3]).max() < 8, "jxl_alpha keeps its alpha")
    add("jxl_alpha.jxl", "jxl", save_reference("jxl_alpha.ref.png", ref), ref, True, notes="VarDCT with alpha")

    rgb16 = photo(64, 48, depth=16)
    write_png(TMP / "jxl16.png", rgb16)
    run("cjxl", "-d", "0", "-e", "3", TMP / "jxl16.png", HERE / "jxl_16bit.jxl")
    ref = djxl(HERE / "jxl_16bit.jxl", "jxl_16bit")
    check(np.array_equal(ref[:, :, :3], to8(rgb16)), "jxl_16bit is lossless")
    add("jxl_16bit.jxl", "jxl", save_reference("jxl_16bit.ref.png", ref), ref, False,
        notes="16-bit lossless; reference: djxl's 16-bit PNG rounded to 8 bits")

    # An ICC profile cjxl cannot replace by an encoded colour space: Pillow's sRGB profile with the
    # red primary's X scaled by 0.8. Lossless, so the pixels stay in that space.
    icc = bytearray(srgb_profile())
    for index in range(struct.unpack(">I", icc[128:132])[0]):
        signature, offset, _ = struct.unpack(">4sII", icc[132 + 12 * index:144 + 12 * index])
        if signature == b"rXYZ":
            x = struct.unpack(">i", icc[offset + 8:offset + 12])[0]
            icc[offset + 8:offset + 12] = struct.pack(">i", int(x * 0.8))
    (HERE / "jxl_icc.icc").write_bytes(bytes(icc))
    Image.fromarray(rgb).save(TMP / "jxlicc.png", icc_profile=bytes(icc))
    run("cjxl", "-d", "0", "-e", "3", TMP / "jxlicc.png", HERE / "jxl_icc.jxl")
    ref = djxl(HERE / "jxl_icc.jxl", "jxl_icc")
    check(np.array_equal(ref[:, :, :3], rgb), "jxl_icc is lossless")
    add("jxl_icc.jxl", "jxl", save_reference("jxl_icc.ref.png", ref), ref, False, color_space="icc",
        notes="lossless with a non-sRGB ICC profile (jxl_icc.icc); pixels not converted")

    # Orientation 6 (turn 90 degrees clockwise) from the PNG's eXIf chunk: the stored pixels are
    # the upright picture turned back.
    upright = photo(48, 64)
    stored = np.ascontiguousarray(np.rot90(upright, k=1))
    exif = Image.Exif()
    exif[0x0112] = 6
    Image.fromarray(stored).save(TMP / "jxlrot.png", exif=exif.tobytes())
    run("cjxl", "-d", "0", "-e", "3", TMP / "jxlrot.png", HERE / "jxl_orientation.jxl")
    ref = djxl(HERE / "jxl_orientation.jxl", "jxl_orientation")
    check(ref.shape[:2] == (64, 48) and np.array_equal(ref[:, :, :3], upright), "djxl turns jxl_orientation upright")
    add("jxl_orientation.jxl", "jxl", save_reference("jxl_orientation.ref.png", ref), ref, False,
        notes="lossless, stored 64x48 with codestream orientation 6: upright 48x64")


# ----------------------------------------------------------------------------
# files that claim too many pixels
# ----------------------------------------------------------------------------

def jxl_header(width, height):
    """A bare JPEG XL codestream: signature, SizeHeader, all-default ImageMetadata, then padding."""
    bits = []

    def put(value, count):
        bits.extend((value >> i) & 1 for i in range(count))

    put(0, 1)                      # small = false
    put(3, 2); put(height - 1, 30)  # ysize_minus_1 as U32 selector 3: 30 bits
    put(0, 3)                      # ratio 0: xsize follows
    put(3, 2); put(width - 1, 30)
    put(1, 1)                      # ImageMetadata all_default
    while len(bits) % 8:
        bits.append(0)
    body = bytes(sum(bit << i for i, bit in enumerate(bits[n:n + 8])) for n in range(0, len(bits), 8))
    return b"\xff\x0a" + body + bytes(64)


def make_huge():
    names = []
    for source, name in (("heic_8bit.heic", "heic_huge.heic"), ("avif_420.avif", "avif_huge.avif")):
        (HERE / name).write_bytes(patch_primary_ispe((HERE / source).read_bytes(), 16000, 16000))
        names.append(name)
    (HERE / "jxl_huge.jxl").write_bytes(jxl_header(20000, 20000))
    names.append("jxl_huge.jxl")
    return [{"file": n, "notes": "claims 16000x16000 in the primary ispe" if "jxl" not in n
             else "a bare codestream header claiming 20000x20000, no frame"} for n in names]


def main():
    for name in list(HERE.iterdir()):
        if name.suffix in (".heic", ".avif", ".jxl", ".png", ".icc") or name.name == "manifest.json":
            name.unlink()
    thumbnail = make_heic()
    make_avif()
    make_jxl()
    huge = make_huge()
    manifest = {"generator": "make_bmff_fixtures.py", "fixtures": entries, "thumbnail": thumbnail, "huge": huge}
    (HERE / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    total = sum(p.stat().st_size for p in HERE.iterdir() if p.is_file())
    print(f"{len(entries)} fixtures, {total} bytes in {HERE.name}/")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as scratch:
        TMP = pathlib.Path(scratch)
        main()
