#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Regenerate the TIFF, BMP and ICO fixtures of RasterFormatTests into this directory.

Requirements: those of ../make_fixtures.py, whose helpers this imports (Pillow 13, with its
bundled libtiff, and numpy were used); `tiffcp` from libtiff-tools (Debian: libtiff-tools) for the YCbCr JPEG and tiled LZW TIFFs.

Usage:

    python3 Tests/Fixtures/raster/make_raster_fixtures.py

Deterministic (fixed seeds, no clocks): running it again rewrites the same bytes with the same
Pillow, zlib and libtiff builds. It checks its own output and exits with an error if a check
fails.

Each fixture has a reference `<name>.ref.png` (8-bit RGBA, straight alpha, upright) and an entry
in manifest.json:

* `maxError`: the largest per-channel difference allowed against the reference (0: exact);
  `minPSNR`: instead, the least PSNR in dB over RGB (lossy data decoded by another libjpeg).
* `reference`: "pillow" when the reference is Pillow's decode; "source" when it is computed here
  from the samples written, because Pillow reduces differently (16-bit samples and 5/6-bit
  fields: Pillow truncates, the decoder under test rounds) or cannot read the file (RLE deltas,
  2-bit BMP, 10-bit fields, BI_PNG, signed samples, an icon's AND mask under zero alpha). For
  those the Pillow decode, where there is one, is checked against the reference here within
  `pillowMaxError`.
* `orientation`, `icc` (the embedded profile's size), `hasAlpha`.
"""

import io
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
from PIL import Image, ImageCms, ImageOps

OUT = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ among the fixtures
sys.path.insert(0, os.path.dirname(OUT))
from make_fixtures import check, opaque, rgba_of  # noqa: E402  (the main generator's helpers)

W, H = 36, 26  # not a multiple of the 16-pixel tiles: edge tiles are partial
FIXTURES = []
WRITTEN = []


def write(name, data):
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    WRITTEN.append(name)


def pil_bytes(im, fmt, **params):
    buf = io.BytesIO()
    im.save(buf, format=fmt, **params)
    return buf.getvalue()


def max_err(a, b):
    check(a.shape == b.shape, "shapes %s %s" % (a.shape, b.shape))
    return int(np.abs(a.astype(np.int32) - b.astype(np.int32)).max())


def psnr(a, b):
    d = (a[..., :3].astype(np.float64) - b[..., :3].astype(np.float64)) ** 2
    return float("inf") if d.mean() == 0 else 10 * np.log10(255 * 255 / d.mean())


def pillow_decode(name):
    with Image.open(os.path.join(OUT, name)) as im:
        im.load()
        return rgba_of(im)


def add(name, ext, data, ref, reference, max_error=0, min_psnr=None, orientation=1, icc=None,
        pillow_max_error=None, thumbnail=None, notes=""):
    """Writes the fixture and its reference; with reference "source", compares Pillow's decode."""
    file = name + "." + ext
    write(file, data)
    ref = np.ascontiguousarray(ref, dtype=np.uint8)
    check(ref.ndim == 3 and ref.shape[2] == 4, name + " ref shape")
    write(name + ".ref.png", pil_bytes(Image.fromarray(ref, "RGBA"), "PNG", optimize=True))
    if pillow_max_error is not None:
        got = pillow_decode(file)
        if orientation != 1:
            with Image.open(os.path.join(OUT, file)) as im:
                got = rgba_of(ImageOps.exif_transpose(im))
        check(max_err(got, ref) <= pillow_max_error, "%s: Pillow differs by %d" % (name, max_err(got, ref)))
    entry = {"file": file, "ref": name + ".ref.png", "width": int(ref.shape[1]), "height": int(ref.shape[0]),
             "hasAlpha": bool((ref[..., 3] < 255).any()), "reference": reference, "maxError": max_error,
             "orientation": orientation}
    if min_psnr is not None:
        entry["minPSNR"] = min_psnr
    if icc is not None:
        entry["icc"] = icc
    if pillow_max_error is not None:
        entry["pillowMaxError"] = pillow_max_error
    if thumbnail is not None:
        size, pixels = thumbnail
        write(name + ".thumbnail.ref.png", pil_bytes(Image.fromarray(pixels, "RGBA"), "PNG", optimize=True))
        entry["thumbnail"] = {"maxPixelSize": size, "ref": name + ".thumbnail.ref.png"}
    if notes:
        entry["notes"] = notes
    FIXTURES.append(entry)


def pillow_ref(name, ext, data, max_error=0, min_psnr=None, orientation=1, icc=None, thumbnail=None, notes=""):
    """A fixture whose reference is Pillow's decode (upright)."""
    with Image.open(io.BytesIO(data)) as im:
        im.load()
        ref = rgba_of(ImageOps.exif_transpose(im) if orientation != 1 else im)
    add(name, ext, data, ref, "pillow", max_error, min_psnr, orientation, icc, thumbnail=thumbnail, notes=notes)
    return ref


# ----------------------------------------------------------------------------
# sources
# ----------------------------------------------------------------------------

def srgb_profile():
    """LittleCMS's sRGB profile with its creation date fixed and no profile ID, so that the
    bytes do not change from run to run."""
    profile = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    profile[24:36] = struct.pack(">6H", 2024, 1, 1, 0, 0, 0)
    profile[84:100] = bytes(16)
    return bytes(profile)


def source_rgb(seed, w=W, h=H):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    rgb = np.stack([x * 255 // (w - 1), y * 255 // (h - 1), ((x * 7 + y * 5) * 3) % 256], axis=2)
    rgb = rgb + rng.integers(-3, 4, size=rgb.shape)
    return np.clip(rgb, 0, 255).astype(np.uint8)


def source_alpha(seed, w=W, h=H):
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    a = (x * 255 // (w - 1)).astype(np.int64)
    a[:, :4] = 0
    a[:, -4:] = 255
    a[h // 2:, 8:14] = rng.integers(1, 5, size=(h - h // 2, 6))  # tiny alphas: division rounding
    return a.astype(np.uint8)


def source16(seed, channels, w=W, h=H):
    """16-bit samples spread over the range, many with low bytes that change the rounding."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:h, 0:w]
    base = np.stack([(x * 65535 // (w - 1) + c * 9001 + y * 37) % 65536 for c in range(channels)], axis=2)
    return ((base + rng.integers(0, 256, size=base.shape)) % 65536).astype(np.uint16)


def reduce16(v):
    return ((v.astype(np.int64) * 255 + 32767) // 65535).astype(np.uint8)


def reduce_bits(v, bits):
    m = (1 << bits) - 1
    return ((v.astype(np.int64) * 255 + m // 2) // m).astype(np.uint8)


def palette_image(seed, colors, w=W, h=H):
    """Indices in horizontal runs (for RLE) and a palette of `colors` entries."""
    rng = np.random.default_rng(seed)
    idx = np.zeros((h, w), np.int64)
    for yy in range(h):
        x = 0
        while x < w:
            n = int(rng.integers(1, 9))
            if rng.random() < 0.4:
                idx[yy, x:x + n] = rng.integers(0, colors, size=min(n, w - x))  # literal stretch
            else:
                idx[yy, x:x + n] = rng.integers(0, colors)
            x += n
    pal = rng.integers(0, 256, size=(colors, 3)).astype(np.uint8)
    return idx, pal


# ----------------------------------------------------------------------------
# a small TIFF writer: every layout the decoder reads, uncompressed or Deflate
# ----------------------------------------------------------------------------

TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1}


def pack_samples(values, bits, big_endian):
    """A row of sample values -> bytes, MSB first, padded to a byte."""
    values = [int(v) for v in values]
    if bits == 8:
        return bytes(values)
    if bits == 16:
        return struct.pack((">" if big_endian else "<") + "%dH" % len(values), *values)
    out, acc, n = bytearray(), 0, 0
    for v in values:
        acc = (acc << bits) | v
        n += bits
        while n >= 8:
            n -= 8
            out.append((acc >> n) & 0xFF)
    if n:
        out.append((acc << (8 - n)) & 0xFF)
    return bytes(out)


def tiff_bytes(samples, bits, photometric, extra=None, planar=False, tile=None, rows_per_strip=None,
               deflate=False, big_endian=False, colormap=None, orientation=None, icc=None, sample_format=None,
               ink_set=None):
    """samples: (h, w, spp) integers. Returns a classic TIFF with one image."""
    h, w, spp = samples.shape
    e = ">" if big_endian else "<"
    planes = [samples[..., p:p + 1] for p in range(spp)] if planar else [samples]

    def block_rows(plane, y0, rows, x0, cols):
        part = np.zeros((rows, cols, plane.shape[2]), np.int64)
        src = plane[y0:y0 + rows, x0:x0 + cols]
        part[:src.shape[0], :src.shape[1]] = src
        return b"".join(pack_samples(r.reshape(-1), bits, big_endian) for r in part)

    blocks = []
    if tile:
        tw, th = tile
        for plane in planes:
            for ty in range(0, h, th):
                for tx in range(0, w, tw):
                    blocks.append(block_rows(plane, ty, th, tx, tw))
    else:
        rps = rows_per_strip or h
        for plane in planes:
            for y0 in range(0, h, rps):
                blocks.append(block_rows(plane, y0, min(rps, h - y0), 0, w))
    if deflate:
        blocks = [zlib.compress(b, 9) for b in blocks]

    tags = {256: (4, [w]), 257: (4, [h]), 258: (3, [bits] * spp), 259: (3, [8 if deflate else 1]),
            262: (3, [photometric]), 277: (3, [spp]), 284: (3, [2 if planar else 1])}
    if tile:
        tags[322] = (3, [tile[0]])
        tags[323] = (3, [tile[1]])
    else:
        tags[278] = (4, [rows_per_strip or h])
    if extra:
        tags[338] = (3, extra)
    if colormap is not None:
        tags[320] = (3, [int(v) for v in colormap[:, 0]] + [int(v) for v in colormap[:, 1]] +
                     [int(v) for v in colormap[:, 2]])
    if orientation:
        tags[274] = (3, [orientation])
    if icc:
        tags[34675] = (7, list(icc))
    if sample_format:
        tags[339] = (3, [sample_format] * spp)
    if ink_set:
        tags[332] = (3, [ink_set])
    offsets_tag, counts_tag = (324, 325) if tile else (273, 279)
    tags[offsets_tag] = (4, [0] * len(blocks))
    tags[counts_tag] = (4, [len(b) for b in blocks])

    # Layout: header, pixel blocks, out-of-line tag values, IFD.
    data = bytearray(b"MM\x00\x2a" if big_endian else b"II\x2a\x00")
    data += b"\0\0\0\0"
    offsets = []
    for b in blocks:
        offsets.append(len(data))
        data += b
        if len(data) % 2:
            data += b"\0"
    tags[offsets_tag] = (4, offsets)
    entries = []
    for tag in sorted(tags):
        typ, values = tags[tag]
        fmt = {1: "B", 3: "H", 4: "I", 7: "B"}[typ]
        raw = struct.pack(e + "%d%s" % (len(values), fmt), *values)
        if len(raw) <= 4:
            entries.append((tag, typ, len(values), raw.ljust(4, b"\0")))
        else:
            entries.append((tag, typ, len(values), struct.pack(e + "I", len(data))))
            data += raw
            if len(data) % 2:
                data += b"\0"
    ifd = len(data)
    data[4:8] = struct.pack(e + "I", ifd)
    data += struct.pack(e + "H", len(entries))
    for tag, typ, count, value in entries:
        data += struct.pack(e + "HHI", tag, typ, count) + value
    data += b"\0\0\0\0"
    return bytes(data)


def tiffcp(data, *args):
    src, dst = os.path.join(OUT, ".tiffcp-in.tif"), os.path.join(OUT, ".tiffcp-out.tif")
    with open(src, "wb") as f:
        f.write(data)
    try:
        subprocess.run(["tiffcp", *args, src, dst], check=True)
        with open(dst, "rb") as f:
            return f.read()
    finally:
        for p in (src, dst):
            if os.path.exists(p):
                os.remove(p)


def orient(rgba, orientation):
    """The upright pixels of `rgba` stored with EXIF `orientation`."""
    return {1: lambda a: a, 2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
            5: lambda a: a.transpose(1, 0, 2), 6: lambda a: np.rot90(a, -1), 7: lambda a: np.rot90(a, 1)[::-1],
            8: lambda a: np.rot90(a, 1)}[orientation](rgba)


def make_tiffs():
    rgb = source_rgb(1)
    im = Image.fromarray(rgb)
    for compression, suffix in ((None, "none"), ("tiff_lzw", "lzw"), ("tiff_adobe_deflate", "deflate"),
                                ("packbits", "packbits")):
        params = {"compression": compression} if compression else {}
        data = pil_bytes(im, "TIFF", **params)
        ref = pillow_ref("tiff_rgb8_" + suffix, "tif", data, notes="Pillow, 8-bit RGB, %s" % suffix)
        check(max_err(ref, opaque(rgb)) == 0, suffix)
    pillow_ref("tiff_rgb8_jpeg", "tif", pil_bytes(im, "TIFF", compression="jpeg", quality=90), min_psnr=45,
               notes="Pillow, RGB photometric, JPEG compression")
    ycbcr = tiffcp(tiff_bytes(rgb, 8, 2), "-c", "jpeg:90", "-r", "16")
    pillow_ref("tiff_ycbcr_jpeg", "tif", ycbcr, min_psnr=45, notes="tiffcp -c jpeg: YCbCr 4:2:0 JPEG in strips")
    tiled = tiffcp(tiff_bytes(rgb, 8, 2), "-c", "lzw", "-t", "-w", "16", "-l", "16")
    pillow_ref("tiff_tiled_lzw", "tif", tiled, notes="tiffcp: 16x16 tiles (partial at the edges), LZW")

    alpha = source_alpha(2)
    rgba = np.concatenate([rgb, alpha[..., None]], axis=2)
    pillow_ref("tiff_rgba_unassociated", "tif", pil_bytes(Image.fromarray(rgba, "RGBA"), "TIFF", compression="tiff_lzw"),
               notes="Pillow RGBA: ExtraSamples 2 (unassociated)")
    a = rgba[..., 3:].astype(np.int64)
    premultiplied = np.concatenate([(rgba[..., :3] * a + 127) // 255, a], axis=2)
    # Pillow divides with truncation, the decoder rounds: 1 apart at most.
    pillow_ref("tiff_rgba_associated", "tif", tiff_bytes(premultiplied, 8, 2, extra=[1], deflate=True), max_error=1,
               notes="ExtraSamples 1 (associated alpha), Deflate")

    rgb16 = source16(3, 3)
    add("tiff_rgb16", "tif", tiff_bytes(rgb16, 16, 2, big_endian=True, rows_per_strip=8), opaque(reduce16(rgb16)),
        "source", pillow_max_error=1, notes="big-endian 16-bit RGB; ref rounds (v*255+32767)/65535")
    rgba16 = np.concatenate([source16(4, 3), source16(5, 1)], axis=2)
    rgba16[:, :3, 3] = 0
    rgba16[:, 3:6, 3] = 65535
    add("tiff_rgba16_planar", "tif", tiff_bytes(rgba16, 16, 2, extra=[2], planar=True, rows_per_strip=7, deflate=True),
        np.concatenate([reduce16(rgba16[..., :3]), reduce16(rgba16[..., 3:])], axis=2), "source",
        notes="planar (separate) 16-bit RGBA, unassociated alpha, 7-row strips, Deflate")
    add("tiff_rgb8_planar_tiled", "tif", tiff_bytes(rgb.astype(np.int64), 8, 2, planar=True, tile=(16, 16)),
        opaque(rgb), "source", pillow_max_error=0, notes="planar (separate) and tiled")

    gray = source_rgb(6)[..., 0]
    pillow_ref("tiff_gray8", "tif", pil_bytes(Image.fromarray(gray, "L"), "TIFF"), notes="Pillow L")
    bilevel = (gray > 128).astype(np.int64)
    pillow_ref("tiff_gray1", "tif", tiff_bytes(bilevel[..., None], 1, 1, rows_per_strip=5), notes="1-bit, min-is-black")
    pillow_ref("tiff_gray1_miniswhite", "tif", tiff_bytes(bilevel[..., None], 1, 0), notes="1-bit, min-is-white")
    gray4 = (gray >> 4).astype(np.int64)
    g4 = reduce_bits(gray4, 4)
    add("tiff_gray4", "tif", tiff_bytes(gray4[..., None], 4, 1), opaque(np.stack([g4] * 3, axis=2)), "source",
        pillow_max_error=0, notes="4-bit grey")
    gray16 = source16(7, 1)
    g16 = reduce16(gray16[..., 0])
    add("tiff_gray16", "tif", tiff_bytes(gray16, 16, 1), opaque(np.stack([g16] * 3, axis=2)), "source",
        notes="little-endian 16-bit grey (Pillow reads it as I;16 and clips, rather than scales, to 8 bits)")
    gray_alpha = np.stack([gray, alpha], axis=2).astype(np.int64)
    pillow_ref("tiff_gray_alpha", "tif", tiff_bytes(gray_alpha, 8, 1, extra=[2]), notes="grey + unassociated alpha")

    idx, pal = palette_image(8, 256)
    pim = Image.fromarray(idx.astype(np.uint8), "P")
    pim.putpalette(pal.reshape(-1).tolist())
    pillow_ref("tiff_palette8", "tif", pil_bytes(pim, "TIFF"), notes="Pillow P: colour map entries scaled by 256")
    idx4, pal4 = palette_image(9, 16)
    cmap = np.zeros((16, 3), np.int64)
    cmap[:, :] = pal4.astype(np.int64) * 257
    pillow_ref("tiff_palette4", "tif", tiff_bytes(idx4[..., None], 4, 3, colormap=cmap, rows_per_strip=10),
               notes="4-bit palette, colour map entries scaled by 257")

    for orientation in (6, 3, 8):
        data = tiff_bytes(rgb.astype(np.int64), 8, 2, orientation=orientation)
        ref = pillow_ref("tiff_orientation_%d" % orientation, "tif", data, orientation=orientation,
                         notes="Orientation tag %d" % orientation)
        check(max_err(ref, orient(opaque(rgb), orientation)) == 0, "orientation %d" % orientation)

    cmyk = Image.fromarray(rgb).convert("CMYK")
    pillow_ref("tiff_cmyk", "tif", pil_bytes(cmyk, "TIFF", compression="tiff_lzw"), max_error=1,
               notes="Pillow CMYK; naive (1-C)(1-K) conversion")

    profile = srgb_profile()
    pillow_ref("tiff_icc", "tif", pil_bytes(im, "TIFF", icc_profile=profile), icc=len(profile),
               notes="ICC profile (Pillow's sRGB) in tag 34675")

    page2 = Image.fromarray(source_rgb(10))
    pillow_ref("tiff_multipage", "tif", pil_bytes(im, "TIFF", save_all=True, append_images=[page2]),
               notes="two pages: the first is decoded")

    signed = gray.astype(np.int64)
    add("tiff_gray8_signed", "tif", tiff_bytes(signed[..., None], 8, 1, sample_format=2, orientation=6),
        orient(opaque(np.stack([gray] * 3, axis=2)), 6), "source", orientation=6,
        notes="SampleFormat 2, Orientation 6: through libtiff's RGBA reader, which reads the bytes as unsigned")


# ----------------------------------------------------------------------------
# a BMP writer: every header, depth and compression
# ----------------------------------------------------------------------------

def bmp_rows(values, bits):
    """(h, w) pixel values (indices, or packed pixel integers for 16/24/32) -> padded rows."""
    rows = []
    for r in values:
        if bits <= 8:
            raw = pack_samples(r, bits, True)
        else:
            raw = b"".join(int(v).to_bytes(bits // 8, "little") for v in r)
        rows.append(raw + b"\0" * (-len(raw) % 4))
    return rows


def dib_header(w, h, bits, size=40, compression=0, colors=0, masks=None, image_size=0, cs_type=0,
               profile=None):
    if size == 12:
        return struct.pack("<IHHHH", 12, w, h, 1, bits)
    head = struct.pack("<IiiHHIIiiII", size, w, h, 1, bits, compression, image_size, 2835, 2835, colors, 0)
    m = list(masks or (0, 0, 0, 0))
    if size >= 52:
        head += struct.pack("<III", *m[:3])
    if size >= 56:
        head += struct.pack("<I", m[3])
    if size >= 108:
        head += struct.pack("<I", cs_type) + b"\0" * 36 + b"\0" * 12
    if size >= 124:
        head += struct.pack("<IIII", 4, profile[0] if profile else 0, profile[1] if profile else 0, 0)
    if size == 40 and compression in (3, 6):
        head += struct.pack("<%dI" % (4 if compression == 6 else 3), *m[:4 if compression == 6 else 3])
    return head


def bmp_bytes(w, h, bits, pixel_data, palette=None, top_down=False, profile=None, **header):
    pal = b""
    if palette is not None:
        size = header.get("size", 40)
        pal = b"".join(bytes([b, g, r]) + (b"" if size == 12 else b"\0") for r, g, b in palette)
    dib_size = len(dib_header(w, h, bits, **header)) + len(pal)
    if profile is not None:
        header["profile"] = (dib_size + len(pixel_data), len(profile))
    dib = dib_header(w, -h if top_down else h, bits, **header) + pal
    offset = 14 + len(dib)
    body = dib + pixel_data + (profile or b"")
    return b"BM" + struct.pack("<IHHI", 14 + len(body), 0, 0, offset) + body


def palette_rgba(idx, pal):
    return opaque(pal[idx])


def rle_stream(idx, four_bit, absolute_even=True):
    """Bottom-up RLE of every row, each ended by end-of-line, then end-of-bitmap."""
    out = bytearray()
    for row in idx[::-1]:
        row = [int(v) for v in row]
        i = 0
        while i < len(row):
            j = i
            while j < len(row) and row[j] == row[i] and j - i < 255:
                j += 1
            if j - i >= 2:
                out += bytes([j - i, row[i] * 17 if four_bit else row[i]])
                i = j
                continue
            k = i  # a literal stretch up to the next pair
            while k < len(row) and (k + 1 >= len(row) or row[k] != row[k + 1]) and k - i < 254:
                k += 1
            n = k - i
            if four_bit and absolute_even and n % 2:
                n -= 1  # Pillow mishandles odd absolute runs in RLE4
            if n >= 3:
                lit = row[i:i + n]
                if four_bit:
                    packed = bytes((lit[t] << 4) | (lit[t + 1] if t + 1 < n else 0) for t in range(0, n, 2))
                else:
                    packed = bytes(lit)
                out += bytes([0, n]) + packed + b"\0" * (len(packed) % 2)
                i += n
            else:
                out += bytes([1, row[i] * 17 if four_bit else row[i]])
                i += 1
        out += b"\0\0"
    return bytes(out + b"\0\1")


def rle_model(stream, w, h, pal, four_bit):
    """What a decoder shows for an RLE stream: undefined pixels transparent black."""
    out = np.zeros((h, w, 4), np.uint8)
    x = y = p = 0

    def put(v):
        nonlocal x
        if x < w and y < h:
            out[h - 1 - y, x] = list(pal[v]) + [255]
        x += 1
    while y < h and p + 2 <= len(stream):
        n, v = stream[p], stream[p + 1]
        p += 2
        if n:
            for i in range(n):
                put((v >> 4 if i % 2 == 0 else v & 15) if four_bit else v)
        elif v == 0:
            x, y = 0, y + 1
        elif v == 1:
            break
        elif v == 2:
            x, y, p = x + stream[p], y + stream[p + 1], p + 2
        else:
            length = (v + 1) // 2 if four_bit else v
            for i in range(v):
                b = stream[p + (i // 2 if four_bit else i)]
                put((b >> 4 if i % 2 == 0 else b & 15) if four_bit else b)
            p += length + length % 2
    return out


def make_bmps():
    rgb = source_rgb(20)
    for bits, colors in ((1, 2), (4, 16), (8, 256)):
        idx, pal = palette_image(20 + bits, colors)
        used = 200 if bits == 8 else 0  # a partial palette
        if used:
            idx = idx % used
        data = bmp_bytes(W, H, bits, b"".join(bmp_rows(idx[::-1], bits)), palette=pal[:used or colors],
                         colors=used)
        pillow_ref("bmp_%dbit" % bits, "bmp", data, notes="%d-bit palette" % bits)
    idx, pal = palette_image(24, 4)
    add("bmp_2bit", "bmp", bmp_bytes(W, H, 2, b"".join(bmp_rows(idx[::-1], 2)), palette=pal),
        palette_rgba(idx, pal), "source", notes="2-bit palette (Windows CE); Pillow cannot read it")
    idx, pal = palette_image(25, 16)
    pillow_ref("bmp_core_4bit", "bmp", bmp_bytes(W, H, 4, b"".join(bmp_rows(idx[::-1], 4)), palette=pal, size=12),
               notes="BITMAPCOREHEADER, 3-byte palette entries")

    bgr = [[int(r[2]) | int(r[1]) << 8 | int(r[0]) << 16 for r in row] for row in rgb]
    bgr = np.array(bgr, np.int64)
    pillow_ref("bmp_24", "bmp", bmp_bytes(W, H, 24, b"".join(bmp_rows(bgr[::-1], 24))), notes="24-bit BGR")
    pillow_ref("bmp_24_topdown", "bmp", bmp_bytes(W, H, 24, b"".join(bmp_rows(bgr, 24)), top_down=True),
               notes="24-bit, negative height (top-down)")
    junk = np.random.default_rng(26).integers(0, 256, size=(H, W)).astype(np.int64) << 24
    pillow_ref("bmp_32_rgb", "bmp", bmp_bytes(W, H, 32, b"".join(bmp_rows((bgr | junk)[::-1], 32))),
               notes="32-bit BI_RGB, 40-byte header: the fourth byte (random here) is ignored")

    r5, g5, b5 = (rgb[..., 0] >> 3).astype(np.int64), (rgb[..., 1] >> 3).astype(np.int64), (rgb[..., 2] >> 3).astype(np.int64)
    g6 = (rgb[..., 1] >> 2).astype(np.int64)
    p555 = r5 << 10 | g5 << 5 | b5
    add("bmp_16_555", "bmp", bmp_bytes(W, H, 16, b"".join(bmp_rows(p555[::-1], 16))),
        opaque(np.stack([reduce_bits(r5, 5), reduce_bits(g5, 5), reduce_bits(b5, 5)], axis=2)), "source",
        pillow_max_error=1, notes="16-bit BI_RGB (5-5-5); ref rounds v*255/31, Pillow truncates")
    p565 = r5 << 11 | g6 << 5 | b5
    add("bmp_16_565", "bmp", bmp_bytes(W, H, 16, b"".join(bmp_rows(p565[::-1], 16)), compression=3,
                                       masks=(0xF800, 0x07E0, 0x001F, 0)),
        opaque(np.stack([reduce_bits(r5, 5), reduce_bits(g6, 6), reduce_bits(b5, 5)], axis=2)), "source",
        pillow_max_error=1, notes="16-bit BI_BITFIELDS 5-6-5 masks after a 40-byte header")

    alpha = source_alpha(27)
    bgra = bgr | alpha.astype(np.int64) << 24
    pillow_ref("bmp_32_v5_alpha", "bmp", bmp_bytes(W, H, 32, b"".join(bmp_rows(bgra[::-1], 32)), size=124,
                                                   compression=3, masks=(0xFF0000, 0xFF00, 0xFF, 0xFF000000),
                                                   cs_type=0x73524742),
               notes="V5 header, BI_BITFIELDS with an alpha mask, LCS_sRGB")
    r10, g10, b10 = (rgb[..., 0].astype(np.int64) * 4 + 1), (rgb[..., 1].astype(np.int64) * 4 + 2), rgb[..., 2].astype(np.int64) * 4
    a2 = (alpha.astype(np.int64) >> 6)
    p1010102 = b10 << 22 | g10 << 12 | r10 << 2 | a2  # unusual order: masks say where each channel is
    ref = np.stack([reduce_bits(r10, 10), reduce_bits(g10, 10), reduce_bits(b10, 10), reduce_bits(a2, 2)], axis=2)
    add("bmp_32_bitfields_10bit", "bmp", bmp_bytes(W, H, 32, b"".join(bmp_rows(p1010102[::-1], 32)), size=56,
                                                   compression=3, masks=(0x3FF << 2, 0x3FF << 12, 0x3FF << 22, 3)),
        ref, "source", notes="V3 header, 10-10-10-2 bit fields in an unusual order; Pillow cannot read it")

    profile = srgb_profile()
    pillow_ref("bmp_v5_icc", "bmp", bmp_bytes(W, H, 24, b"".join(bmp_rows(bgr[::-1], 24)), size=124,
                                              cs_type=0x4D424544, profile=profile),
               icc=len(profile), notes="V5 header with an embedded ICC profile (PROFILE_EMBEDDED)")

    idx, pal = palette_image(28, 256)
    pillow_ref("bmp_rle8", "bmp", bmp_bytes(W, H, 8, rle_stream(idx, False), palette=pal, compression=1),
               notes="RLE8: encoded and absolute runs, end of line, end of bitmap")
    idx4, pal4 = palette_image(29, 16)
    stream4 = rle_stream(idx4, True)
    check(max_err(rle_model(stream4, W, H, pal4, True), palette_rgba(idx4, pal4)) == 0, "rle4 model")
    pillow_ref("bmp_rle4", "bmp", bmp_bytes(W, H, 4, stream4, palette=pal4, compression=2),
               notes="RLE4: encoded and (even) absolute runs")
    # Deltas, early ends of line, an odd RLE4-style absolute run and an early end of bitmap:
    # undefined pixels are transparent (Pillow fills index 0 and misreads deltas).
    delta = bytes([5, 1, 0, 2, 3, 2, 6, 7, 0, 0, 0, 5, 1, 2, 3, 4, 5, 0, 30, 9, 0, 0, 0, 2, 10, 3, 255, 4, 0, 0, 7, 8, 0, 1])
    add("bmp_rle8_delta", "bmp", bmp_bytes(W, H, 8, delta, palette=pal, compression=1),
        rle_model(delta, W, H, pal, False), "source",
        notes="RLE8 with deltas, early end of line, a run past the row's end and an early end of bitmap")

    png = pil_bytes(Image.fromarray(rgb), "PNG")
    add("bmp_embedded_png", "bmp", bmp_bytes(W, H, 0, png, compression=5, image_size=len(png)), opaque(rgb), "source",
        notes="BI_PNG: the pixel data is a PNG file; Pillow cannot read it")


# ----------------------------------------------------------------------------
# ICO: PNG entries and BMP entries with AND masks
# ----------------------------------------------------------------------------

def icon_dib(rgba, bits, palette=None, indices=None, zero_alpha=False):
    """A BMP icon entry: 40-byte header with doubled height, XOR bitmap, AND mask."""
    h, w = rgba.shape[:2]
    mask = (rgba[..., 3] < 128).astype(np.int64)
    if bits == 32:
        a = np.zeros_like(rgba[..., 3]) if zero_alpha else rgba[..., 3]
        vals = (rgba[..., 2].astype(np.int64) | rgba[..., 1].astype(np.int64) << 8 |
                rgba[..., 0].astype(np.int64) << 16 | a.astype(np.int64) << 24)
    elif bits == 24:
        vals = rgba[..., 2].astype(np.int64) | rgba[..., 1].astype(np.int64) << 8 | rgba[..., 0].astype(np.int64) << 16
    else:
        vals = indices
    xor = b"".join(bmp_rows(vals[::-1], bits))
    # The AND mask: 1 bit per pixel, rows padded to 32 bits, bottom-up.
    andmask = b"".join(bmp_rows(mask[::-1], 1))
    pal = b"".join(bytes([b, g, r, 0]) for r, g, b in palette) if palette is not None else b""
    return dib_header(w, h * 2, bits, colors=0) + pal + xor + andmask


def ico_bytes(entries):
    """entries: (width, height, bits, data)."""
    out = struct.pack("<HHH", 0, 1, len(entries))
    offset = 6 + 16 * len(entries)
    body = b""
    for w, h, bits, data in entries:
        out += struct.pack("<BBBBHHII", w % 256, h % 256, 0 if bits >= 8 else 1 << bits, 0, 1, bits, len(data),
                           offset + len(body))
        body += data
    return out + body


def tinted(size, seed):
    rgb = source_rgb(seed, size, size)
    a = source_alpha(seed, size, size)
    return np.concatenate([rgb, a[..., None]], axis=2)


def masked(rgba):
    """What a 1-bit AND mask keeps of `rgba`: alpha 0 or 255, colour as stored."""
    out = rgba.copy()
    out[..., 3] = np.where(rgba[..., 3] < 128, 0, 255)
    return out


def make_icos():
    sizes = (16, 24, 32)
    images = {s: tinted(s, 40 + s) for s in sizes}
    pngs = [(s, s, 32, pil_bytes(Image.fromarray(images[s], "RGBA"), "PNG")) for s in sizes]
    pillow_ref("ico_png", "ico", ico_bytes(pngs), thumbnail=(24, images[24]),
               notes="PNG entries 16, 24, 32: the 32 is decoded; a 24-pixel thumbnail is the 24 entry as is")

    bmp32 = [(s, s, 32, icon_dib(images[s], 32)) for s in sizes]
    pillow_ref("ico_bmp32", "ico", ico_bytes(bmp32), notes="32-bit BMP entries with alpha (AND mask unused)")

    idx, pal = palette_image(50, 256, 24, 24)
    rgba8 = np.concatenate([pal[idx], source_alpha(51, 24, 24)[..., None]], axis=2)
    pillow_ref("ico_bmp8_mask", "ico", ico_bytes([(24, 24, 8, icon_dib(rgba8, 8, pal, idx))]),
               notes="8-bit BMP entry: AND mask as transparency")
    check(max_err(pillow_decode("ico_bmp8_mask.ico"), masked(rgba8)) == 0, "AND mask model")
    idx4, pal4 = palette_image(52, 16, 24, 24)
    rgba4 = np.concatenate([pal4[idx4], source_alpha(53, 24, 24)[..., None]], axis=2)
    rgba24 = tinted(16, 54)
    # Sizes 16 (24-bit), 24 (4-bit), 24 (32-bit): the tie at 24 goes to the deeper entry.
    mixed = [(16, 16, 24, icon_dib(rgba24, 24)), (24, 24, 4, icon_dib(rgba4, 4, pal4, idx4)),
             (24, 24, 32, icon_dib(tinted(24, 55), 32))]
    add("ico_mixed_depths", "ico", ico_bytes(mixed), tinted(24, 55), "source",
        notes="24-bit, 4-bit and 32-bit BMP entries: the 32-bit of the two largest is decoded "
              "(Pillow 13 takes the 4-bit one of the tie)")
    add("ico_bmp4_mask", "ico", ico_bytes([(24, 24, 4, icon_dib(rgba4, 4, pal4, idx4))]), masked(rgba4), "source",
        pillow_max_error=0, notes="4-bit BMP entry with AND mask")
    add("ico_bmp24_mask", "ico", ico_bytes([(16, 16, 24, icon_dib(rgba24, 24))]), masked(rgba24), "source",
        pillow_max_error=0, notes="24-bit BMP entry with AND mask")
    zero = tinted(16, 56)
    add("ico_bmp32_zero_alpha", "ico", ico_bytes([(16, 16, 32, icon_dib(zero, 32, zero_alpha=True))]), masked(zero),
        "source", notes="32-bit entry whose alpha is all zero: the AND mask gives transparency (Pillow: all clear)")
    big = tinted(20, 57)  # directory size 0 means 256: this 20-pixel PNG says 0 x 0 there
    add("ico_size_zero", "ico", ico_bytes([(16, 16, 32, pngs[0][3]), (256, 256, 32, pil_bytes(Image.fromarray(big), "PNG"))]),
        big, "source", notes="directory width/height 0 (256): chosen over 16, decoded at its real 20x20")


def main():
    make_tiffs()
    make_bmps()
    make_icos()
    with open(os.path.join(OUT, "manifest.json"), "w", encoding="utf-8") as f:
        json.dump({"generator": "make_raster_fixtures.py", "fixtures": FIXTURES}, f, indent=1)
        f.write("\n")
    WRITTEN.append("manifest.json")
    check(len(set(WRITTEN)) == len(WRITTEN), "a file was written twice")
    total = sum(os.path.getsize(os.path.join(OUT, n)) for n in WRITTEN)
    check(total < 300_000, "fixtures too large: %d bytes" % total)
    print("wrote %d files, %d bytes" % (len(WRITTEN), total))


if __name__ == "__main__":
    sys.exit(main())
