# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Reads the items of AVIF files Pillow writes, and writes AVIF files of chosen items, for
make_lenient_fixtures.py: grids, auxiliary images and boxes that encoders do not write."""
import io
import struct

from PIL import Image


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full_box(kind, version, flags, payload):
    return box(kind, bytes([version]) + flags.to_bytes(3, "big") + payload)


def children(data, start, end):
    """(type, payload start, box end) of each box in data[start:end]."""
    out, i = [], start
    while i < end:
        size, kind = struct.unpack(">I4s", data[i:i + 8])
        header = 8
        if size == 1:
            size, header = struct.unpack(">Q", data[i + 8:i + 16])[0], 16
        elif size == 0:
            size = end - i
        out.append((kind, i + header, i + size))
        i += size
    return out


def child(data, start, end, kind):
    return next((s, e) for k, s, e in children(data, start, end) if k == kind)


def read_items(data):
    """{item id: {"type", "payload", "properties": [box bytes], "refs": {type: [ids]}}}"""
    meta = child(data, 0, len(data), b"meta")
    meta_start = meta[0] + 4
    items = {}
    s, e = child(data, meta_start, meta[1], b"iinf")
    version = data[s]
    count_size = 2 if version == 0 else 4
    for kind, cs, ce in children(data, s + 4 + count_size, e):
        item_id, _, item_type = struct.unpack(">HH4s", data[cs + 4:cs + 12])
        items[item_id] = {"type": item_type, "properties": [], "refs": {}}
    s, e = child(data, meta_start, meta[1], b"iloc")
    version = data[s]
    sizes = data[s + 4], data[s + 5]
    offset_size, length_size = sizes[0] >> 4, sizes[0] & 15
    base_size, index_size = sizes[1] >> 4, sizes[1] & 15
    i = s + 6
    count = struct.unpack(">H", data[i:i + 2])[0]
    i += 2

    def number(size):
        nonlocal i
        value = int.from_bytes(data[i:i + size], "big") if size else 0
        i += size
        return value

    for _ in range(count):
        item_id = number(2)
        if version in (1, 2):
            number(2)
        number(2)
        base = number(base_size)
        extents = number(2)
        payload = b""
        for _ in range(extents):
            if version in (1, 2):
                number(index_size)
            offset, length = number(offset_size), number(length_size)
            payload += data[base + offset:base + offset + length]
        items[item_id]["payload"] = payload
    iprp = child(data, meta_start, meta[1], b"iprp")
    ipco = child(data, iprp[0], iprp[1], b"ipco")
    properties = [data[ks - 8:ke] for _, ks, ke in children(data, ipco[0], ipco[1])]
    s, e = child(data, iprp[0], iprp[1], b"ipma")
    version, flags = data[s], int.from_bytes(data[s + 1:s + 4], "big")
    i = s + 4
    for _ in range(number(4)):
        item_id = number(2 if version < 1 else 4)
        for _ in range(number(1)):
            value = number(2 if flags & 1 else 1)
            index = value & (0x7FFF if flags & 1 else 0x7F)
            items[item_id]["properties"].append(properties[index - 1])
    for kind, s, e in children(data, meta_start, meta[1]):
        if kind == b"iref":
            for ref, rs, re in children(data, s + 4, e):
                from_id, n = struct.unpack(">HH", data[rs:rs + 4])
                items[from_id]["refs"].setdefault(ref, []).extend(struct.unpack(">%dH" % n, data[rs + 4:rs + 4 + 2 * n]))
    return items


def encoded(image, **options):
    """The items of `image` encoded by Pillow: (colour item, alpha item or None)."""
    out = io.BytesIO()
    image.save(out, "AVIF", **options)
    items = read_items(out.getvalue())
    colour = next(item for item in items.values() if not item["refs"])
    alpha = next((item for item in items.values() if b"auxl" in item["refs"]), None)
    return colour, alpha


def ispe(width, height):
    return full_box(b"ispe", 0, 0, struct.pack(">II", width, height))


def aux_type(urn):
    return full_box(b"auxC", 0, 0, urn.encode() + b"\0")


ALPHA_URN = "urn:mpeg:mpegB:cicp:systems:auxiliary:alpha"
DEPTH_URN = "urn:mpeg:mpegB:cicp:systems:auxiliary:depth"


def grid_payload(rows, columns, width, height):
    return struct.pack(">BBBBHH", 0, 0, rows - 1, columns - 1, width, height)


def write(items, primary, meta_last_size_zero=False, brands=(b"avif", b"mif1", b"miaf")):
    """An AVIF file of `items` (in iinf order, their payloads stored in mdat in the same
    order): each {"id", "type", "payload", "properties": [box bytes], "refs": {type: [ids]}}.
    `meta_last_size_zero` puts the meta box after mdat, with size 0 (to the end of the file)."""
    ftyp = box(b"ftyp", brands[0] + b"\0\0\0\0" + b"".join(brands))
    unique = []
    for item in items:
        for prop in item["properties"]:
            if prop not in unique:
                unique.append(prop)
    ipco = box(b"ipco", b"".join(unique))
    ipma_entries = b""
    for item in items:
        indices = [unique.index(p) + 1 for p in item["properties"]]
        essential = [0x80 if p[4:8] in (b"av1C", b"auxC", b"ispe") and p[4:8] != b"ispe" else 0 for p in item["properties"]]
        ipma_entries += struct.pack(">HB", item["id"], len(indices)) + bytes(i | e for i, e in zip(indices, essential))
    ipma = full_box(b"ipma", 0, 0, struct.pack(">I", len(items)) + ipma_entries)
    iprp = box(b"iprp", ipco + ipma)
    iinf = full_box(b"iinf", 0, 0, struct.pack(">H", len(items)) + b"".join(
        full_box(b"infe", 2, 0, struct.pack(">HH4s", item["id"], 0, item["type"]) + b"\0") for item in items))
    refs = b""
    for item in items:
        for kind, targets in item["refs"].items():
            refs += box(kind, struct.pack(">HH", item["id"], len(targets)) + struct.pack(">%dH" % len(targets), *targets))
    iref = full_box(b"iref", 0, 0, refs) if refs else b""
    hdlr = full_box(b"hdlr", 0, 0, b"\0\0\0\0pict" + b"\0" * 12 + b"\0")
    pitm = full_box(b"pitm", 0, 0, struct.pack(">H", primary))

    def meta_with(offsets):
        iloc = full_box(b"iloc", 0, 0, bytes([0x44, 0x00]) + struct.pack(">H", len(items)) + b"".join(
            struct.pack(">HHHII", item["id"], 0, 1, offsets.get(item["id"], 0), len(item["payload"])) for item in items))
        return full_box(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp)

    mdat_data, offsets = b"", {}
    mdat_start = len(ftyp) + 8 if meta_last_size_zero else len(ftyp) + len(meta_with({})) + 8
    for item in items:
        offsets[item["id"]] = mdat_start + len(mdat_data)
        mdat_data += item["payload"]
    mdat = box(b"mdat", mdat_data)
    if meta_last_size_zero:
        meta = meta_with(offsets)
        return ftyp + mdat + struct.pack(">I", 0) + meta[4:]
    return ftyp + meta_with(offsets) + mdat


def decoded(image_bytes):
    with Image.open(io.BytesIO(image_bytes)) as im:
        return im.convert("RGBA")
