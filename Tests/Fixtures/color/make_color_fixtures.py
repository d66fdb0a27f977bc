#!/usr/bin/env python3
# This source file is part of Kingfisher for Linux.
# Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

"""Writes the colour-management fixtures of KingfisherTests into this directory.

Requirements: Python 3.11, `pip install pillow numpy scikit-image` (Pillow 13, whose ImageCms
bundles LittleCMS 2.19), and Debian's liblcms2-2 (for the profiles, built through ctypes).

Usage: python3 Tests/Fixtures/color/make_color_fixtures.py

Each fixture is a photo whose pixels are in a wide-gamut space, with that space's ICC profile
embedded, as JPEG, PNG and WebP (Adobe RGB, ProPhoto, Display P3), plus a CMYK JPEG with a
CMYK profile (lookup tables only). `<name>.ref.png` is the file decoded by Pillow and converted
to sRGB by LittleCMS (relative colorimetric with black-point compensation; perceptual for the
table-based CMYK profile), as the decoder must do. `manifest.json` lists them.
The profiles are built here from their published primaries and curves, not copied.
"""
import ctypes
import io
import json
import pathlib

import numpy as np
import skimage.data
from PIL import Image, ImageCms

HERE = pathlib.Path(__file__).resolve().parent
lcms = ctypes.CDLL("liblcms2.so.2")
lcms.cmsBuildGamma.restype = ctypes.c_void_p
lcms.cmsBuildGamma.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
lcms.cmsCreateProfilePlaceholder.restype = ctypes.c_void_p
lcms.cmsPipelineAlloc.restype = ctypes.c_void_p
lcms.cmsStageAllocCLut16bit.restype = ctypes.c_void_p
lcms.cmsMLUalloc.restype = ctypes.c_void_p
for name in ("cmsSaveProfileToMem", "cmsSetProfileVersion", "cmsWriteTag", "cmsMLUsetASCII", "cmsSetDeviceClass",
             "cmsSetColorSpace", "cmsSetPCS", "cmsStageSampleCLut16bit", "cmsPipelineInsertStage",
             "cmsCloseProfile", "cmsD50_XYZ"):
    getattr(lcms, name).argtypes = None
lcms.cmsSetProfileVersion.argtypes = [ctypes.c_void_p, ctypes.c_double]
lcms.cmsD50_XYZ.restype = ctypes.c_void_p


class xyY(ctypes.Structure):
    _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]


def saved(profile):
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(ctypes.c_void_p(profile), None, ctypes.byref(size))
    buffer = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(ctypes.c_void_p(profile), buffer, ctypes.byref(size))
    lcms.cmsCloseProfile(ctypes.c_void_p(profile))
    return buffer.raw


def describe(profile, text):
    mlu = lcms.cmsMLUalloc(None, 1)
    lcms.cmsMLUsetASCII(ctypes.c_void_p(mlu), b"en", b"US", text.encode())
    lcms.cmsWriteTag(ctypes.c_void_p(profile), 0x64657363, ctypes.c_void_p(mlu))  # 'desc'


def rgb_profile(name, white, primaries, curve):
    wp = xyY(*white, 1.0)
    triple = (xyY * 3)(*(xyY(x, y, 1.0) for x, y in primaries))
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    profile = lcms.cmsCreateRGBProfile(ctypes.byref(wp), triple, curves)
    lcms.cmsSetProfileVersion(ctypes.c_void_p(profile), 2.1)
    describe(profile, name)
    return saved(profile)


def cmyk_profile():
    """A CMYK profile with only an AToB0 table: naive CMYK to sRGB, then to Lab."""
    profile = lcms.cmsCreateProfilePlaceholder(None)
    # Version 2, whose lut16Type holds a lone table (version 4's lutAtoBType needs curves too).
    lcms.cmsSetProfileVersion(ctypes.c_void_p(profile), 2.1)
    lcms.cmsSetDeviceClass(ctypes.c_void_p(profile), 0x70727472)  # 'prtr'
    lcms.cmsSetColorSpace(ctypes.c_void_p(profile), 0x434D594B)  # 'CMYK'
    lcms.cmsSetPCS(ctypes.c_void_p(profile), 0x4C616220)  # 'Lab '
    describe(profile, "Kingfisher test CMYK")
    white = lcms.cmsD50_XYZ()
    lcms.cmsWriteTag(ctypes.c_void_p(profile), 0x77747074, ctypes.c_void_p(white))  # 'wtpt'
    grid = 9
    sampler_type = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_uint16), ctypes.POINTER(ctypes.c_uint16), ctypes.c_void_p)

    def sample(inputs, outputs, _):
        c, m, y, k = (inputs[i] / 65535 for i in range(4))
        # A slightly warm, not quite neutral ink set, so that the profile visibly matters.
        rgb = np.array([1 - min(1, v + k) for v in (c * 0.92, m * 0.97, y * 0.9)])
        lightness, a, b = srgb_to_lab(rgb)
        # ICC version 2's 16-bit Lab: L 100 is 0xFF00, a and b are offset by 128 and scaled by 256.
        outputs[0] = int(round(min(max(lightness, 0), 100) * 652.80))
        outputs[1] = int(round(min(max(a + 128, 0), 255) * 256))
        outputs[2] = int(round(min(max(b + 128, 0), 255) * 256))
        return 1

    callback = sampler_type(sample)
    pipeline = lcms.cmsPipelineAlloc(None, 4, 3)
    stage = lcms.cmsStageAllocCLut16bit(None, grid, 4, 3, None)
    lcms.cmsStageSampleCLut16bit(ctypes.c_void_p(stage), callback, None, 0)
    lcms.cmsPipelineInsertStage(ctypes.c_void_p(pipeline), 0, ctypes.c_void_p(stage))
    lcms.cmsWriteTag(ctypes.c_void_p(profile), 0x41324230, ctypes.c_void_p(pipeline))  # 'A2B0'
    return saved(profile)


