// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// The part of librsvg 2.52+, GLib and cairo the renderer calls, declared here from their
// documented C signatures so that no development package is needed to build; the functions are
// looked up in librsvg and the libraries it links once it is opened.
#ifndef KF_SVG_LIBRARY_H
#define KF_SVG_LIBRARY_H

#include <stddef.h>
#include <stdint.h>

typedef int kf_gboolean;
typedef struct kf_rsvg_handle kf_rsvg_handle;
typedef struct kf_cairo kf_cairo;
typedef struct kf_cairo_surface kf_cairo_surface;

/// GError.
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} kf_gerror;

/// RsvgLength.
typedef struct {
    double length;
    int unit;
} kf_rsvg_length;

/// RsvgRectangle.
typedef struct {
    double x, y, width, height;
} kf_rsvg_rectangle;

enum { KF_CAIRO_FORMAT_ARGB32 = 0 };

#define KF_SVG_FUNCTIONS(F)                                                                                  \
    F(rsvg_handle_new_from_data, kf_rsvg_handle *, (const uint8_t *data, size_t size, kf_gerror **error))   \
    F(rsvg_handle_set_dpi, void, (kf_rsvg_handle * handle, double dpi))                                      \
    F(rsvg_handle_get_intrinsic_size_in_pixels, kf_gboolean, (kf_rsvg_handle * handle, double *w, double *h)) \
    F(rsvg_handle_get_intrinsic_dimensions, void,                                                            \
      (kf_rsvg_handle * handle, kf_gboolean * has_width, kf_rsvg_length * width, kf_gboolean * has_height,    \
       kf_rsvg_length * height, kf_gboolean * has_viewbox, kf_rsvg_rectangle * viewbox))                     \
    F(rsvg_handle_render_document, kf_gboolean,                                                              \
      (kf_rsvg_handle * handle, kf_cairo * cr, const kf_rsvg_rectangle *viewport, kf_gerror **error))         \
    F(g_object_ref, void *, (void *object))                                                                  \
    F(g_object_unref, void, (void *object))                                                                  \
    F(g_error_free, void, (kf_gerror * error))                                                               \
    F(cairo_image_surface_create, kf_cairo_surface *, (int format, int width, int height))                  \
    F(cairo_image_surface_get_data, unsigned char *, (kf_cairo_surface * surface))                          \
    F(cairo_image_surface_get_stride, int, (kf_cairo_surface * surface))                                    \
    F(cairo_surface_status, int, (kf_cairo_surface * surface))                                              \
    F(cairo_surface_flush, void, (kf_cairo_surface * surface))                                              \
    F(cairo_surface_destroy, void, (kf_cairo_surface * surface))                                            \
    F(cairo_create, kf_cairo *, (kf_cairo_surface * target))                                                 \
    F(cairo_status_to_string, const char *, (int status))                                                   \
    F(cairo_scale, void, (kf_cairo * cr, double sx, double sy))                                              \
    F(cairo_destroy, void, (kf_cairo * cr))

/// The functions, once kf_svg_library_load has succeeded.
typedef struct {
#define KF_SVG_FIELD(name, result, parameters) result(*name) parameters;
    KF_SVG_FUNCTIONS(KF_SVG_FIELD)
#undef KF_SVG_FIELD
} kf_svg_library;

extern kf_svg_library kf_svg;

#endif
