// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include <lcms2.h>

// lcms2's pixel-format and flag macros are built from function-like macros Swift cannot import.
static const cmsUInt32Number KF_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number KF_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number KF_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
// 8-bit CIE L*a*b* (L 0-255 for 0-100, a and b offset by 128) and an alpha byte.
static const cmsUInt32Number KF_TYPE_LabA_8 = COLORSPACE_SH(PT_Lab) | EXTRA_SH(1) | CHANNELS_SH(3) | BYTES_SH(1);
static const cmsUInt32Number KF_FLAGS_BLACKPOINTCOMPENSATION = cmsFLAGS_BLACKPOINTCOMPENSATION;
static const cmsUInt32Number KF_FLAGS_NOCACHE = cmsFLAGS_NOCACHE;
static const cmsUInt32Number KF_FLAGS_COPY_ALPHA = cmsFLAGS_COPY_ALPHA;