def srgb_to_lab(rgb):
    """sRGB (0...1) to CIE Lab under D50, through sRGB's Bradford-adapted D50 matrix, as ICC does."""
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    matrix = np.array([[0.4360747, 0.3850649, 0.1430804],
                       [0.2225045, 0.7168786, 0.0606169],
                       [0.0139322, 0.0971045, 0.7141733]])
    xyz = matrix @ linear / np.array([0.9642, 1.0, 0.8249])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def parametric(g, a, b, c, d):
    params = (ctypes.c_double * 5)(g, a, b, c, d)
    return lcms.cmsBuildParametricToneCurve(None, 4, params)


D65 = (0.3127, 0.3290)
PROFILES = {
    "adobergb": rgb_profile("Adobe RGB (1998) compatible", D65, [(0.64, 0.33), (0.21, 0.71), (0.15, 0.06)],
                            lcms.cmsBuildGamma(None, 563 / 256)),
    "prophoto": rgb_profile("ProPhoto RGB (ROMM) compatible", (0.3457, 0.3585),
                            [(0.7347, 0.2653), (0.1596, 0.8404), (0.0366, 0.0001)], lcms.cmsBuildGamma(None, 1.8)),
    "displayp3": rgb_profile("Display P3 compatible", D65, [(0.680, 0.320), (0.265, 0.690), (0.150, 0.060)],
                             parametric(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)),
}
SRGB = ImageCms.createProfile("sRGB")
FLAGS = ImageCms.Flags.BLACKPOINTCOMPENSATION


def photo():
    im = Image.fromarray(skimage.data.astronaut()).crop((40, 0, 472, 288)).resize((96, 64), Image.Resampling.LANCZOS)
    # More saturated than sRGB allows once in the wide spaces: the conversion must clip well.
    hsv = np.asarray(im.convert("HSV")).astype(np.float64)
    hsv[..., 1] = np.clip(hsv[..., 1] * 1.3, 0, 255)
    return Image.fromarray(hsv.astype(np.uint8), "HSV").convert("RGB")


def to_srgb(im, icc, intent=ImageCms.Intent.RELATIVE_COLORIMETRIC):
    source = ImageCms.ImageCmsProfile(io.BytesIO(icc))
    return ImageCms.profileToProfile(im, source, SRGB, renderingIntent=intent, outputMode="RGB", flags=FLAGS)


def main():
    entries = []
    source = photo()
    for space, icc in PROFILES.items():
        wide = ImageCms.profileToProfile(source, SRGB, ImageCms.ImageCmsProfile(io.BytesIO(icc)),
                                         renderingIntent=ImageCms.Intent.RELATIVE_COLORIMETRIC, outputMode="RGB")
        for ext, params in (("jpg", {"quality": 92}), ("png", {}), ("webp", {"lossless": True})):
            name = f"{space}.{ext}"
            buffer = io.BytesIO()
            wide.save(buffer, format={"jpg": "JPEG", "png": "PNG", "webp": "WEBP"}[ext], icc_profile=icc, **params)
            (HERE / name).write_bytes(buffer.getvalue())
            decoded = Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")
            to_srgb(decoded, icc).convert("RGBA").save(HERE / f"{name}.ref.png")
            entries.append({"file": name, "profile": space, "ref": f"{name}.ref.png"})
    cmyk_icc = cmyk_profile()
    cmyk = source.convert("CMYK")
    buffer = io.BytesIO()
    cmyk.save(buffer, format="JPEG", quality=92, icc_profile=cmyk_icc)
    (HERE / "cmyk.jpg").write_bytes(buffer.getvalue())
    decoded = Image.open(io.BytesIO(buffer.getvalue()))
    assert decoded.mode == "CMYK"
    to_srgb(decoded, cmyk_icc, ImageCms.Intent.PERCEPTUAL).convert("RGBA").save(HERE / "cmyk.jpg.ref.png")
    entries.append({"file": "cmyk.jpg", "profile": "cmyk", "ref": "cmyk.jpg.ref.png"})
    (HERE / "manifest.json").write_text(json.dumps({"fixtures": entries}, indent=2) + "\n")


if __name__ == "__main__":
    main()
