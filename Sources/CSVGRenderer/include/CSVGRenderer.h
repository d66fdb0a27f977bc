// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

// SVG documents rasterised by librsvg, which is opened on first use (dlopen of librsvg-2.so.2)
// so that neither building nor starting the library needs it, and its GLib and cairo types stay
// out of Swift.
//
// Untrusted documents are safe to give it:
// - A document is parsed without a base URL, so librsvg loads nothing but `data:` URLs:
//   external images, stylesheets, `use` of other files and XInclude are refused by librsvg.
// - libxml2's limits stay on (no RSVG_HANDLE_FLAG_UNLIMITED): entity amplification and
//   nesting deeper than 256 elements stop the parse. (KingfisherImaging expands a document's
//   entities before it gets here: librsvg 2.54 leaks their values.)
// - Rendering runs on a thread of its own with a 16 MiB stack and a deadline. The caller waits
//   at most until the deadline. librsvg 2.54 cannot be stopped mid-render, so a render its
//   caller abandoned goes on in the idle scheduling class to its end; at most
//   kf_svg_max_renderers renders run at once, so abandoned ones cannot pile up.
#ifndef KF_SVG_RENDERER_H
#define KF_SVG_RENDERER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/// A parsed SVG document.
typedef struct kf_svg_document kf_svg_document;

/// Opens librsvg once per process; false (and kf_svg_library_error says why) when it is
/// missing or lacks a function.
bool kf_svg_library_load(void);

/// dlopen's or dlsym's message from a failed kf_svg_library_load, or "".
const char *kf_svg_library_error(void);

/// Parses `size` bytes of SVG. NULL on failure, with librsvg's message in `error`.
/// kf_svg_library_load must have succeeded.
kf_svg_document *kf_svg_document_parse(const uint8_t *bytes, size_t size, char *error, size_t error_size);

/// The document's size in CSS pixels at 96 DPI: its `width` and `height`, else its viewBox's,
/// else 300 x 150 (a browser's default object size).
void kf_svg_document_size(const kf_svg_document *document, double *width, double *height);

/// Releases the document (a renderer still running keeps its own reference).
void kf_svg_document_free(kf_svg_document *document);

/// How a render ended.
typedef enum {
    KF_SVG_RENDERED = 0,
    /// librsvg or cairo failed; `error` says how.
    KF_SVG_FAILED = 1,
    /// The deadline passed before the render finished.
    KF_SVG_TIMED_OUT = 2,
    /// Every renderer was busy until the deadline.
    KF_SVG_BUSY = 3,
} kf_svg_render_status;

/// Renders the whole document stretched to `width` x `height` into `rgba` (width * height * 4
/// bytes of straight RGBA8), within `time_limit_ns` nanoseconds from now. `rgba` is written only
/// when KF_SVG_RENDERED is returned.
kf_svg_render_status kf_svg_document_render(
    kf_svg_document *document, int width, int height, uint8_t *rgba, int64_t time_limit_ns,
    char *error, size_t error_size);

/// How many renders may run at once: twice the processors online, at least 4.
int kf_svg_max_renderers(void);

#endif
