#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Writes the fixtures of malformed files that browsers still show into this directory.

Requirements: Python 3.11, `pip install pillow numpy tifffile` (Pillow 13, tifffile 2026.3).
Usage: python3 Tests/Fixtures/lenient/make_lenient_fixtures.py

Each file takes a small valid image and breaks it the way real files in the wild are broken
(stray bytes between JPEG markers, chunks out of order, invalid animation tables, ...).
`<name>.ref.png` holds the upright RGBA pixels a browser shows for it: Pillow's decode where
Pillow shows the file as browsers do, otherwise the pixels the file was made from.
`manifest.json` lists, for each file, its reference, the frames a decoder must report, and the
least PSNR against the reference (`null`: exact).
"""
import io
import json
import pathlib
import struct
import sys
import zlib

import numpy as np
from PIL import Image, ImageFile

HERE = pathlib.Path(__file__).resolve().parent
ENTRIES = []
sys.path.insert(0, str(HERE))


def pattern(width, height, seed, alpha=False):
    """A smooth photo-like RGB(A) image with edges, so lossy codecs have something to keep."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    a = np.zeros((height, width, 4), np.float64)
    a[..., 0] = 128 + 100 * np.sin(x / 9 + seed)
    a[..., 1] = 128 + 100 * np.cos(y / 7 - seed)
    a[..., 2] = (x + y) * 255 / (width + height)
    cx, cy = rng.integers(width // 4, 3 * width // 4), rng.integers(height // 4, 3 * height // 4)
    disc = (x - cx) ** 2 + (y - cy) ** 2 < (min(width, height) / 4) ** 2
    a[disc, :3] = rng.integers(0, 256, 3)
    a[..., 3] = 255
    if alpha:
        a[..., 3] = np.where(disc, 160, 255)
        a[: height // 6, : width // 6, 3] = 0
    return np.clip(np.rint(a), 0, 255).astype(np.uint8)


def save_ref(name, rgba):
    Image.fromarray(rgba, "RGBA").save(HERE / f"{name}.ref.png", optimize=False)


def add(name, file, data, rgba, frames=1, min_psnr=None, note=""):
    (HERE / file).write_bytes(data)
    save_ref(name, rgba)
    ENTRIES.append({"file": file, "ref": f"{name}.ref.png", "width": rgba.shape[1], "height": rgba.shape[0],
                    "frames": frames, "minPSNR": min_psnr, "note": note})


def pillow_rgba(data, truncated=False):
    ImageFile.LOAD_TRUNCATED_IMAGES = truncated
    try:
        with Image.open(io.BytesIO(data)) as im:
            im.load()
            return np.asarray(im.convert("RGBA"))
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = False


# ---------------------------------------------------------------------------------------------
# JPEG: libjpeg warnings that browsers pass over
# ---------------------------------------------------------------------------------------------

def jpeg_segments(data):
    """(marker, start, end) of each segment before the first scan's data, start at its 0xFF."""
    out, i = [], 2
    while i < len(data):
        marker = data[i + 1]
        length = struct.unpack(">H", data[i + 2:i + 4])[0]
        out.append((marker, i, i + 2 + length))
        if marker == 0xDA:
            break
        i += 2 + length
    return out


def make_jpegs():
    base = io.BytesIO()
    Image.fromarray(pattern(96, 64, 1)[..., :3], "RGB").save(base, "JPEG", quality=90, exif=b"Exif\0\0MM\0*\0\0\0\x08\0\0\0\0\0\0")
    jpeg = base.getvalue()
    segments = jpeg_segments(jpeg)
    dqt = next(start for marker, start, _ in segments if marker == 0xDB)
    app1 = next(start for marker, start, _ in segments if marker == 0xE1)

    def case(name, data, note, truncated=False):
        add(name, f"{name}.jpg", data, pillow_rgba(data, truncated), min_psnr=45, note=note)

    case("jpeg_extraneous_before_dqt", jpeg[:dqt] + b"\x12\x34\x56\x78" + jpeg[dqt:],
         "Corrupt JPEG data: 4 extraneous bytes before marker 0xdb")
    # Junk after the first segment (the file still starts FF D8 FF, which browsers sniff), and
    # fill bytes (0xFF, legal) before the next marker.
    app0_end = segments[0][2]
    case("jpeg_junk_after_soi", jpeg[:app0_end] + b"\x00\x00JUNK\x01\xff\xff\xff" + jpeg[app0_end:],
         "junk and fill bytes after the SOI's first segment")
    # An Adobe APP14 segment cut to 7 bytes of its 12: too short for the colour transform flag.
    case("jpeg_short_app14", jpeg[:2] + b"\xff\xee\x00\x09Adobe\x00\x64" + jpeg[2:], "APP14 shorter than Adobe's 12 bytes")
    case("jpeg_stray_before_app1", jpeg[:app1] + bytes(range(0x30, 0x40)) + jpeg[app1:],
         "16 stray bytes before APP1, as some Photoshop files have")
    # Cut in the entropy-coded data: browsers show the rows that arrived, the rest grey.
    sos_end = segments[-1][2]
    cut = jpeg[:sos_end + (len(jpeg) - sos_end) * 3 // 5]
    case("jpeg_truncated", cut, "ends in the middle of its scan (no EOI)", truncated=True)


# ---------------------------------------------------------------------------------------------
# PNG: chunks out of order, animations whose tables are broken
# ---------------------------------------------------------------------------------------------

def chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def ihdr(width, height, depth, color_type):
    return chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 0))


def image_data(rows):
    """zlib data of unfiltered scanlines (`rows`: bytes per row, filter byte added)."""
    return zlib.compress(b"".join(b"\0" + row for row in rows), 9)


PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def make_pngs():
    # A palette image whose tRNS comes before its PLTE: libpng takes it, and so do browsers.
    width, height = 24, 16
    rng = np.random.default_rng(7)
    palette = rng.integers(0, 256, (16, 3)).astype(np.uint8)
    alphas = np.array([0, 64, 128, 200], np.uint8)
    y, x = np.mgrid[0:height, 0:width]
    indices = ((x // 3 + y // 2) % 16).astype(np.uint8)
    data = (PNG_SIGNATURE + ihdr(width, height, 8, 3) + chunk(b"tRNS", alphas.tobytes())
            + chunk(b"PLTE", palette.tobytes()) + chunk(b"IDAT", image_data([r.tobytes() for r in indices]))
            + chunk(b"IEND", b""))
    rgba = np.zeros((height, width, 4), np.uint8)
    rgba[..., :3] = palette[indices]
    rgba[..., 3] = np.where(indices < len(alphas), alphas[np.minimum(indices, len(alphas) - 1)], 255)
    assert (pillow_rgba(data) == rgba).all(), "Pillow reads tRNS before PLTE differently"
    add("png_trns_before_plte", "png_trns_before_plte.png", data, rgba, note="tRNS before PLTE")

    # APNGs whose animation is invalid: the APNG specification and browsers show the default
    # image (the IDAT image) alone.
    width, height = 32, 24
    images = [pattern(width, height, seed, alpha=True) for seed in (2, 3, 4)]

    def fctl(sequence, delay=10):
        return chunk(b"fcTL", struct.pack(">IIIIIHHBB", sequence, width, height, 0, 0, delay, 100, 0, 0))

    def fdat(sequence, rgba):
        return chunk(b"fdAT", struct.pack(">I", sequence) + image_data([r.tobytes() for r in rgba]))

    def actl(frames):
        return chunk(b"acTL", struct.pack(">II", frames, 0))

    head = PNG_SIGNATURE + ihdr(width, height, 8, 6)
    idat = chunk(b"IDAT", image_data([r.tobytes() for r in images[0]]))
    end = chunk(b"IEND", b"")
    cases = {
        "apng_repeated_fctl": [actl(3), fctl(0), idat, fctl(1), fctl(2), fdat(3, images[1]), fctl(4), fdat(5, images[2])],
        "apng_missing_fctl": [actl(3), fctl(0), idat, fctl(1), fdat(2, images[1]), fdat(3, images[2])],
        "apng_bad_sequence": [actl(3), fctl(0), idat, fctl(1), fdat(2, images[1]), fctl(7), fdat(8, images[2])],
        "apng_zero_frames": [actl(0), fctl(0), idat, fctl(1), fdat(2, images[1]), fctl(3), fdat(4, images[2])],
        "apng_wrong_frame_count": [actl(5), fctl(0), idat, fctl(1), fdat(2, images[1]), fctl(3), fdat(4, images[2])],
        "apng_two_actl": [actl(3), actl(3), fctl(0), idat, fctl(1), fdat(2, images[1]), fctl(3), fdat(4, images[2])],
    }
    for name, chunks in cases.items():
        add(name, f"{name}.png", head + b"".join(chunks) + end, images[0],
            note="an invalid animation: the default image alone")


# ---------------------------------------------------------------------------------------------
# GIF
# ---------------------------------------------------------------------------------------------

def lzw_literals(indices, min_size):
    """LZW data that sends every index as a literal code, with a clear code whenever the
    decoder's table would widen the codes, so that the code width stays min_size + 1."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    width = min(min_size + 1, 12)
    run = max(1, (1 << width) - (clear + 2) - 1) if width < 12 else len(indices) + 1
    codes = []
    for start in range(0, len(indices), run):
        codes.append(clear)
        codes.extend(int(i) for i in indices[start:start + run])
    codes.append(end)
    bits, count, out = 0, 0, bytearray()
    for code in codes:
        bits |= code << count
        count += width
        while count >= 8:
            out.append(bits & 0xFF)
            bits >>= 8
            count -= 8
    if count:
        out.append(bits & 0xFF)
    blocks = b"".join(bytes([len(out[i:i + 255])]) + out[i:i + 255] for i in range(0, len(out), 255))
    return bytes([min_size]) + blocks + b"\0"


def gif(screen, palette, frames):
    """A GIF89a: `frames` as (x, y, indices 2-D array, delay in 1/100 s, min code size)."""
    width, height = screen
    out = bytearray(b"GIF89a" + struct.pack("<HHBBB", width, height, 0xF7, 0, 0) + palette.tobytes())
    out += b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    for x, y, indices, delay, min_size in frames:
        out += b"\x21\xf9\x04\x04" + struct.pack("<H", delay) + b"\x00\x00"
        out += b"\x2c" + struct.pack("<HHHHB", x, y, indices.shape[1], indices.shape[0], 0)
        out += lzw_literals(indices.reshape(-1), min_size)
    return bytes(out + b"\x3b")


def make_gifs():
    rng = np.random.default_rng(11)
    palette = rng.integers(0, 256, (256, 3)).astype(np.uint8)
    width, height = 32, 24
    y, x = np.mgrid[0:height, 0:width]
    first = ((x * 7 + y * 3) % 256).astype(np.uint8)
    rgba = np.concatenate([palette[first], np.full((height, width, 1), 255, np.uint8)], axis=2)
    # The second frame reaches past the logical screen's right and bottom edges: browsers clip it.
    outside = np.full((20, 20), 9, np.uint8)
    data = gif((width, height), palette, [(0, 0, first, 10, 8), (20, 10, outside, 10, 8), (0, 0, first[::-1].copy(), 10, 8)])
    assert (pillow_rgba(data) == rgba).all()
    add("gif_frame_outside_screen", "gif_frame_outside_screen.gif", data, rgba, frames=3,
        note="its second frame reaches past the logical screen")
    # A first frame larger than the logical screen: Chromium and Firefox (and Pillow) grow the
    # screen to hold it; what it does not cover is transparent.
    big = ((x[:20, :24] * 5 + y[:20, :24]) % 256).astype(np.uint8)
    data = gif((16, 12), palette, [(4, 2, big, 10, 8), (0, 0, big[:12, :16].copy(), 10, 8)])
    rgba = np.zeros((22, 28, 4), np.uint8)
    rgba[2:22, 4:28, :3] = palette[big]
    rgba[2:22, 4:28, 3] = 255
    assert pillow_rgba(data).shape == rgba.shape
    add("gif_first_frame_past_screen", "gif_first_frame_past_screen.gif", data, rgba, frames=2,
        note="its first frame is larger than the logical screen")


# ---------------------------------------------------------------------------------------------
# TIFF
# ---------------------------------------------------------------------------------------------

def make_tiffs():
    import tifffile  # Pillow writes BigTIFF only little-endian and uncompressed

    for order, name in (("<", "tiff_bigtiff_le"), (">", "tiff_bigtiff_be")):
        rgba = pattern(40, 30, 21, alpha=True)
        out = io.BytesIO()
        tifffile.imwrite(out, rgba, bigtiff=True, byteorder=order, photometric="rgb", compression="zlib",
                         extrasamples=["unassalpha"], rowsperstrip=8)
        data = out.getvalue()
        assert data[:4] in (b"II+\0", b"MM\0+"), data[:4]
        # Pillow reads only little-endian BigTIFF: tifffile is the reference decoder here.
        assert (tifffile.imread(io.BytesIO(data)) == rgba).all()
        add(name, f"{name}.tif", data, rgba, note="BigTIFF (64-bit offsets), Deflate, strips")

    # 32-bit samples, shown by their range: an integer's whole range; a float's
    # SMinSampleValue..SMaxSampleValue, or 0..1 when the file does not say. tifffile reads the
    # samples back; the reference maps them so.
    y, x = np.mgrid[0:30, 0:40]
    ramp = (x * 30 + y) / (40 * 30 - 1)
    grey = np.stack([ramp] * 3 + [np.ones_like(ramp)], axis=2)

    def mapped(values):
        shown = np.clip(values, 0, 1) * 255
        return np.clip(np.rint(shown), 0, 255).astype(np.uint8)

    cases = [
        ("tiff_float32_grey", ramp.astype(np.float32), {}, grey),
        ("tiff_uint32_grey", (ramp * 0xFFFFFFFF).astype(np.uint32), {}, grey),
        ("tiff_int32_grey", (ramp * 0xFFFFFFFF - 2 ** 31).astype(np.int32), {}, grey),
    ]
    rgb = np.stack([ramp * 4 - 1, 3 - ramp * 4, np.full_like(ramp, 1.0)], axis=2).astype(np.float32)
    cases.append(("tiff_float32_rgb_range", rgb, {"extratags": [(340, 12, 3, (-1.0,) * 3, False), (341, 12, 3, (3.0,) * 3, False)]},
                  np.concatenate([(rgb + 1) / 4, np.ones((30, 40, 1))], axis=2)))
    for name, samples, extra, expected in cases:
        out = io.BytesIO()
        tifffile.imwrite(out, samples, photometric="minisblack" if samples.ndim == 2 else "rgb", **extra)
        data = out.getvalue()
        assert (tifffile.imread(io.BytesIO(data)) == samples).all()
        add(name, f"{name}.tif", data, mapped(expected), min_psnr=45, note=f"32-bit {samples.dtype} samples")

    # CIE L*a*b* (D50): shown in sRGB through LittleCMS, as Pillow's ImageCms does it.
    from PIL import ImageCms
    srgb, lab = ImageCms.createProfile("sRGB"), ImageCms.createProfile("LAB")
    source = Image.fromarray(pattern(40, 30, 22)[..., :3], "RGB")
    source.putpixel((0, 0), (255, 255, 255))
    source.putpixel((1, 0), (0, 0, 0))
    lab_image = ImageCms.applyTransform(source, ImageCms.buildTransform(srgb, lab, "RGB", "LAB"))
    # Without the L*a*b* profile ImageCms attaches, which carries the time it was made.
    lab_image.info.pop("icc_profile", None)
    out = io.BytesIO()
    lab_image.save(out, "TIFF", compression="tiff_lzw")
    data = out.getvalue()
    assert tifffile.TiffFile(io.BytesIO(data)).pages[0].photometric == 8
    with Image.open(io.BytesIO(data)) as read:
        shown = ImageCms.applyTransform(read, ImageCms.buildTransform(lab, srgb, "LAB", "RGB"))
    add("tiff_cielab", "tiff_cielab.tif", data, np.asarray(shown.convert("RGBA")), min_psnr=45,
        note="CIE L*a*b* (D50) samples")


# ---------------------------------------------------------------------------------------------
# AVIF: containers libavif 0.11 misreads
# ---------------------------------------------------------------------------------------------

def make_avifs():
    import avif_boxes as boxes

    # Tiles of 64x64, the least MIAF allows.
    width, height, tw, th = 128, 128, 64, 64
    source = pattern(width, height, 31, alpha=True)
    tiles, reference = [], np.zeros((height, width, 4), np.uint8)
    for row in range(2):
        for column in range(2):
            part = source[row * th:(row + 1) * th, column * tw:(column + 1) * tw].copy()
            # Each tile its own colour cast, so that a tile out of place shows.
            part[..., row * 2 + column if row * 2 + column < 3 else 0] //= 2
            out = io.BytesIO()
            Image.fromarray(part[..., :3], "RGB").save(out, "AVIF", quality=95)
            tiles.append(next(item for item in boxes.read_items(out.getvalue()).values() if not item["refs"]))
            reference[row * th:(row + 1) * th, column * tw:(column + 1) * tw] = np.asarray(boxes.decoded(out.getvalue()))
    whole = io.BytesIO()
    Image.fromarray(source, "RGBA").save(whole, "AVIF", quality=95)
    items = boxes.read_items(whole.getvalue())
    alpha_item = next(item for item in items.values() if b"auxl" in item["refs"])
    alpha_reference = np.asarray(boxes.decoded(whole.getvalue()))[..., 3]
    colr = next(p for p in tiles[0]["properties"] if p[4:8] == b"colr")
    pixi = next(p for p in tiles[0]["properties"] if p[4:8] == b"pixi")

    def tile_items(first_id):
        return [{"id": first_id + i, "type": b"av01", "payload": t["payload"], "properties": t["properties"], "refs": {}}
                for i, t in enumerate(tiles)]

    def grid(item_id, order):
        return {"id": item_id, "type": b"grid", "payload": boxes.grid_payload(2, 2, width, height),
                "properties": [boxes.ispe(width, height), pixi, colr], "refs": {b"dimg": order}}

    alpha = {"id": 6, "type": b"av01", "payload": alpha_item["payload"], "properties": alpha_item["properties"],
             "refs": {b"auxl": [1]}}
    with_alpha = reference.copy()
    with_alpha[..., 3] = alpha_reference

    def avif_case(name, data, rgba, note, frames=1):
        add(name, f"{name}.avif", data, rgba, frames=frames, min_psnr=45, note=note)

    def grid_case(name, data, expected, note):
        # libavif (Pillow's, 1.x) is the reference: it converts the assembled grid, so chroma is
        # upsampled across tile edges; the tiles decoded one by one must agree away from them.
        shown = np.asarray(boxes.decoded(data))
        inner = np.ones((height, width), bool)
        inner[:, tw - 2:tw + 2] = inner[th - 2:th + 2, :] = False
        assert (shown[..., 3] == expected[..., 3]).all(), name
        assert np.abs(shown[inner].astype(int) - expected[inner]).max() <= 2, name
        avif_case(name, data, shown, note)

    grid_case("avif_grid_alpha", boxes.write([grid(1, [2, 3, 4, 5])] + tile_items(2) + [alpha], primary=1),
              with_alpha, "a 2x2 grid whose alpha is one image")
    # Tiles stored as items 2..5 but placed by the grid's dimg order, which HEIF says rules.
    order = [4, 2, 5, 3]
    shuffled = with_alpha.copy()
    for place, item_id in enumerate(order):
        source_tile = item_id - 2
        rows, columns = divmod(place, 2)
        tile_rows, tile_columns = divmod(source_tile, 2)
        shuffled[rows * th:(rows + 1) * th, columns * tw:(columns + 1) * tw] = \
            with_alpha[tile_rows * th:(tile_rows + 1) * th, tile_columns * tw:(tile_columns + 1) * tw]
    shuffled[..., 3] = alpha_reference  # one alpha image for the whole grid: not tiled
    grid_case("avif_grid_dimg_order", boxes.write([grid(1, order)] + tile_items(2) + [alpha], primary=1), shuffled,
              "a 2x2 grid whose dimg references name its tiles in another order than they are stored")
    alpha_tiles = []
    for row in range(2):
        for column in range(2):
            part = source[row * th:(row + 1) * th, column * tw:(column + 1) * tw]
            _, tile_alpha = boxes.encoded(Image.fromarray(part, "RGBA"), quality=95)
            alpha_tiles.append({"id": 7 + len(alpha_tiles), "type": b"av01", "payload": tile_alpha["payload"],
                                "properties": tile_alpha["properties"], "refs": {}})
    alpha_grid = {"id": 6, "type": b"grid", "payload": boxes.grid_payload(2, 2, width, height),
                  "properties": [boxes.ispe(width, height), next(p for p in alpha_item["properties"] if p[4:8] == b"pixi"),
                                 boxes.aux_type(boxes.ALPHA_URN)], "refs": {b"auxl": [1], b"dimg": [7, 8, 9, 10]}}
    grid_case("avif_grid_alpha_grid", boxes.write([grid(1, [2, 3, 4, 5])] + tile_items(2) + [alpha_grid] + alpha_tiles,
                                                  primary=1), with_alpha, "a 2x2 grid whose alpha is a 2x2 grid")
    # A depth map is an auxiliary image too, but not alpha: the image stays opaque.
    single = {"id": 1, "type": b"av01", "payload": tiles[0]["payload"], "properties": tiles[0]["properties"], "refs": {}}
    depth_properties = [p if p[4:8] != b"auxC" else boxes.aux_type(boxes.DEPTH_URN) for p in alpha_item["properties"]]
    depth = {"id": 2, "type": b"av01", "payload": alpha_item["payload"], "properties": depth_properties,
             "refs": {b"auxl": [1]}}
    avif_case("avif_depth_aux", boxes.write([single, depth], primary=1), reference[:th, :tw], "a depth map, not alpha")
    # A last box of size 0 runs to the end of the file (ISO/IEC 14496-12 4.2).
    plain = [dict(item, id=item_id) for item_id, item in items.items()]
    avif_case("avif_box_size_zero", boxes.write(plain, primary=1, meta_last_size_zero=True),
              np.asarray(boxes.decoded(whole.getvalue())), "its meta box comes last with size 0: to the end of the file")


def make_avif_sequences():
    """Image sequences: the frames of the video track; a track of another kind is passed over."""
    import avif_boxes as boxes

    frames = [pattern(40, 30, 40 + i) for i in range(3)]
    out = io.BytesIO()
    Image.fromarray(frames[0][..., :3]).save(out, "AVIF", save_all=True, quality=95, duration=[100, 200, 300], loop=0,
                                              append_images=[Image.fromarray(f[..., :3]) for f in frames[1:]])
    data = zero_times(out.getvalue(), boxes)
    with Image.open(io.BytesIO(data)) as read:
        assert read.n_frames == 3
        first = np.asarray(read.convert("RGBA"))
    add("avif_sequence", "avif_sequence.avif", data, first, frames=3, min_psnr=45, note="an image sequence of 3 frames")
    # The same sequence with an audio track (no samples) after its video track.
    moov_start, moov_end = next((s - 8, e) for kind, s, e in boxes.children(data, 0, len(data)) if kind == b"moov")
    tkhd = boxes.full_box(b"tkhd", 0, 7, struct.pack(">IIIII", 0, 0, 2, 0, 0) + b"\0" * 8 + struct.pack(">hhhH", 0, 0, 0x0100, 0)
                          + struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000) + struct.pack(">II", 0, 0))
    mdhd = boxes.full_box(b"mdhd", 0, 0, struct.pack(">IIIIHH", 0, 0, 48000, 0, 0x55C4, 0))
    hdlr = boxes.full_box(b"hdlr", 0, 0, b"\0\0\0\0soun" + b"\0" * 12 + b"Sound\0")
    dinf = boxes.box(b"dinf", boxes.full_box(b"dref", 0, 0, struct.pack(">I", 1) + boxes.full_box(b"url ", 0, 1, b"")))
    stbl = boxes.box(b"stbl", boxes.full_box(b"stsd", 0, 0, struct.pack(">I", 0))
                     + boxes.full_box(b"stts", 0, 0, struct.pack(">I", 0)) + boxes.full_box(b"stsc", 0, 0, struct.pack(">I", 0))
                     + boxes.full_box(b"stsz", 0, 0, struct.pack(">II", 0, 0)) + boxes.full_box(b"stco", 0, 0, struct.pack(">I", 0)))
    minf = boxes.box(b"minf", boxes.full_box(b"smhd", 0, 0, b"\0" * 4) + dinf + stbl)
    trak = boxes.box(b"trak", tkhd + boxes.box(b"mdia", mdhd + hdlr + minf))
    moov = data[moov_start:moov_end]
    moov = struct.pack(">I", len(moov) + len(trak)) + moov[4:] + trak
    # Chunk offsets after the moov box move by the audio track's size.
    data = shift_chunk_offsets(data[:moov_start] + moov + data[moov_end:], boxes, after=moov_start, by=len(trak))
    add("avif_sequence_audio", "avif_sequence_audio.avif", data, first, frames=3, min_psnr=45,
        note="an image sequence with an audio track")
    # A sequence whose auxiliary track is a depth map: the frames stay opaque.
    out = io.BytesIO()
    Image.fromarray(frames[0]).save(out, "AVIF", save_all=True, quality=95, duration=[100, 200, 300], loop=0,
                                    append_images=[Image.fromarray(f) for f in frames[1:]])
    data = zero_times(out.getvalue(), boxes)
    assert data.count(b"auxiliary:alpha") >= 1
    data = data.replace(b"auxiliary:alpha", b"auxiliary:depth")
    add("avif_sequence_depth", "avif_sequence_depth.avif", data, first, frames=3, min_psnr=45,
        note="an image sequence whose auxiliary track is depth, not alpha")


def zero_times(data, boxes):
    """The file with the creation and modification times of its movie, tracks and media at 0,
    so that writing it again gives the same bytes."""
    data = bytearray(data)

    def walk(start, end):
        for kind, s, e in boxes.children(bytes(data), start, end):
            if kind in (b"moov", b"trak", b"mdia"):
                walk(s, e)
            elif kind in (b"mvhd", b"tkhd", b"mdhd"):
                size = 8 if data[s] == 1 else 4
                data[s + 4:s + 4 + 2 * size] = bytes(2 * size)

    walk(0, len(data))
    return bytes(data)


def shift_chunk_offsets(data, boxes, after, by):
    """Adds `by` to every stco entry and iloc offset that points past `after`."""
    data = bytearray(data)

    def walk(start, end):
        for kind, s, e in boxes.children(bytes(data), start, end):
            if kind in (b"moov", b"trak", b"mdia", b"minf", b"stbl"):
                walk(s, e)
            elif kind == b"stco":
                count = struct.unpack(">I", data[s + 4:s + 8])[0]
                for i in range(count):
                    at = s + 8 + 4 * i
                    value = struct.unpack(">I", data[at:at + 4])[0]
                    if value > after:
                        data[at:at + 4] = struct.pack(">I", value + by)
            elif kind == b"meta":
                for k2, s2, e2 in boxes.children(bytes(data), s + 4, e):
                    if k2 == b"iloc":
                        shift_iloc(data, s2, after, by)

    walk(0, len(data))
    return bytes(data)


def shift_iloc(data, s, after, by):
    version = data[s]
    offset_size, length_size = data[s + 4] >> 4, data[s + 4] & 15
    base_size, index_size = data[s + 5] >> 4, data[s + 5] & 15
    assert version == 0 and base_size == 0, "iloc layout"
    count = struct.unpack(">H", data[s + 6:s + 8])[0]
    i = s + 8
    for _ in range(count):
        i += 4
        extents = struct.unpack(">H", data[i:i + 2])[0]
        i += 2
        for _ in range(extents):
            value = int.from_bytes(data[i:i + offset_size], "big")
            if value > after:
                data[i:i + offset_size] = (value + by).to_bytes(offset_size, "big")
            i += offset_size + length_size


def make_refused():
    """Files no decoder here shows, each refused with the reason (LenientDecodingTests)."""
    rng = np.random.default_rng(12)
    palette = rng.integers(0, 256, (256, 3)).astype(np.uint8)
    indices = (np.arange(16 * 12).reshape(12, 16) % 256).astype(np.uint8)
    (HERE / "gif_lzw_code_size_11.gif").write_bytes(gif((16, 12), palette, [(0, 0, indices, 0, 11)]))


def main():
    make_jpegs()
    make_pngs()
    make_gifs()
    make_tiffs()
    make_avifs()
    make_avif_sequences()
    make_refused()
    (HERE / "manifest.json").write_text(json.dumps({"fixtures": ENTRIES}, indent=2) + "\n")
    print(f"wrote {len(ENTRIES)} fixtures")


if __name__ == "__main__":
    main()
