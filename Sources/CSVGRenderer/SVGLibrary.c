// This source file is part of Kingfisher for Linux.
// Copyright (c) 2026 The Kingfisher for Linux authors. MIT License: see LICENSE.

#include "SVGLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>

#include "CSVGRenderer.h"

__attribute__((visibility("hidden"))) kf_svg_library kf_svg;

static pthread_once_t kf_svg_once = PTHREAD_ONCE_INIT;
static bool kf_svg_loaded;
static char kf_svg_error[512];

static void kf_svg_load_once(void) {
    static const char *const names[] = {"librsvg-2.so.2", "librsvg-2.so"};
    void *handle = NULL;
    for (size_t i = 0; i < 2 && handle == NULL; i++) handle = dlopen(names[i], RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *reason = dlerror();
        snprintf(kf_svg_error, sizeof kf_svg_error, "%s", reason ? reason : "cannot open librsvg-2.so.2");
        return;
    }
    // dlsym on librsvg's handle also searches the libraries it links: GLib's and cairo's
    // functions are the ones librsvg itself calls.
#define KF_SVG_RESOLVE(name, result, parameters)                                                              \
    *(void **)&kf_svg.name = dlsym(handle, #name);                                                            \
    if (kf_svg.name == NULL) {                                                                                \
        snprintf(kf_svg_error, sizeof kf_svg_error, "librsvg-2.so.2 (2.52 or later needed) has no function " #name); \
        return;                                                                                               \
    }
    KF_SVG_FUNCTIONS(KF_SVG_RESOLVE)
#undef KF_SVG_RESOLVE
    kf_svg_loaded = true;
}

bool kf_svg_library_load(void) {
    pthread_once(&kf_svg_once, kf_svg_load_once);
    return kf_svg_loaded;
}

const char *kf_svg_library_error(void) { return kf_svg_error; }
