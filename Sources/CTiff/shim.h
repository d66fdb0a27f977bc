// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include <tiffio.h>

/* TIFFGetField and TIFFSetField are variadic, which Swift cannot call: these fix the argument
   types each tag takes (a wrong type there is undefined behaviour). They return 1 when the
   tag is present (or has a default), 0 otherwise. */

static inline int kf_tiff_get_u16(TIFF *tif, uint32_t tag, uint16_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

static inline int kf_tiff_get_u32(TIFF *tif, uint32_t tag, uint32_t *value) {
    return TIFFGetFieldDefaulted(tif, tag, value);
}

/* A double-valued tag the file sets (SMinSampleValue, SMaxSampleValue); 0 when it is absent. */
static inline int kf_tiff_get_double(TIFF *tif, uint32_t tag, double *value) {
    return TIFFGetField(tif, tag, value);
}

/* ExtraSamples: how many, and the kind of each (EXTRASAMPLE_*). */
static inline int kf_tiff_get_extra_samples(TIFF *tif, uint16_t *count, const uint16_t **kinds) {
    uint16_t *values = NULL;
    int found = TIFFGetFieldDefaulted(tif, TIFFTAG_EXTRASAMPLES, count, &values);
    *kinds = values;
    return found;
}

/* ColorMap: three arrays of 1 << BitsPerSample 16-bit entries. */
static inline int kf_tiff_get_colormap(TIFF *tif, const uint16_t **red, const uint16_t **green,
                                       const uint16_t **blue) {
    uint16_t *r = NULL, *g = NULL, *b = NULL;
    int found = TIFFGetField(tif, TIFFTAG_COLORMAP, &r, &g, &b);
    *red = r; *green = g; *blue = b;
    return found;
}

/* The embedded ICC profile (tag 34675). */
static inline int kf_tiff_get_icc_profile(TIFF *tif, uint32_t *count, const void **data) {
    void *bytes = NULL;
    int found = TIFFGetField(tif, TIFFTAG_ICCPROFILE, count, &bytes);
    *data = bytes;
    return found;
}

/* A tag whose value TIFFSetField takes as an int (uint16 tags and codec pseudo-tags). */
static inline int kf_tiff_set_int(TIFF *tif, uint32_t tag, int value) {
    return TIFFSetField(tif, tag, value);
}
